// Kineto (torch.profiler) traces as input: exact time conversion, bad input (a clear message naming the file,
// exit 1, no outputs), every command that takes nsys exports taking them too. A small hand-made trace's
// figures and the count of events that cannot be placed are cases: tests/cases/kineto-*. The model's numbers
// are checked against the JSON by test_kineto_oracle.cpp.
#include "engine/kineto/ChromeTrace.h"
#include "tests/TestSupport.h"

#include <doctest/doctest.h>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace testsupport;
using gpueff::kineto::microsecondsTextToNs;

namespace {

std::filesystem::path kineto(const std::string& name) {
    return dataDir() / "kineto" / (name + ".json.gz");
}

std::filesystem::path writeFile(const std::string& dir, const std::string& name, const std::string& text) {
    auto path = tempDir(dir) / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// A minimal trace: one host thread launching two kernels on stream 7 of GPU 0, and whatever `extra` adds.
std::string smallTrace(const std::string& extra, int rank = 0, const std::string& baseTimeNs = "") {
    return R"({"schemaVersion": 1, )" +
           (baseTimeNs.empty() ? "" : R"("baseTimeNanoseconds": )" + baseTimeNs + ", ") +
           R"("distributedInfo": {"rank": )" + std::to_string(rank) + R"(, "world_size": 2}, "traceEvents": [
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 100.0, "dur": 2.5,
   "args": {"correlation": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 103.0, "dur": 2.5,
   "args": {"correlation": 2}},
  {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 110.0, "dur": 10.0,
   "args": {"device": 0, "stream": 7, "correlation": 1, "grid": [4, 1, 1], "block": [128, 1, 1]}},
  {"ph": "X", "cat": "kernel", "name": "relu", "pid": 0, "tid": 7, "ts": 125.0, "dur": 5.0,
   "args": {"device": 0, "stream": 7, "correlation": 2}})" +
           extra + "\n]}";
}

struct Outcome {
    CommandResult result;
    std::filesystem::path dir;
};

Outcome analyze(const std::vector<std::filesystem::path>& inputs, const std::string& tag) {
    auto dir = tempDir("kineto-out-" + tag) / "out";
    std::string command = gpueffBinary().string() + " analyze -q --no-trace";
    for (const auto& in : inputs) command += " " + quoted(in);
    return {run(command + " -o " + quoted(dir)), dir};
}

void expectError(const std::vector<std::filesystem::path>& inputs, const std::string& tag,
                 const std::string& expected) {
    auto o = analyze(inputs, tag);
    CAPTURE(o.result.output);
    CHECK(o.result.exitCode == 1);
    CHECK(o.result.output.find("gpueff: error:") != std::string::npos);
    CHECK(o.result.output.find(inputs.back().filename().string()) != std::string::npos);
    CHECK(o.result.output.find(expected) != std::string::npos);
    CHECK(o.result.output.find("internal error") == std::string::npos);
    CHECK_FALSE(std::filesystem::exists(o.dir / "report.json"));
}

} // namespace

TEST_CASE("kineto: decimal microseconds become nanoseconds exactly") {
    CHECK(microsecondsTextToNs("4458676522690.655") == 4458676522690655);
    CHECK(microsecondsTextToNs("1712195495519689.0") == 1712195495519689000); // beyond a double's 2^53
    CHECK(microsecondsTextToNs("1695835542514261") == 1695835542514261000);
    CHECK(microsecondsTextToNs("0.0005") == 1); // half away from zero
    CHECK(microsecondsTextToNs("0.00049999") == 0);
    CHECK(microsecondsTextToNs("-1.0005") == -1001);
    CHECK(microsecondsTextToNs("1.5e3") == 1500000);
    CHECK(microsecondsTextToNs("25E-3") == 25);
    CHECK(microsecondsTextToNs("000.000") == 0);
    CHECK_FALSE(microsecondsTextToNs("abc"));
    CHECK_FALSE(microsecondsTextToNs("1e30"));
    CHECK_FALSE(microsecondsTextToNs("9223372036854775.808")); // one ns past int64
    CHECK(microsecondsTextToNs("9223372036854775.807") == 9223372036854775807);
}

