// Distributed analyze (`mpirun -n R gpueff analyze`, jobs/Distributed.h): the reports shared among R
// processes must give the outputs of one process, byte for byte (report.json, report.md, the plots, and the
// trace's .prv/.pcf/.row/.json written by rank 0 from every process's records), whatever R. The ranks run
// as threads of this process (tests/ThreadPeers: the whole protocol, in the sanitizer build too) and, in a
// build with MPI, as real processes under mpirun.
#include "engine/paraver/TraceLayout.h"
#include "jobs/AnalyzeJob.h"
#include "jobs/Distributed.h"
#include "tests/TestSupport.h"
#include "tests/ThreadPeers.h"

#include <doctest/doctest.h>
#include <map>
#include <nlohmann/json.hpp>

using namespace testsupport;
namespace fs = std::filesystem;
using gpueff::jobs::AnalyzeRequest;

namespace {

// Every file under `dir` by relative path, the directory's own path replaced by DIR.
std::map<std::string, std::string> outputs(const fs::path& dir) {
    std::map<std::string, std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file()) continue;
        auto text = readText(e.path());
        for (std::size_t at; (at = text.find(dir.string())) != std::string::npos;)
            text.replace(at, dir.string().size(), "DIR");
        out[fs::relative(e.path(), dir).string()] = text;
    }
    return out;
}

AnalyzeRequest request(std::vector<fs::path> inputs, const std::string& name) {
    AnalyzeRequest r;
    for (const auto& i : inputs) r.inputs.push_back(i.string());
    r.name = "trace";
    r.quiet = true;
    r.jobs = 1;
    r.outDir = tempDir("dist-" + name).string();
    return r;
}

std::map<std::string, std::string> alone(AnalyzeRequest r) {
    gpueff::jobs::analyzeToDirectory(r);
    return outputs(r.outDir);
}

std::map<std::string, std::string> distributed(AnalyzeRequest r, int ranks) {
    r.outDir += "-" + std::to_string(ranks) + "ranks";
    auto errors =
        runRanks(ranks, [&](gpueff::jobs::Peers& peers) { gpueff::jobs::analyzeToDirectory(r, &peers); });
    for (const auto& e : errors) CHECK_MESSAGE(e.empty(), e);
    return outputs(r.outDir);
}

void expectSameOutputs(const std::map<std::string, std::string>& expected,
                       const std::map<std::string, std::string>& got) {
    REQUIRE(expected.count("report.json"));
    CHECK(expected.size() == got.size());
    for (const auto& [file, text] : expected) {
        CAPTURE(file);
        REQUIRE(got.count(file));
        CHECK(got.at(file) == text);
    }
}

std::vector<fs::path> mpiPair() {
    auto dir = tempDir("dist-mpi-inputs");
    return {buildDatabase(sourceDir() / "data" / "synthetic" / "mpi_rank0.sql", dir / "rank0.sqlite"),
            buildDatabase(sourceDir() / "data" / "synthetic" / "mpi_rank1.sql", dir / "rank1.sqlite")};
}

} // namespace

TEST_CASE(
    "distributed analyze: 1, 2 and 3 ranks write the outputs of one process (every real export as one run)") {
    auto exports = realExports();
    REQUIRE(exports.size() >= 7);
    auto base = request(exports, "all");
    auto expected = alone(base);
    CHECK(expected.count("trace.prv"));
    for (int ranks : {1, 2, 3}) {
        CAPTURE(ranks);
        expectSameOutputs(expected, distributed(base, ranks));
    }
    // The report alone: rank 0 gets every figure without anyone writing the trace.
    auto noTrace = request(exports, "all-no-trace");
    noTrace.writeTrace = false;
    auto expectedReport = alone(noTrace);
    CHECK(!expectedReport.count("trace.prv"));
    expectSameOutputs(expectedReport, distributed(noTrace, 2));
}

