// The hand-written JSON Schema validator (tests/JsonSchema.h) and docs/report.schema.json itself: a document
// written by hand from docs/report.md must pass, and each kind of mistake the schema exists to catch must
// fail with a pointer to the offending value.
#include "tests/JsonSchema.h"
#include "tests/TestSupport.h"

#include <cmath>
#include <doctest/doctest.h>
#include <fstream>
#include <functional>
#include <limits>

using namespace testsupport;
using nlohmann::json;

namespace {

json reportSchema() {
    std::ifstream in(sourceDir() / "docs" / "report.schema.json");
    REQUIRE_MESSAGE(in.good(), "docs/report.schema.json is missing");
    return json::parse(in);
}

bool mentions(const std::vector<std::string>& errors, const std::string& text) {
    for (const auto& e : errors)
        if (e.find(text) != std::string::npos) return true;
    return false;
}

std::string joined(const std::vector<std::string>& errors) {
    std::string s;
    for (const auto& e : errors) s += e + "\n";
    return s;
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
    json s = json::parse(R"({
        "type": "object", "required": ["a"],
        "properties": {"a": {"type": "integer", "minimum": 0, "maximum": 10},
                       "b": {"type": ["string", "null"], "pattern": "^x"},
                       "c": {"type": "array", "minItems": 2, "items": {"enum": [1, 2]}},
                       "d": {"const": "k"},
                       "e": {"$ref": "#/$defs/positive"},
                       "f": {"oneOf": [{"type": "integer"}, {"type": "number"}]},
                       "g": {"anyOf": [{"type": "string"}, {"type": "boolean"}]},
                       "h": {"type": "object", "patternProperties": {"^[0-9]+$": {"type": "integer"}},
                             "additionalProperties": false}},
        "additionalProperties": {"type": "boolean"},
        "$defs": {"positive": {"type": "number", "minimum": 1}}})");
    auto ok = [&](const char* doc) {
        auto e = validateJson(s, json::parse(doc));
        CHECK_MESSAGE(e.empty(), doc << "\n" << joined(e));
    };
    auto bad = [&](const char* doc, const std::string& expected) {
        auto e = validateJson(s, json::parse(doc));
        CHECK_MESSAGE(mentions(e, expected), doc << " should fail with '" << expected << "', got\n"
                                                 << joined(e));
    };
    ok(R"({"a": 3})");
    ok(R"({"a": 3.0, "b": null, "c": [1, 2, 1], "d": "k", "e": 1.5, "f": 1.5, "g": true, "h": {"12": 1}, "z": false})");
    bad(R"({})", "(root): missing required key \"a\"");
    bad(R"({"a": 3.5})", "/a: expected type");
    bad(R"({"a": 11})", "/a: 11 is above the maximum");
    bad(R"({"a": -1})", "/a: -1 is below the minimum");
    bad(R"({"a": null})", "/a: expected type \"integer\", got null");
    bad(R"({"a": 1, "b": "y"})", "/b: \"y\" does not match");
    bad(R"({"a": 1, "b": 2})", "/b: expected type");
    bad(R"({"a": 1, "c": [1]})", "/c: 1 items, fewer than minItems");
    bad(R"({"a": 1, "c": [1, 3]})", "/c/1: 3 is not one of");
    bad(R"({"a": 1, "d": "j"})", "/d: expected \"k\"");
    bad(R"({"a": 1, "e": 0})", "/e: 0 is below the minimum 1");
    bad(R"({"a": 1, "f": 1})", "/f: matches 2 branches of oneOf");
    bad(R"({"a": 1, "g": 1})", "/g: matches no branch of anyOf");
    bad(R"({"a": 1, "h": {"x": 1}})", "/h: unexpected key \"x\"");
    bad(R"({"a": 1, "h": {"1": "one"}})", "/h/1: expected type");
    bad(R"({"a": 1, "z": 0})", "/z: expected type \"boolean\"");

    auto escaped = validateJson(json::parse(R"({"additionalProperties": {"type": "string"}})"),
                                json::parse(R"({"a/b~c": 1})"));
    CHECK(mentions(escaped, "/a~1b~0c: expected type"));
    // A keyword the validator does not implement must not be skipped silently.
    CHECK(mentions(validateJson(json::parse(R"({"maxItems": 1})"), json::array()),
                   "unsupported schema keyword"));
}

TEST_CASE("report schema accepts the hand-made report of docs/report.md") {
    auto schema = reportSchema();
    auto doc = handMadeReport();
    auto errors = validateJson(schema, doc);
    CHECK_MESSAGE(errors.empty(), joined(errors));

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
    errors = validateJson(schema, doc);
    CHECK_MESSAGE(errors.empty(), joined(errors));
}

