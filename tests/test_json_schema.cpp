// The one JSON Schema validator (reports/JsonSchema.h: compare's check of its inputs and the tests' check of
// every report.json) and docs/report.schema.json itself: a document written by hand from docs/report.md must
// pass, and each kind of mistake the schema exists to catch must fail naming the offending value's key path.
#include "engine/common/Error.h"
#include "reports/JsonSchema.h"
#include "tests/TestSupport.h"

#include <cmath>
#include <doctest/doctest.h>
#include <fstream>
#include <functional>
#include <limits>

using namespace testsupport;
using gpueff::reports::JsonSchema;
using nlohmann::json;

namespace {

// The schema as the repository holds it (the product compiles the same file in).
const JsonSchema& reportSchema() {
    static const JsonSchema schema = [] {
        std::ifstream in(sourceDir() / "docs" / "report.schema.json");
        REQUIRE_MESSAGE(in.good(), "docs/report.schema.json is missing");
        return JsonSchema(json::parse(in), "docs/report.schema.json");
    }();
    return schema;
}

// "" when valid, else "<key path>: <what>".
std::string violation(const JsonSchema& schema, const json& doc) {
    auto v = schema.firstViolation(doc);
    return v ? gpueff::reports::describeViolation(*v) : "";
}

// The error a schema is refused with when loaded, "" when it loads.
std::string loadError(const char* schemaText) {
    try {
        JsonSchema(json::parse(schemaText), "s.json");
    } catch (const gpueff::Error& e) {
        return e.what();
    }
    return "";
}

// Every section of docs/report.md, with made-up but consistent numbers, for two devices.
json handMadeReport() {
    json conv = {{"parallel_efficiency", 0.375},
                 {"load_balance", 0.75},
                 {"communication_efficiency", 0.8},
                 {"orchestration_efficiency", 0.625},
                 {"useful_sum_ns", 750},
                 {"useful_max_ns", 500},
                 {"active_max_ns", 625},
                 {"devices",
                  {{{"id", "modal:144:0"}, {"useful_ns", 500}, {"communication_ns", 125}, {"idle_ns", 375}},
                   {{"id", "modal:145:1"}, {"useful_ns", 250}, {"communication_ns", 0}, {"idle_ns", 750}}}}};
    json row = {{"name", "gemm"}, {"time_percent", 100.0}, {"total_ns", 750},
                {"instances", 3}, {"avg_ns", 250.0},       {"med_ns", 250.0},
                {"min_ns", 200},  {"max_ns", 300},         {"stddev_ns", 50.0}};
    json overlapRows = {{"Total", {0.5, 0.5}},   {"Average", {0.5, 0.5}}, {"Maximum", {0.5, 0.5}},
                        {"Minimum", {0.5, 0.5}}, {"StDev", {0.0, 0.0}},   {"Avg/Max", {1.0, nullptr}}};
    return {
        {"schema", "gpueff-report/1"},
        {"tool", {{"name", "gpueff"}, {"version", "0.4.0"}}},
        {"trace", {{"prv", "out/x.prv"}, {"tasks", 2}, {"threads", 6}}},
        {"inputs",
         {{{"path", "x.sqlite"}, {"nsys_version", "2024.5.1"}, {"host", "modal"}, {"offset_ns", -12}}}},
        {"window", {{"begin_ns", 0}, {"end_ns", 1000}, {"duration_ns", 1000}, {"source", "gpu-activity"}}},
        {"devices",
         {{{"id", "modal:144:0"},
           {"task", 1},
           {"gpu", 0},
           {"name", "CUDA-D0 python3 144@modal"},
           {"rows", 1},
           {"useful_ns", 500},
           {"communication_ns", 125},
           {"idle_ns", 375},
           {"compute_ns", 500},
           {"nccl_ns", 100},
           {"memory_ns", 50},
           {"kernels", 4},
           {"memory_operations", 1}}}},
        {"efficiency", {{"nccl_as_communication", conv}, {"nccl_as_useful", conv}}},
        {"host",
         {{"offload",
           {{{"task", 1}, {"name", "python3 144@modal"}, {"blocking_ns", 10}, {"offload_efficiency", 0.99}}}},
          {"mpi", nullptr}}},
        {"kernels_in_flight",
         {{{"device", "modal:144:0"},
           {"time_ns_by_count", {{"0", 500}, {"1", 500}}},
           {"with_memory_time_ns_by_count", {{"0", 450}, {"1", 550}}},
           {"maximum", 1},
           {"mean", 0.5}}}},
        {"kernels_queued",
         {{{"device", "modal:144:0"}, {"time_ns_by_depth", {{"0", 1000}}}, {"maximum", 0}, {"mean", 0.0}}}},
        {"overlap",
         {{{"device", "modal:144:0"},
           {"communication_ns", 125},
           {"time_ns_by_concurrency", {{"1", 100}, {"2", 25}}},
           {"fraction_of_communication", {{"1", 0.8}, {"2", 0.2}}},
           {"fraction_of_window", {{"1", 0.1}, {"2", 0.025}}}}}},
        {"overlap_table",
         {{"concurrency", {1, 2}},
          {"fraction_of_communication", overlapRows},
          {"fraction_of_window", overlapRows}}},
        {"timeline",
         {{"bins", 2},
          {"bin_ns", 500.0},
          {"devices",
           {{{"device", "modal:144:0"},
             {"kernels_in_flight", {0.5, 1.25}},
             {"useful", {0.5, 0.5}},
             {"communication", {0.25, 0.0}}}}}}},
        {"nccl_overlap",
         {{{"device", "modal:144:0"},
           {"kernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL"},
           {"instances", 2},
           {"time_ns", 100},
           {"overlapped_ns", 25},
           {"overlapped_fraction", 0.25}}}},
        {"tensor_core", {{"available", false}, {"reason", "no GPU metrics in the export"}}},
        {"kernel_summary", {{"overall", {row}}, {"devices", {{{"device", "modal:144:0"}, {"rows", {row}}}}}}},
        {"kernel_durations",
         {{{"name", "gemm"},
           {"instances", 3},
           {"bins", {{{"lower_ns", 200}, {"upper_ns", 300}, {"count", 3}}}},
           {"modes_ns", {250}}}}},
        {"gaps",
         {{{"device", "modal:144:0"},
           {"count", 2},
           {"total_ns", 375},
           {"host_wait_count", 1},
           {"host_wait_ns", 300},
           {"kernel_wait_count", 1},
           {"kernel_wait_ns", 75}}}},
        {"hta", json::parse(R"({"consecutive_kernel_delay_ns": 30000, "devices": [
            {"device": "modal:144:0", "kernel_time_ns": 1000, "idle_ns": 375, "compute_ns": 500,
             "non_compute_ns": 125, "comm_comp_overlap": 0.5,
             "idle_by_cause": {"host_wait_ns": 300, "kernel_wait_ns": 75, "other_ns": 0},
             "rules": {"last_profiler_step": {"step_begin_ns": 600, "operations_dropped": 1, "dropped_ns": 250,
                                              "kernel_time_ns": 600, "idle_ns": 225, "compute_ns": 250},
                       "whole_microseconds": {"kernel_time_ns": 1000, "idle_ns": 1000, "compute_ns": -1000},
                       "host_events_with_stream": {"events": 2, "time_ns": 100, "kernel_time_ns": 1050,
                                                   "idle_ns": 350, "compute_ns": 550}}},
            {"device": "modal:145:1", "kernel_time_ns": 0, "idle_ns": 0, "compute_ns": 0, "non_compute_ns": 0,
             "comm_comp_overlap": null,
             "idle_by_cause": {"host_wait_ns": 0, "kernel_wait_ns": 0, "other_ns": 0},
             "rules": {"last_profiler_step": null, "whole_microseconds": null,
                       "host_events_with_stream": null}}]})")},
        {"notes", json::array()}};
}

} // namespace