TEST_CASE("distributed analyze: MPI messages between reports, --region, --begin/--end, analysis in parts") {
    auto d = dataDir() / "nsys";
    struct Case {
        std::string name;
        AnalyzeRequest request;
    };
    std::vector<Case> cases;
    cases.push_back({"mpi-pair", request(mpiPair(), "mpi-pair")});
    auto region = request(realExports(), "region");
    region.region = "saxpy"; // in one report only: the other ranks see no such range
    cases.push_back({"region", region});
    auto window = request({d / "mfu_2gpu_h100_nccl.sqlite", d / "saxpy_mpi_a100_rank0.sqlite"}, "window");
    window.begin = 1000000;
    window.end = 90000000;
    cases.push_back({"window", window});
    auto parts = request(realExports(), "parts");
    parts.memoryLimit = 1024; // one analysis unit per shard on every rank
    parts.writeTrace = false;
    cases.push_back({"parts", parts});
    auto threads = request(realExports(), "threads");
    threads.jobs = 2; // report workers inside each rank
    cases.push_back({"threads", threads});
    // Iteration markers on both ranks: where their work ran is combined over the processes.
    auto levelsDir = tempDir("dist-inputs-levels");
    auto synthetic = sourceDir() / "data" / "synthetic";
    auto levels = request({buildDatabase(synthetic / "levels_rank0.sql", levelsDir / "rank0.sqlite"),
                           buildDatabase(synthetic / "levels_rank1.sql", levelsDir / "rank1.sqlite")},
                          "levels");
    cases.push_back({"levels", levels});
    // NVTX domains of their own: the second report creates "alpha" without a range in it, which the scan of
    // its ranges does not count, and the domains numbered across the trace are "beta" and "gamma" alone,
    // on every process (the one that scanned the report tells the others).
    auto domain = [](int id, const std::string& name, bool range) {
        auto row = [&](int type, const std::string& text) {
            return "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) SELECT "
                   "10400, " +
                   std::string(type == 75 ? "NULL" : "10500") + ", " + std::to_string(type) + ", '" + text +
                   "', globalTid, " + std::to_string(id) + " FROM NVTX_EVENTS LIMIT 1;";
        };
        return row(75, name) + (range ? row(59, name + " work") : "");
    };
    auto domains = request({buildDatabase(synthetic / "levels_rank0.sql", levelsDir / "domains0.sqlite",
                                          domain(7, "gamma", true)),
                            buildDatabase(synthetic / "levels_rank1.sql", levelsDir / "domains1.sqlite",
                                          domain(5, "alpha", false) + domain(6, "beta", true))},
                           "domains");
    cases.push_back({"domains", domains});
    levels.memoryLimit = 1024;
    levels.outDir += "-parts";
    cases.push_back({"levels-parts", levels});
    // Two processes on one host and GPU, the metrics row in the first report only: both reports meet in one
    // analysis unit and are read by one process, although each was scanned by its own (the pre-pass is dealt
    // before the layout is known), so the reader scans the other's again.
    auto sharedDir = tempDir("dist-inputs-shared-gpu");
    const std::string pid = std::to_string((std::int64_t{1} << 48) | (std::int64_t{4343} << 24)),
                      tid = std::to_string((std::int64_t{1} << 48) | (std::int64_t{4343} << 24) | 4343);
    auto shared =
        request({buildDatabase(synthetic / "gpu_metrics.sql", sharedDir / "metrics.sqlite"),
                 buildDatabase(synthetic / "gpu_metrics.sql", sharedDir / "other.sqlite",
                               "UPDATE PROCESSES SET globalPid = " + pid +
                                   ", pid = 4343; UPDATE ThreadNames SET globalTid = " + tid +
                                   "; UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET globalTid = " + tid +
                                   "; UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET globalPid = " + pid +
                                   "; DELETE FROM GPU_METRICS; DELETE FROM TARGET_INFO_GPU_METRICS;")},
                "shared-gpu");
    cases.push_back({"shared-gpu", shared});
    for (const auto& c : cases) {
        CAPTURE(c.name);
        auto expected = alone(c.request);
        expectSameOutputs(expected, distributed(c.request, 2));
        if (c.name.rfind("levels", 0) == 0) {
            auto report = nlohmann::json::parse(expected.at("report.json"));
            CHECK(report["iterations"].size() == 6);
            CHECK(report["phases"].size() == 3);
            CHECK(report["collectives"]["matched"] == 6);
        }
        if (c.name == "domains") { // nsys2prv's numbering: 9600 + 100 k, by name
            auto pcf = expected.at("trace.pcf");
            CHECK(pcf.find("9700    NVTX beta ranges") != std::string::npos);
            CHECK(pcf.find("9800    NVTX gamma ranges") != std::string::npos);
        }
        if (c.name == "shared-gpu") { // the second report's GPU reads the first one's metrics
            auto report = nlohmann::json::parse(expected.at("report.json"));
            const auto& tasks = report["tensor_core"]["tasks"];
            REQUIRE(tasks.size() == 2);
            CHECK(tasks[1]["device"] == "synth-gpu-node:4343:0");
            CHECK(tasks[1]["tensor_active_percent"] == tasks[0]["tensor_active_percent"]);
        }
    }
}

TEST_CASE("distributed analyze: an error on the ranks ends every rank, and nothing is written") {
    auto r = request(realExports(), "bad-region");
    r.region = "no range has this name";
    auto errors =
        runRanks(3, [&](gpueff::jobs::Peers& peers) { gpueff::jobs::analyzeToDirectory(r, &peers); });
    bool named = false;
    for (const auto& e : errors) {
        CHECK(!e.empty());
        named = named ||
                e.find("--region 'no range has this name': no NVTX range of that name") != std::string::npos;
    }
    CHECK(named);
    CHECK((!fs::exists(r.outDir) || fs::is_empty(r.outDir)));
    // A Paraver trace is one process's work.
    auto prv = request({}, "prv");
    prv.inputs = {(dataDir() / "paraver" / "epoch" / "epoch_1proc.prv.gz").string()};
    errors = runRanks(2, [&](gpueff::jobs::Peers& peers) { gpueff::jobs::analyzeToDirectory(prv, &peers); });
    for (const auto& e : errors) CHECK(e.find("analysed by one process") != std::string::npos);
}