TEST_CASE("report schema rejects what docs/report.md rules out") {
    auto schema = reportSchema();
    auto rejects = [&](const std::string& what, const std::function<void(json&)>& mutate,
                       const std::string& expected) {
        CAPTURE(what);
        auto doc = handMadeReport();
        mutate(doc);
        // Round trip through text, as report.json is read: NaN becomes null there.
        auto errors = validateJson(schema, json::parse(doc.dump()));
        CHECK_MESSAGE(mentions(errors, expected), "expected '" << expected << "', got\n" << joined(errors));
    };
    rejects(
        "missing required key", [](json& d) { d.erase("overlap"); },
        "(root): missing required key \"overlap\"");
    rejects(
        "missing convention", [](json& d) { d["efficiency"].erase("nccl_as_useful"); },
        "/efficiency: missing required key \"nccl_as_useful\"");
    rejects(
        "fraction 1.5", [](json& d) { d["efficiency"]["nccl_as_useful"]["load_balance"] = 1.5; },
        "/efficiency/nccl_as_useful/load_balance: 1.5 is above the maximum 1");
    rejects(
        "negative fraction", [](json& d) { d["overlap"][0]["fraction_of_window"]["2"] = -0.1; },
        "/overlap/0/fraction_of_window/2: -0.1 is below the minimum 0");
    rejects(
        "NaN written as null", [](json& d) { d["devices"][0]["useful_ns"] = std::nan(""); },
        "/devices/0/useful_ns: expected type \"integer\", got null");
    rejects(
        "NaN mean written as null in a fraction map",
        [](json& d) {
            d["overlap"][0]["fraction_of_communication"]["1"] = std::numeric_limits<double>::quiet_NaN();
        },
        "/overlap/0/fraction_of_communication/1: expected type \"number\", got null");
    rejects(
        "wrong type", [](json& d) { d["window"]["begin_ns"] = "0"; }, "/window/begin_ns: expected type");
    rejects(
        "fractional ns", [](json& d) { d["gaps"][0]["total_ns"] = 375.5; },
        "/gaps/0/total_ns: expected type");
    rejects(
        "negative ns", [](json& d) { d["devices"][0]["idle_ns"] = -1; }, "/devices/0/idle_ns: -1 is below");
    rejects(
        "bad histogram key", [](json& d) { d["kernels_in_flight"][0]["time_ns_by_count"]["one"] = 1; },
        "/kernels_in_flight/0/time_ns_by_count: unexpected key \"one\"");
    rejects(
        "concurrency 0", [](json& d) { d["overlap"][0]["time_ns_by_concurrency"]["0"] = 1; },
        "/overlap/0/time_ns_by_concurrency: unexpected key \"0\"");
    rejects(
        "typo in a convention key",
        [](json& d) { d["efficiency"]["nccl_as_communication"]["load_balanse"] = 1; },
        "/efficiency/nccl_as_communication: unexpected key \"load_balanse\"");
    rejects(
        "wrong schema id", [](json& d) { d["schema"] = "gpueff-report/2"; }, "/schema: expected");
    rejects(
        "tensor_core half of each form",
        [](json& d) {
            d["tensor_core"] = {{"available", true}, {"reason", "x"}};
        },
        "/tensor_core: matches no branch of oneOf");
    rejects(
        "region window without its name", [](json& d) { d["window"]["source"] = "region"; },
        "/window: matches no branch of anyOf");
    rejects(
        "unknown window source", [](json& d) { d["window"]["source"] = "nvtx"; }, "/window/source:");
    rejects(
        "bad device id", [](json& d) { d["gaps"][0]["device"] = "modal-144-0"; }, "/gaps/0/device:");
    rejects(
        "kernel row typo", [](json& d) { d["kernel_summary"]["overall"][0]["std_ns"] = 1.0; },
        "/kernel_summary/overall/0: unexpected key \"std_ns\"");
    rejects(
        "no devices", [](json& d) { d["devices"] = json::array(); }, "/devices: 0 items");
    rejects(
        "HTA rule left out", [](json& d) { d["hta"]["devices"][1]["rules"].erase("whole_microseconds"); },
        "/hta/devices/1/rules: missing required key \"whole_microseconds\"");
    rejects(
        "HTA rule that drops nothing",
        [](json& d) { d["hta"]["devices"][0]["rules"]["last_profiler_step"]["operations_dropped"] = 0; },
        "/hta/devices/0/rules/last_profiler_step: matches no branch of oneOf");
}
