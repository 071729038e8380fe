// report.json files given to `gpueff compare`: checked against docs/report.schema.json (types, efficiencies
// in [0, 1], 64-bit integer times, an ordered window) before any number is used. Refused with one line naming
// the file and the key, exit 1, and the previous comparison left as it was.
#include "engine/common/Error.h"
#include "reports/ReportSchema.h"
#include "tests/TestSupport.h"

#include <doctest/doctest.h>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace testsupport;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A valid report to mutate: analyze on a synthetic fixture (its numbers are not what is tested here).
const json& baseReport() {
    static const json report = [] {
        auto dir = tempDir("compare-bad-base");
        auto db = buildDatabase(sourceDir() / "data" / "synthetic" / "gpu_metrics.sql", dir / "g.sqlite");
        auto r = run(quoted(gpueffBinary()) + " analyze -q " + quoted(db) + " -o " + quoted(dir / "out"));
        REQUIRE_MESSAGE(r.exitCode == 0, r.output);
        std::ifstream in(dir / "out" / "report.json");
        return json::parse(in);
    }();
    return report;
}

json with(const std::string& pointer, const json& value) {
    json r = baseReport();
    r[json::json_pointer(pointer)] = value;
    return r;
}

std::string refusal(const json& report) {
    try {
        gpueff::reports::validateReport(report, "r.json");
    } catch (const gpueff::Error& e) {
        return e.what();
    }
    return "accepted";
}

} // namespace

TEST_CASE("compare input: the base report is valid") {
    CHECK(refusal(baseReport()) == "accepted");
}

TEST_CASE("compare input: an efficiency outside [0, 1] is refused naming the key") {
    CHECK(refusal(with("/efficiency/nccl_as_communication/parallel_efficiency", 57.0)) ==
          "r.json: efficiency.nccl_as_communication.parallel_efficiency: must be a number in [0, 1] or null, "
          "got 57.0");
    CHECK(refusal(with("/efficiency/nccl_as_useful/load_balance", -0.5)) ==
          "r.json: efficiency.nccl_as_useful.load_balance: must be a number in [0, 1] or null, got -0.5");
}

TEST_CASE("compare input: numbers as strings are refused") {
    CHECK(refusal(with("/efficiency/nccl_as_communication/parallel_efficiency", "0.5")) ==
          "r.json: efficiency.nccl_as_communication.parallel_efficiency: must be a number in [0, 1] or null, "
          "got \"0.5\"");
    CHECK(refusal(with("/devices/0/useful_ns", "100")) ==
          "r.json: devices[0].useful_ns: must be an integer in [0, 9223372036854775807], got \"100\"");
}

TEST_CASE("compare input: window bounds must be 64-bit integers in order, the duration their difference") {
    CHECK(refusal(with("/window/end_ns", 1e300)) ==
          "r.json: window.end_ns: must be an integer in [0, 9223372036854775807], got 1e+300");
    CHECK(refusal(with("/window/begin_ns", 1.5)) ==
          "r.json: window.begin_ns: must be an integer in [0, 9223372036854775807], got 1.5");
    CHECK(refusal(with("/window/end_ns", 18446744073709551615u)) ==
          "r.json: window.end_ns: must be an integer in [0, 9223372036854775807], got 18446744073709551615");
    json reversed = baseReport();
    auto begin = reversed["window"]["begin_ns"].get<std::int64_t>();
    reversed["window"]["end_ns"] = begin - 1;
    reversed["window"]["duration_ns"] = 0;
    if (begin > 0)
        CHECK(refusal(reversed) == "r.json: window: begins (begin_ns " + std::to_string(begin) +
                                       ") after it ends (end_ns " + std::to_string(begin - 1) + ")");
    json longer = baseReport();
    auto duration = longer["window"]["duration_ns"].get<std::int64_t>();
    longer["window"]["duration_ns"] = duration + 1;
    CHECK(refusal(longer) == "r.json: window.duration_ns: must equal end_ns - begin_ns = " +
                                 std::to_string(duration) + ", got " + std::to_string(duration + 1));
}

TEST_CASE("compare input: negative counts, missing keys, wrong shapes") {
    CHECK(refusal(with("/devices/0/kernels", -1)) ==
          "r.json: devices[0].kernels: must be an integer in [0, 9223372036854775807], got -1");
    json missing = baseReport();
    missing["efficiency"].erase("nccl_as_useful");
    CHECK(refusal(missing) == "r.json: efficiency.nccl_as_useful: missing (a required key)");
    CHECK(refusal(with("/devices", json::object())) == "r.json: devices: must be an array, got an object");
    CHECK(refusal(json::array()) == "r.json: not a gpueff report (a JSON object), got an array");
    CHECK(refusal(with("/efficiency/extra", 1)) ==
          "r.json: efficiency.extra: unexpected key (not in docs/report.schema.json)");
}

TEST_CASE("compare input: text that is not JSON (or not UTF-8) is an Error naming the file") {
    CHECK_THROWS_AS(gpueff::reports::parseReport("{\"schema\": ", "r.json"), gpueff::Error);
    CHECK_THROWS_AS(gpueff::reports::parseReport("{\"schema\": \"\xff\xfe\"}", "r.json"), gpueff::Error);
    try {
        gpueff::reports::parseReport("[1, 2", "r.json");
    } catch (const gpueff::Error& e) {
        CHECK(std::string(e.what()).rfind("r.json: not valid JSON: ", 0) == 0);
    }
}

TEST_CASE("compare subcommand: a bad report is refused, exit 1, the previous comparison untouched") {
    auto dir = tempDir("compare-bad-cli");
    std::ofstream(dir / "good.json") << baseReport().dump();
    std::ofstream(dir / "r.json")
        << with("/efficiency/nccl_as_communication/parallel_efficiency", 57.0).dump();
    fs::create_directories(dir / "cmp");
    std::ofstream(dir / "cmp" / "compare.md") << "previous";
    auto r = run(quoted(gpueffBinary()) + " compare -q " + quoted(dir / "good.json") + " " +
                 quoted(dir / "r.json") + " -o " + quoted(dir / "cmp"));
    CHECK(r.exitCode == 1);
    CHECK(r.output ==
          "gpueff: error: " + (dir / "r.json").string() +
              ": efficiency.nccl_as_communication.parallel_efficiency: must be a number in [0, 1] or "
              "null, got 57.0\n");
    CHECK(readText(dir / "cmp" / "compare.md") == "previous");

    std::ofstream(dir / "broken.json") << "{\"schema\": \"gpueff-report/1\", ";
    r = run(quoted(gpueffBinary()) + " compare -q " + quoted(dir / "good.json") + " " +
            quoted(dir / "broken.json") + " -o " + quoted(dir / "cmp"));
    CHECK(r.exitCode == 1);
    CHECK(r.output.find((dir / "broken.json").string() + ": not valid JSON") != std::string::npos);
    CHECK(readText(dir / "cmp" / "compare.md") == "previous");
    CHECK_FALSE(fs::exists(dir / "cmp" / "compare.json"));

    // A valid pair still compares (and the output replaces the previous file).
    r = run(quoted(gpueffBinary()) + " compare -q " + quoted(dir / "good.json") + " " +
            quoted(dir / "good.json") + " -o " + quoted(dir / "cmp"));
    CHECK_MESSAGE(r.exitCode == 0, r.output);
    CHECK(readText(dir / "cmp" / "compare.md").rfind("# Comparison of 2 runs", 0) == 0);
    CHECK(fs::exists(dir / "cmp" / "compare.json"));
}