TEST_CASE("JSON schema validator: each supported keyword accepts and rejects") {
    JsonSchema s(json::parse(R"({
        "type": "object", "required": ["a"],
        "properties": {"a": {"type": "integer", "minimum": 0, "maximum": 10},
                       "b": {"type": ["string", "null"], "pattern": "^x"},
                       "c": {"type": "array", "minItems": 2, "items": {"enum": [1, 2]}},
                       "d": {"const": "k"},
                       "e": {"$ref": "#/$defs/positive"},
                       "f": {"oneOf": [{"type": "integer"}, {"type": "number"}]},
                       "g": {"anyOf": [{"type": "string"}, {"type": "boolean"}]},
                       "h": {"type": "object", "patternProperties": {"^[0-9]+$": {"type": "integer"}},
                             "additionalProperties": false},
                       "i": {"allOf": [{"type": "number"}, {"maximum": 5}]}},
        "additionalProperties": {"type": "boolean"},
        "$defs": {"positive": {"type": "number", "minimum": 1}}})"),
                 "s.json");
    auto ok = [&](const char* doc) { CHECK_MESSAGE(violation(s, json::parse(doc)) == "", doc); };
    auto bad = [&](const char* doc, const std::string& expected) {
        CHECK_MESSAGE(violation(s, json::parse(doc)) == expected, doc);
    };
    ok(R"({"a": 3})");
    ok(R"({"a": 3, "b": null, "c": [1, 2, 1], "d": "k", "e": 1.5, "f": 1.5, "g": true, "h": {"12": 1},
           "i": 4.5, "z": false})");
    bad(R"({})", "a: missing (a required key)");
    bad(R"({"a": 3.5})", "a: must be an integer in [0, 10], got 3.5");
    bad(R"({"a": 11})", "a: must be an integer in [0, 10], got 11");
    bad(R"({"a": -1})", "a: must be an integer in [0, 10], got -1");
    bad(R"({"a": null})", "a: must be an integer in [0, 10], got null");
    bad(R"({"a": 1, "b": "y"})",
        "b: must be a string matching ^x (at most 4096 characters) or null, got \"y\"");
    bad(R"({"a": 1, "b": 2})", "b: must be a string matching ^x (at most 4096 characters) or null, got 2");
    bad(R"({"a": 1, "c": [1]})", "c: must have at least 2 items, got 1");
    bad(R"({"a": 1, "c": [1, 3]})", "c[1]: must be one of [1,2], got 3");
    bad(R"({"a": 1, "d": "j"})", "d: must be \"k\", got \"j\"");
    bad(R"({"a": 1, "e": 0})", "e: must be a number >= 1, got 0");
    bad(R"({"a": 1, "f": 1})", "f: fits more than one of the forms s.json allows");
    // No branch fits: the first of the equally deep violations, that of the first branch.
    bad(R"({"a": 1, "g": 1})", "g: must be a string, got 1");
    bad(R"({"a": 1, "h": {"x": 1}})", "h.x: unexpected key (not in s.json)");
    bad(R"({"a": 1, "h": {"1": "one"}})",
        "h.1: must be an integer in [-9223372036854775808, 9223372036854775807], got \"one\"");
    bad(R"({"a": 1, "i": 6})", "i: must be a number <= 5, got 6");
    bad(R"({"a": 1, "z": 0})", "z: must be a boolean, got 0");
    bad(R"([1])", "must be an object, got an array");
}