TEST_CASE("reports meeting in one analysis unit go to one process: groups are dealt largest first") {
    // Before the layout is known, the pre-pass is dealt report by report, largest first: 30 to rank 0, then
    // the two of 10 to rank 1 (the least loaded), then 5 to rank 1 (20 < 30).
    CHECK(gpueff::jobs::assignScans({10, 10, 30, 5}, 2) == std::vector<int>{1, 1, 0, 1});
    CHECK(gpueff::jobs::assignScans({10, 10, 30, 5}, 3) == std::vector<int>{1, 2, 0, 1});
    using gpueff::paraver::RowKind;
    gpueff::paraver::TraceLayout layout;
    layout.nodes = {"A", "B"};
    auto task = [&](const std::string& host, std::uint32_t input, std::int64_t pid) {
        auto t = layout.addTask("p@" + host, host == "A" ? 0 : 1);
        layout.tasks[t].host = host;
        layout.tasks[t].pid = pid;
        layout.tasks[t].input = input;
        layout.addRow(t, RowKind::CpuThread, "THREAD");
        return t;
    };
    // Input 0's GPU 0 reads its metrics from the row input 1's process keeps for it on host A.
    auto t0 = task("A", 0, 1), t1 = task("A", 1, 2), t2 = task("B", 2, 3), t3 = task("B", 3, 4);
    layout.addRow(t0, RowKind::CudaStream, "CUDA-D0.S7", 0, 7);
    layout.addRow(t1, RowKind::CudaStream, "CUDA-D1.S7", 1, 7);
    layout.addRow(t1, RowKind::GpuMetrics, "Metrics GPU0", 0);
    layout.addRow(t2, RowKind::CudaStream, "CUDA-D0.S7", 0, 7);
    layout.addRow(t3, RowKind::CudaStream, "CUDA-D1.S7", 1, 7);
    std::vector<std::uint64_t> sizes = {10, 10, 30, 5};
    // Groups {0, 1} (20), {2} (30), {3} (5): 30 to rank 0, 20 to rank 1, 5 to rank 1 (least loaded: 20 < 30).
    CHECK(gpueff::jobs::assignReports(layout, sizes, 2) == std::vector<int>{1, 1, 0, 1});
    CHECK(gpueff::jobs::assignReports(layout, sizes, 3) == std::vector<int>{1, 1, 0, 2});
    CHECK(gpueff::jobs::assignReports(layout, sizes, 1) == std::vector<int>{0, 0, 0, 0});
    // More processes than groups: the others read nothing.
    CHECK(gpueff::jobs::assignReports(layout, sizes, 5) == std::vector<int>{1, 1, 0, 2});
}

#ifdef GPUEFF_WITH_MPI
TEST_CASE(
    "mpirun -n 2 gpueff analyze writes what one process writes: other commands refuse to run distributed") {
    if (run("command -v mpirun").exitCode != 0) {
        MESSAGE("mpirun is not installed: skipped");
        return;
    }
    // OpenMPI refuses root unless told; two processes may outnumber the cores. In the sanitizer build,
    // OpenMPI's own allocations kept to exit (from plugins it unloads, so no suppression can name them) would
    // read as leaks: leak detection is off for these processes only, the other checks stay on, and gpueff's
    // distributed code is leak-checked by the tests above (ranks as threads).
    const std::string mpirun = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
                               "OMPI_MCA_rmaps_base_oversubscribe=1 ASAN_OPTIONS=detect_leaks=0 mpirun -n 2 ";
    std::string inputs;
    for (const auto& e : realExports()) inputs += " " + quoted(e);
    for (const auto& p : mpiPair()) inputs += " " + quoted(p);
    auto one = tempDir("dist-mpirun-one"), two = tempDir("dist-mpirun-two");
    auto a = run(gpueffBinary().string() + " analyze -q --name trace" + inputs + " -o " + quoted(one));
    REQUIRE_MESSAGE(a.exitCode == 0, a.output);
    auto b = run(mpirun + gpueffBinary().string() + " analyze --name trace" + inputs + " -o " + quoted(two));
    CAPTURE(b.output);
    REQUIRE(b.exitCode == 0);
    CHECK(b.output.find("distributed over 2 processes") != std::string::npos);
    auto expected = outputs(one), got = outputs(two);
    expectSameOutputs(expected, got);
    // An error every process meets: rank 0 says it, the run ends with its status, nothing is left behind.
    auto bad = two / "bad-region";
    auto e = run(mpirun + gpueffBinary().string() + " analyze -q --region 'no such range'" + inputs + " -o " +
                 quoted(bad));
    CAPTURE(e.output);
    CHECK(e.exitCode == 1);
    CHECK(e.output.find("gpueff: error: --region 'no such range': no NVTX range of that name") !=
          std::string::npos);
    CHECK(!fs::exists(bad));
    auto c = run(mpirun + gpueffBinary().string() + " translate" + inputs + " -o " + quoted(two / "t"));
    CHECK(c.exitCode == 2);
    CHECK(c.output.find("under mpirun only `gpueff analyze` runs distributed") != std::string::npos);
    CHECK(!fs::exists(two / "t.prv"));
}
#endif
