// Issue 27's parts that the end-to-end equality tests do not show alone: sorted runs merged as a sort would
// order them, the partials' packed arrays through the codec between processes, and the --stats line per
// stage that bench/stages.sh reads.
#include "jobs/PartCodec.h"
#include "metrics/SortedRuns.h"
#include "tests/TestSupport.h"

#include <algorithm>
#include <doctest/doctest.h>
#include <random>
#include <regex>
#include <set>
#include <sstream>

using namespace testsupport;

TEST_CASE("SortedRuns: sorted runs merged in place equal a sort") {
    std::mt19937_64 random(27);
    for (std::size_t count : {0, 1, 2, 3, 7, 64, 129}) {
        CAPTURE(count);
        gpueff::metrics::SortedRuns<std::int64_t> runs;
        std::vector<std::int64_t> expected;
        for (std::size_t r = 0; r < count; ++r) {
            std::vector<std::int64_t> run(random() % 50); // some runs empty
            for (auto& v : run) v = static_cast<std::int64_t>(random() % 1000) - 500;
            std::sort(run.begin(), run.end());
            runs.add(run);
            expected.insert(expected.end(), run.begin(), run.end());
        }
        std::sort(expected.begin(), expected.end());
        CHECK(std::move(runs).merged() == expected);
    }
}

TEST_CASE("the partials between processes: packed durations, NVTX groups and maps come back as they left") {
    using namespace gpueff;
    jobs::Partials sent;
    metrics::DevicePartial device;
    device.durations["gemm"] = {5, 7, INT64_MAX, -3};
    device.durations["empty"] = {};
    device.overlappedDurations["nccl"] = {1};
    device.memoryOperations["[CUDA memcpy Host-to-Device]"].durations = {10, 20};
    device.memoryOperations["[CUDA memcpy Host-to-Device]"].bytes = {4096};
    metrics::TaskPartial task;
    task.calls.nvtx = {{9600, false, 3, 2, 1}, {9601, true, INT64_MIN, 0, 0}, {81000, false, 7, 1, 0}};
    task.calls.nvtxTimes = {100, 200, 50, 300, 12};
    task.calls.api[63000001] = {1, 2, 3};
    task.calls.lastNvtxEvent = 999;
    sent.devices.emplace_back(3, device);
    sent.tasks.emplace_back(1, task);
    auto got = jobs::decodePartials(jobs::encodePartials(sent));
    REQUIRE(got.devices.size() == 1);
    REQUIRE(got.tasks.size() == 1);
    CHECK(got.devices[0].first == 3);
    const auto& d = got.devices[0].second;
    CHECK(d.durations == device.durations);
    CHECK(d.overlappedDurations == device.overlappedDurations);
    CHECK(d.memoryOperations.at("[CUDA memcpy Host-to-Device]").durations ==
          std::vector<std::int64_t>{10, 20});
    CHECK(d.memoryOperations.at("[CUDA memcpy Host-to-Device]").bytes == std::vector<std::int64_t>{4096});
    const auto& t = got.tasks[0].second;
    REQUIRE(t.calls.nvtx.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) {
        CAPTURE(i);
        CHECK(t.calls.nvtx[i].type == task.calls.nvtx[i].type);
        CHECK(t.calls.nvtx[i].startEnd == task.calls.nvtx[i].startEnd);
        CHECK(t.calls.nvtx[i].value == task.calls.nvtx[i].value);
        CHECK(t.calls.nvtx[i].closed == task.calls.nvtx[i].closed);
        CHECK(t.calls.nvtx[i].open == task.calls.nvtx[i].open);
    }
    CHECK(t.calls.nvtxTimes == task.calls.nvtxTimes);
    CHECK(t.calls.api == task.calls.api);
    CHECK(t.calls.lastNvtxEvent == 999);
}

TEST_CASE("analyze and translate --stats: a line per stage, the pass's and the analysis' on the workers") {
    // Two reports: one alone has nothing to share between the pass's workers.
    auto dir = tempDir("parallel-stages");
    auto input =
        quoted(buildDatabase(sourceDir() / "data" / "synthetic" / "mpi_rank0.sql", dir / "r0.sqlite")) + " " +
        quoted(buildDatabase(sourceDir() / "data" / "synthetic" / "mpi_rank1.sql", dir / "r1.sqlite"));
    auto analyze = run(gpueffBinary().string() + " analyze -q --stats --no-trace -j 2 " + input + " -o " +
                       quoted(dir / "a"));
    REQUIRE_MESSAGE(analyze.exitCode == 0, analyze.output);
    auto translate =
        run(gpueffBinary().string() + " translate -q --stats -j 2 " + input + " -o " + quoted(dir / "t"));
    REQUIRE_MESSAGE(translate.exitCode == 0, translate.output);
    const std::regex line(R"(stage=([a-z]+)\.([A-Za-z_.-]+) wall_s=([0-9.]+) cpu_s=([0-9.]+) )"
                          R"(on_workers=([01]) peak_rss_mb=([0-9.]+))");
    auto stages = [&](const std::string& output) {
        std::map<std::string, int> onWorkers;
        std::istringstream in(output);
        for (std::string text; std::getline(in, text);) {
            std::smatch m;
            if (!std::regex_match(text, m, line)) continue;
            onWorkers[m[1].str() + "." + m[2].str()] = std::stoi(m[5].str());
            CHECK(std::stod(m[6].str()) > 0); // the process's peak so far
        }
        return onWorkers;
    };
    auto a = stages(analyze.output);
    for (const char* s :
         {"pass.pre-pass", "pass.names", "pass.records", "analysis.window", "analysis.partials"}) {
        CAPTURE(s);
        REQUIRE(a.count(s));
        CHECK(a[s] == 1);
    }
    for (const char* s : {"analysis.reduce.nsys_stats", "analysis.reduce.kernel_statistics", "report.json"}) {
        CAPTURE(s);
        REQUIRE(a.count(s));
        CHECK(a[s] == 0);
    }
    auto t = stages(translate.output);
    CHECK(t.count("pass.records") == 1);
    CHECK(t.count("analysis.window") == 0);
}