TEST_CASE("kineto: ranks are aligned by baseTimeNanoseconds (UTC of each trace's time 0)") {
    // The same events in both, rank 1's clock origin 1 s later: its kernels run 1 s after rank 0's.
    auto r0 = writeFile("kineto-base0", "r0.json", smallTrace("", 0, "1700000000000000000"));
    auto r1 = writeFile("kineto-base1", "r1.json", smallTrace("", 1, "1700000001000000000"));
    auto o = analyze({r0, r1}, "base");
    CAPTURE(o.result.output);
    REQUIRE(o.result.exitCode == 0);
    auto report = nlohmann::json::parse(readText(o.dir / "report.json"));
    REQUIRE(report["inputs"].size() == 2);
    CHECK(report["inputs"][1]["offset_ns"].get<std::int64_t>() -
              report["inputs"][0]["offset_ns"].get<std::int64_t>() ==
          1'000'000'000);
    // Window: rank 0's first kernel (110 us) to rank 1's last end (1 s + 130 us).
    CHECK(report["window"]["duration_ns"] == 1'000'000'000 + 130'000 - 110'000);
    REQUIRE(report["devices"].size() == 2);
    // Both ranks of a 2-rank job: no note about missing ranks.
    CHECK(report["notes"].dump().find("ranks of their job") == std::string::npos);
}

TEST_CASE("kineto: bad input gets a clear error naming the file and no outputs") {
    SUBCASE("invalid JSON") {
        expectError({writeFile("kineto-bad1", "bad.json", R"({"traceEvents": [{"ph": "X",, }]})")}, "bad1",
                    "invalid JSON at byte");
    }
    SUBCASE("truncated") {
        auto text = smallTrace("");
        auto cut = text.find("\"cat\": \"kernel\"") + 7; // the file ends where a value is due
        expectError({writeFile("kineto-bad2", "cut.json", text.substr(0, cut))}, "bad2",
                    "(a truncated file?)");
    }
    SUBCASE("truncated gzip") {
        auto bytes = readText(kineto("critical_path_alexnet_trace"));
        expectError({writeFile("kineto-bad3", "cut.json.gz", bytes.substr(0, bytes.size() / 2))}, "bad3",
                    "cut.json.gz");
    }
    SUBCASE("no traceEvents") {
        expectError({writeFile("kineto-bad4", "other.json", R"({"schema": "something else"})")}, "bad4",
                    "not a PyTorch profiler (Kineto) trace");
    }
    SUBCASE("no GPU events") {
        expectError({writeFile("kineto-bad5", "cpu.json", R"({"traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 1.0, "dur": 2.0}]})")},
                    "bad5", "no GPU activity: no kernel, gpu_memcpy or gpu_memset events");
    }
    SUBCASE("two traces of the same rank") {
        auto a = writeFile("kineto-bad6a", "rank0.json", smallTrace(""));
        auto b = writeFile("kineto-bad6b", "again.json", smallTrace(""));
        expectError({a, b}, "bad6", "both hold rank 0");
    }
}

TEST_CASE("kineto: translate, cut, filter and compare take Kineto traces") {
    auto in = kineto("trace_filter_sampled_rank-0");
    auto dir = tempDir("kineto-commands");
    auto bin = gpueffBinary().string();
    auto t = run(bin + " translate --quiet " + quoted(in) + " -o " + quoted(dir / "t"));
    CAPTURE(t.output);
    REQUIRE(t.exitCode == 0);
    auto prv = readPrv(dir / "t.prv");
    CHECK(!prv.comms.empty()); // launch lines
    auto labels = readPcfTypeLabels(dir / "t.pcf");
    CHECK(labels.count(63000006));
    auto c = run(bin + " cut --quiet " + quoted(in) + " --region ProfilerStep#551 -o " + quoted(dir / "c"));
    CAPTURE(c.output);
    CHECK(c.exitCode == 0);
    CHECK(std::filesystem::exists(dir / "c.prv"));
    auto f = run(bin + " filter --quiet " + quoted(in) + " --types 63000006 -o " + quoted(dir / "f"));
    CAPTURE(f.output);
    CHECK(f.exitCode == 0);
    CHECK(std::filesystem::exists(dir / "f.prv"));
    auto k = run(bin + " compare --quiet " + quoted(in) + " " +
                 quoted(kineto("trace_filter_sampled_rank-1")) + " -o " + quoted(dir / "cmp"));
    CAPTURE(k.output);
    CHECK(k.exitCode == 0);
    auto cmp = readText(dir / "cmp" / "compare.md");
    CHECK(cmp.find("| trace\\_filter\\_sampled\\_rank-0 |") != std::string::npos);
    CHECK(cmp.find("| trace\\_filter\\_sampled\\_rank-1 |") != std::string::npos);
}