// report.json's integers are int64 ns and counts that nlohmann writes as digits (reports/JsonSchema.cpp):
// 1.0 and 1e300 are numbers but no integers, and 2^63 does not fit. Parsed from text, as report.json is read.
TEST_CASE("JSON schema validator: an integer is a JSON integer that fits in int64") {
    JsonSchema integer(json::parse(R"({"type": "integer"})"), "s.json");
    JsonSchema number(json::parse(R"({"type": "number"})"), "s.json");
    const std::string expected = "must be an integer in [-9223372036854775808, 9223372036854775807], got ";
    for (const char* text : {"0", "1", "-1", "9223372036854775807", "-9223372036854775808"}) {
        CHECK_MESSAGE(violation(integer, json::parse(text)) == "", text);
        CHECK_MESSAGE(violation(number, json::parse(text)) == "", text);
    }
    CHECK(violation(integer, json::parse("1.0")) == expected + "1.0");
    CHECK(violation(integer, json::parse("1e300")) == expected + "1e+300");
    CHECK(violation(integer, json::parse("9223372036854775808")) == expected + "9223372036854775808");
    CHECK(violation(integer, json::parse("9.223372036854775808e18")) == expected + "9.223372036854776e+18");
    CHECK(violation(integer, json::parse("-9223372036854775809")) == expected + "-9.223372036854776e+18");
    for (const char* text : {"1.0", "1e300", "9223372036854775808"})
        CHECK_MESSAGE(violation(number, json::parse(text)) == "", text);
}

TEST_CASE("JSON schema validator: a schema it cannot apply in full is refused when loaded") {
    // A keyword the validator does not implement must not be skipped silently, even in a branch no document
    // has reached yet.
    CHECK(loadError(R"({"maxItems": 1})") == "s.json: #: unsupported schema keyword \"maxItems\"");
    CHECK(loadError(R"({"properties": {"a": {"anyOf": [{"type": "string"}, {"format": "date"}]}}})") ==
          "s.json: #/properties/a/anyOf/1: unsupported schema keyword \"format\"");
    CHECK(loadError(R"({"type": "int"})") == "s.json: #: unknown type \"int\"");
    CHECK(loadError(R"({"$ref": "#/$defs/missing"})") == "s.json: unresolved $ref: #/$defs/missing");
    CHECK(loadError(R"({"$ref": "other.json#/a"})") ==
          "s.json: unsupported $ref (only local ones): other.json#/a");
    CHECK(loadError(R"({"pattern": "("})").rfind("s.json: #: pattern ( does not compile: ", 0) == 0);
    CHECK(loadError(R"({"items": 3})") == "s.json: #/items: a schema must be an object or a boolean");
    CHECK(loadError(R"({"title": "t", "description": "d", "$defs": {"x": true}, "items": false})") == "");
}

TEST_CASE("report schema accepts the hand-made report of docs/report.md") {
    auto doc = handMadeReport();
    CHECK(violation(reportSchema(), doc) == "");

    // The other documented shapes of the alternatives.
    doc["tensor_core"] = json::parse(R"({"available": true, "metric": "Tensor Active [Throughput %]",
        "kernels": ["gemm"], "tasks": [{"task": 1, "device": "modal:144:0", "tensor_active_percent": {"gemm": null}}],
        "rows": {"Average": {"gemm": 12.5}, "Maximum": {"gemm": 12.5}, "Minimum": {"gemm": 12.5},
                 "StDev": {"gemm": 0.0}, "Avg/Max": {"gemm": 1.0}}})");
    doc["host"]["mpi"] = json::parse(R"({"parallel_efficiency": 0.9, "load_balance": 0.95,
        "communication_efficiency": 0.947, "tasks": [{"task": 1, "mpi_ns": 5, "outside_mpi_ns": 995}]})");
    doc["window"] = json::parse(R"({"begin_ns": 5, "end_ns": 9, "duration_ns": 4, "source": "region",
                                    "region": "step"})");
    doc["devices"][0]["id"] = "task1:0";
    doc["future_key"] = {{"anything", 1}}; // the top level stays open
    CHECK(violation(reportSchema(), doc) == "");
}

TEST_CASE("report schema rejects what docs/report.md rules out") {
    auto rejects = [&](const std::string& what, const std::function<void(json&)>& mutate,
                       const std::string& expected) {
        CAPTURE(what);
        auto doc = handMadeReport();
        mutate(doc);
        // Round trip through text, as report.json is read: NaN becomes null there.
        auto got = violation(reportSchema(), json::parse(doc.dump()));
        CHECK_MESSAGE(got.rfind(expected, 0) == 0, "expected '" << expected << "...', got '" << got << "'");
    };
    rejects(
        "missing required key", [](json& d) { d.erase("overlap"); }, "overlap: missing (a required key)");
    rejects(
        "missing convention", [](json& d) { d["efficiency"].erase("nccl_as_useful"); },
        "efficiency.nccl_as_useful: missing (a required key)");
    rejects(
        "fraction 1.5", [](json& d) { d["efficiency"]["nccl_as_useful"]["load_balance"] = 1.5; },
        "efficiency.nccl_as_useful.load_balance: must be a number in [0, 1] or null, got 1.5");
    rejects(
        "negative fraction", [](json& d) { d["overlap"][0]["fraction_of_window"]["2"] = -0.1; },
        "overlap[0].fraction_of_window.2: must be a number in [0, 1], got -0.1");
    rejects(
        "NaN written as null", [](json& d) { d["devices"][0]["useful_ns"] = std::nan(""); },
        "devices[0].useful_ns: must be an integer in [0, 9223372036854775807], got null");
    rejects(
        "NaN mean written as null in a fraction map",
        [](json& d) {
            d["overlap"][0]["fraction_of_communication"]["1"] = std::numeric_limits<double>::quiet_NaN();
        },
        "overlap[0].fraction_of_communication.1: must be a number in [0, 1], got null");
    rejects(
        "wrong type", [](json& d) { d["window"]["begin_ns"] = "0"; },
        "window.begin_ns: must be an integer in [0, 9223372036854775807], got \"0\"");
    rejects(
        "fractional ns", [](json& d) { d["gaps"][0]["total_ns"] = 375.5; },
        "gaps[0].total_ns: must be an integer in [0, 9223372036854775807], got 375.5");
    rejects(
        "ns written as a double", [](json& d) { d["gaps"][0]["total_ns"] = 375.0; },
        "gaps[0].total_ns: must be an integer in [0, 9223372036854775807], got 375.0");
    rejects(
        "negative ns", [](json& d) { d["devices"][0]["idle_ns"] = -1; },
        "devices[0].idle_ns: must be an integer in [0, 9223372036854775807], got -1");
    rejects(
        "bad histogram key", [](json& d) { d["kernels_in_flight"][0]["time_ns_by_count"]["one"] = 1; },
        "kernels_in_flight[0].time_ns_by_count.one: unexpected key (not in docs/report.schema.json)");
    rejects(
        "timeline share 1.5", [](json& d) { d["timeline"]["devices"][0]["useful"][1] = 1.5; },
        "timeline.devices[0].useful[1]: must be a number in [0, 1], got 1.5");
    rejects(
        "timeline without bins", [](json& d) { d["timeline"].erase("bins"); },
        "timeline.bins: missing (a required key)");
    rejects(
        "concurrency 0", [](json& d) { d["overlap"][0]["time_ns_by_concurrency"]["0"] = 1; },
        "overlap[0].time_ns_by_concurrency.0: unexpected key (not in docs/report.schema.json)");
    rejects(
        "typo in a convention key",
        [](json& d) { d["efficiency"]["nccl_as_communication"]["load_balanse"] = 1; },
        "efficiency.nccl_as_communication.load_balanse: unexpected key (not in docs/report.schema.json)");
    rejects(
        "wrong schema id", [](json& d) { d["schema"] = "gpueff-report/2"; },
        "schema: must be \"gpueff-report/1\", got \"gpueff-report/2\"");
    // Neither form of tensor_core: the deepest violation among the forms' is named.
    rejects(
        "tensor_core half of each form",
        [](json& d) {
            d["tensor_core"] = {{"available", true}, {"reason", "x"}};
        },
        "tensor_core.available: must be false, got true");
    rejects(
        "region window without its name", [](json& d) { d["window"]["source"] = "region"; },
        "window.region: missing (a required key)");
    rejects(
        "unknown window source", [](json& d) { d["window"]["source"] = "nvtx"; },
        "window.source: must be one of [\"gpu-activity\",\"arguments\",\"region\"], got \"nvtx\"");
    rejects(
        "bad device id", [](json& d) { d["gaps"][0]["device"] = "modal-144-0"; },
        "gaps[0].device: must be a string matching ");
    rejects(
        "kernel row typo", [](json& d) { d["kernel_summary"]["overall"][0]["std_ns"] = 1.0; },
        "kernel_summary.overall[0].std_ns: unexpected key (not in docs/report.schema.json)");
    // No device at all is a report (a trace without GPU rows, test_report_model.cpp); devices not a list is
    // none.
    rejects(
        "devices not a list", [](json& d) { d["devices"] = json::object(); }, "devices: must be ");
    rejects(
        "HTA rule left out", [](json& d) { d["hta"]["devices"][1]["rules"].erase("whole_microseconds"); },
        "hta.devices[1].rules.whole_microseconds: missing (a required key)");
    rejects(
        "HTA rule that drops nothing",
        [](json& d) { d["hta"]["devices"][0]["rules"]["last_profiler_step"]["operations_dropped"] = 0; },
        "hta.devices[0].rules.last_profiler_step.operations_dropped: ");
}
