// Tests on SYNTHETIC fixtures (data/synthetic/*.sql): small exports hand-made from the documented nsys schema
// for the features none of the real exports in data/nsys has (GPU metrics, CUDA graphs, MPI tables,
// several reports). They are not measured data. Every expected value below was worked out by hand from the
// fixture's rows (the comments show the arithmetic), not read off gpueff's output.
#include "tests/TestSupport.h"

#include <algorithm>
#include <doctest/doctest.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace testsupport;

namespace {

constexpr std::uint32_t kKernel = 63000006, kGraphLaunch = 63000008;
constexpr std::uint32_t kGraphId = 63000100, kGraphExecId = 63000101, kGraphNodeId = 63000102;
constexpr std::uint32_t kCorrelationId = 9200;
// gpueff's metric types, 63000300 + index of the name in the catalogue of docs/events.md (0, 5, 7), and
// nsys2prv's, 9400 + the fixture's metricId (0, 12, 14).
constexpr std::uint32_t kGpcClock = 63000300, kSmsActive = 63000305, kTensorActive = 63000307;
constexpr std::uint32_t kGpcClockId = 9400, kSmsActiveId = 9412, kTensorActiveId = 9414;
constexpr std::uint32_t kMpiP2P = 50000001, kMpiCollective = 50000002, kMpiOther = 50000003;
constexpr std::uint32_t kMpiSendSize = 50100001, kMpiRecvSize = 50100002;
constexpr std::int64_t kTagKernelLaunch = 55001;

fs::path fixture(const std::string& name) {
    return sourceDir() / "data" / "synthetic" / (name + ".sql");
}

struct Translation {
    fs::path dir, prefix;
    std::vector<fs::path> inputs;
    CommandResult result;
    fs::path file(const char* ext) const {
        auto p = prefix;
        p += ext;
        return p;
    }
};

// Builds each fixture into DIR/<fixture>.sqlite and translates them, in the order given, into DIR/out.*
Translation translateFixtures(const std::string& testName, const std::vector<std::string>& fixtures) {
    Translation t;
    t.dir = tempDir(testName);
    t.prefix = t.dir / "out";
    std::string cmd = "'" + gpueffBinary().string() + "' translate";
    for (const auto& f : fixtures) {
        t.inputs.push_back(buildDatabase(fixture(f), t.dir / (f + ".sqlite")));
        cmd += " '" + t.inputs.back().string() + "'";
    }
    cmd += " -o '" + t.prefix.string() + "' --quiet";
    t.result = run(cmd);
    return t;
}

// Builds a fixture with extra SQL run after it (a variant of a synthetic export), returns the database.
fs::path buildVariant(const std::string& name, const std::string& extraSql, const fs::path& dir) {
    return buildDatabase(fixture(name), dir / (name + ".sqlite"), extraSql);
}

nlohmann::json readJson(const fs::path& p) {
    std::ifstream in(p);
    REQUIRE(in);
    return nlohmann::json::parse(in);
}

std::optional<std::int64_t> valueOf(const PrvEvent& e, std::uint32_t type) {
    for (const auto& [t, v] : e.pairs)
        if (t == type) return v;
    return std::nullopt;
}

std::map<std::uint32_t, std::int64_t> pairMap(const PrvEvent& e) {
    return {e.pairs.begin(), e.pairs.end()};
}

// Events that carry `type`, with a non-zero value (interval begins) or a zero value (ends).
std::vector<PrvEvent> begins(const PrvTrace& t, std::uint32_t type) {
    std::vector<PrvEvent> out;
    for (const auto& e : t.events)
        if (auto v = valueOf(e, type); v && *v != 0) out.push_back(e);
    return out;
}
std::vector<PrvEvent> ends(const PrvTrace& t, std::uint32_t type) {
    std::vector<PrvEvent> out;
    for (const auto& e : t.events)
        if (auto v = valueOf(e, type); v && *v == 0) out.push_back(e);
    return out;
}

std::vector<PrvEvent> onRow(const PrvTrace& t, int task, int thread) {
    std::vector<PrvEvent> out;
    for (const auto& e : t.events)
        if (e.task == task && e.thread == thread) out.push_back(e);
    return out;
}

// The (task, thread) of the n-th line of the .row THREAD level (threads are listed task by task).
std::pair<int, int> rowObject(const PrvTrace& t, std::size_t n) {
    for (std::size_t task = 0; task < t.threadsPerTask.size(); ++task) {
        auto count = static_cast<std::size_t>(t.threadsPerTask[task]);
        if (n < count) return {static_cast<int>(task) + 1, static_cast<int>(n) + 1};
        n -= count;
    }
    FAIL("row index out of range");
    return {0, 0};
}

} // namespace

TEST_CASE("synthetic GPU metrics: samples on the 'Metrics GPU0' row, negative timestamps dropped") {
    auto t = translateFixtures("synthetic-gpu-metrics", {"gpu_metrics"});
    INFO(t.result.output);
    REQUIRE(t.result.exitCode == 0);
    auto trace = readPrv(t.file(".prv"));

    // Time 0 is the earliest translated record: the cudaLaunchKernel call at 800 ns (the samples at -400
    // are dropped, the first kept sample is at 1000). The last record is the sample at 11000: 11000 -
    // 800.
    REQUIRE_FALSE(trace.lineTimes.empty());
    CHECK(*std::min_element(trace.lineTimes.begin(), trace.lineTimes.end()) == 0);
    CHECK(trace.endTime == 10200);

    auto threads = readRowLevel(t.file(".row"), "THREAD");
    REQUIRE(threads == std::vector<std::string>{"THREAD 1.1.1", "CUDA-D0.S7", "Metrics GPU0"});
    CHECK(readRowLevel(t.file(".row"), "NODE") == std::vector<std::string>{"synth-gpu-node"});
    auto [task, thread] = rowObject(trace, 2);

    // One record per sample timestamp, all metrics of that timestamp in it, each under two types: by NAME
    // (the fixture's metricIds 0/12/14 are not the catalogue positions 0/5/7) and nsys2prv's 9400 + metricId;
    // values exact.
    using M = std::map<std::uint32_t, std::int64_t>;
    auto both = [](std::int64_t gpc, std::int64_t sms, std::int64_t tensor) {
        return M{{kGpcClock, gpc},   {kSmsActive, sms},   {kTensorActive, tensor},
                 {kGpcClockId, gpc}, {kSmsActiveId, sms}, {kTensorActiveId, tensor}};
    };
    const std::map<std::int64_t, M> expected = {
        {1000 - 800, both(1755, 0, 0)},
        {3000 - 800, both(1755, 95, 61)},
        {7000 - 800, both(1980, 88, 72)},
        {11000 - 800, both(1980, 2, 0)},
    };
    std::map<std::int64_t, M> got;
    for (const auto& e : onRow(trace, task, thread)) {
        CHECK(got.count(e.time) == 0);
        got[e.time] = pairMap(e);
    }
    CHECK(got == expected);

    // No metric type anywhere else (the CPU thread and the stream carry none).
    for (const auto& e : trace.events)
        for (const auto& [type, v] : e.pairs)
            if ((type >= 9400 && type < 9500) || (type >= 63000300 && type < 63000400))
                CHECK((e.task == task && e.thread == thread));

    auto pcf = readPcfValues(t.file(".pcf"));
    CHECK(pcf.count(kSmsActive) == 1);
    CHECK(pcf.count(kTensorActive) == 1);
    CHECK(pcf.count(kGpcClock) == 1);
    // nsys2prv's types are labelled with the metric's name, as its .pcf does.
    auto labels = readPcfTypeLabels(t.file(".pcf"));
    CHECK(labels[kGpcClockId] == "GPC Clock Frequency [MHz]");
    CHECK(labels[kSmsActiveId] == "SMs Active [Throughput %]");
    CHECK(labels[kTensorActiveId] == "Tensor Active [Throughput %]");

    // The two samples at -400 are skipped and said so (per table and reason, like every bad row).
    auto side = readJson(t.file(".json"));
    CHECK(side["skipped_rows"]["GPU_METRICS"]["timestamp is negative (before the session start)"] == 2);

    // The three kernels (two GEMM-like) on the stream row: starts 2000, 6000, 9500 minus 800.
    auto kernels = begins(trace, kKernel);
    REQUIRE(kernels.size() == 3);
    std::vector<std::int64_t> kernelTimes;
    std::vector<std::string> kernelNames;
    for (const auto& k : kernels) {
        CHECK(rowObject(trace, 1) == std::make_pair(k.task, k.thread));
        kernelTimes.push_back(k.time);
        kernelNames.push_back(pcf[kKernel][*valueOf(k, kKernel)]);
    }
    CHECK(kernelTimes == std::vector<std::int64_t>{1200, 5200, 8700});
    CHECK(kernelNames[0] == "ampere_sgemm_128x64_nn");
    CHECK(kernelNames[1].find("cutlass_80_tensorop_s1688gemm") != std::string::npos);
    CHECK(kernelNames[2].find("vectorized_elementwise_kernel") != std::string::npos);
}

TEST_CASE("synthetic GPU metrics of two GPUs used by two processes: each metrics row names its own GPU") {
    // gpu_metrics plus a second process (pid 4343) whose kernel runs on device 1, and samples of GPU 1
    // (typeId 2).
    auto dir = tempDir("synthetic-gpu-metrics-2gpu");
    auto db = buildVariant("gpu_metrics", R"(
    INSERT INTO PROCESSES VALUES (281547840159744, 4343, 'synthetic_gemm_gpu1');
    INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (900, 1500, 0, 281547840164087, 301, 1, 0, NULL);
    INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, greenContextId, streamId,
        correlationId, globalPid, demangledName, shortName, mangledName, launchType, cacheConfig,
        registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory,
        localMemoryPerThread, localMemoryTotal, gridId, sharedMemoryExecuted, graphNodeId, sharedMemoryLimitConfig)
        VALUES (2100, 4900, 1, 2, NULL, 7, 301, 281547840159744, 2, 2, NULL, 1, 0, 128, 64, 32, 1, 256, 1, 1,
                16384, 0, 0, 0, 4, 32768, NULL, 0);
    INSERT INTO TARGET_INFO_GPU_METRICS VALUES
        (2, 1, 'GPU 1 metrics (synthetic)', 12, 'SMs Active [Throughput %]'),
        (2, 1, 'GPU 1 metrics (synthetic)', 14, 'Tensor Active [Throughput %]');
    INSERT INTO GPU_METRICS VALUES (3000, 2, 12, 40), (3000, 2, 14, 33);
)",
                           dir);
    auto prefix = dir / "out";
    auto r = run("'" + gpueffBinary().string() + "' translate '" + db.string() + "' -o '" + prefix.string() +
                 "' --quiet");
    INFO(r.output);
    REQUIRE(r.exitCode == 0);
    auto trace = readPrv(dir / "out.prv");

    // Tasks by PID (same host): 4242 (GPU 0), then 4343 (GPU 1).
    CHECK(readRowLevel(dir / "out.row", "THREAD") == std::vector<std::string>{"THREAD 1.1.1", "CUDA-D0.S7",
                                                                              "Metrics GPU0", "THREAD 1.2.1",
                                                                              "CUDA-D1.S7", "Metrics GPU1"});
    // GPU 1's one sample, at 3000 - 800, on task 2's metrics row; GPU 0's four samples stay on task 1's.
    auto gpu1 = onRow(trace, 2, 3);
    REQUIRE(gpu1.size() == 1);
    CHECK(gpu1[0].time == 2200);
    CHECK(pairMap(gpu1[0]) ==
          std::map<std::uint32_t, std::int64_t>{
              {kSmsActive, 40}, {kTensorActive, 33}, {kSmsActiveId, 40}, {kTensorActiveId, 33}});
    CHECK(onRow(trace, 1, 3).size() == 4);
}

TEST_CASE("synthetic CUDA graphs (--cuda-graph-trace=graph): one 63000008 interval per GRAPH_TRACE row") {
    auto t = translateFixtures("synthetic-graph-mode", {"cuda_graph_graph_mode"});
    INFO(t.result.output);
    REQUIRE(t.result.exitCode == 0);
    auto trace = readPrv(t.file(".prv"));
    auto pcf = readPcfValues(t.file(".pcf"));

    // Streams are rows in (device, stream) order: S7 (eager kernel), S13 (graph 1 twice), S14 (graph 5).
    auto threads = readRowLevel(t.file(".row"), "THREAD");
    REQUIRE(threads == std::vector<std::string>{"THREAD 1.1.1", "CUDA-D0.S7", "CUDA-D0.S13", "CUDA-D0.S14"});
    auto s13 = rowObject(trace, 2), s14 = rowObject(trace, 3);

    // Time 0 = the first API call at 1000.
    CHECK(*std::min_element(trace.lineTimes.begin(), trace.lineTimes.end()) == 0);
    CHECK(trace.endTime == 9000 - 1000);

    auto graphs = begins(trace, kGraphLaunch);
    CHECK(graphs.size() == static_cast<std::size_t>(queryInt(
                               t.inputs[0], "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE")));
    REQUIRE(graphs.size() == 3);
    struct Expected {
        std::pair<int, int> row;
        std::int64_t time, graphId, execId;
        const char* label;
    };
    // by correlationId: GRAPH_TRACE start - 1000
    const std::map<std::int64_t, Expected> byCorrelation = {
        {12, {s13, 3350 - 1000, 1, 2, "CUDA graph 1"}},
        {13, {s13, 5400 - 1000, 1, 2, "CUDA graph 1"}},
        {14, {s14, 4150 - 1000, 5, 6, "CUDA graph 5"}},
    };
    std::set<std::int64_t> seen;
    for (const auto& g : graphs) {
        auto corr = valueOf(g, kCorrelationId);
        REQUIRE(corr);
        REQUIRE(byCorrelation.count(*corr) == 1);
        seen.insert(*corr);
        const auto& x = byCorrelation.at(*corr);
        CHECK(std::make_pair(g.task, g.thread) == x.row);
        CHECK(g.time == x.time);
        CHECK(valueOf(g, kGraphId) == x.graphId);
        CHECK(valueOf(g, kGraphExecId) == x.execId);
        CHECK(pcf[kGraphLaunch][*valueOf(g, kGraphLaunch)] == x.label);
    }
    CHECK(seen.size() == 3);
    // Each launch is closed at its GRAPH_TRACE end: 5350, 7400 (S13) and 8800 (S14), minus 1000.
    std::multiset<std::int64_t> endTimes;
    for (const auto& e : ends(trace, kGraphLaunch)) endTimes.insert(e.time);
    CHECK(endTimes == std::multiset<std::int64_t>{4350, 6400, 7800});

    // The graphs' kernels are not in the kernel table: the only kernel is the eager one, with no graph
    // attributes.
    auto kernels = begins(trace, kKernel);
    REQUIRE(kernels.size() == 1);
    CHECK(kernels[0].time == 1500 - 1000);
    CHECK_FALSE(valueOf(kernels[0], kGraphId));
    CHECK_FALSE(valueOf(kernels[0], kGraphNodeId));

    auto side = readJson(t.file(".json"));
    CHECK(side["begins_by_event_type"]["63000008"] == 3);

    // Launch lines (tag 55001): the eager kernel and the three graph launches, from the calling thread.
    std::vector<PrvComm> launches;
    for (const auto& c : trace.comms)
        if (c.tag == kTagKernelLaunch) launches.push_back(c);
    CHECK(launches.size() == 4);
    bool found = false;
    for (const auto& c : launches)
        if (c.recvTask == s14.first && c.recvThread == s14.second) {
            found = true;
            // cudaGraphLaunch 3800..4100, graph starts at 4150 (all minus 1000)
            CHECK(c.sendTask == 1);
            CHECK(c.sendThread == 1);
            CHECK(c.logicalSend == 2800);
            CHECK(c.physicalSend == 3100);
            CHECK(c.logicalRecv == 3150);
            CHECK(c.physicalRecv == 3150);
        }
    CHECK(found);
}

TEST_CASE("synthetic CUDA graphs (--cuda-graph-trace=node): graph kernels carry node and graph ids") {
    auto t = translateFixtures("synthetic-node-mode", {"cuda_graph_node_mode"});
    INFO(t.result.output);
    REQUIRE(t.result.exitCode == 0);
    auto trace = readPrv(t.file(".prv"));
    auto pcf = readPcfValues(t.file(".pcf"));

    CHECK(begins(trace, kGraphLaunch).empty()); // no GRAPH_TRACE table in node mode

    auto kernels = begins(trace, kKernel);
    REQUIRE(kernels.size() == 5);
    // time (kernel start - 1000) -> graph node id (0: the eager kernel, no node)
    const std::map<std::int64_t, std::int64_t> expectedNodes = {
        {1500 - 1000, 0}, {2400 - 1000, 1001}, {4050 - 1000, 1002}, {6400 - 1000, 1001}, {8050 - 1000, 1002}};
    std::map<std::int64_t, std::int64_t> gotNodes;
    for (const auto& k : kernels) {
        auto node = valueOf(k, kGraphNodeId);
        gotNodes[k.time] = node.value_or(0);
        if (node) {
            CHECK(valueOf(k, kGraphId) == 3);
        } else {
            CHECK_FALSE(valueOf(k, kGraphId));
        }
        if (node == 1001) CHECK(pcf[kKernel][*valueOf(k, kKernel)].rfind("sm90_xmma_gemm", 0) == 0);
    }
    CHECK(gotNodes == expectedNodes);
    // Two graph launches, two kernels each, all launched by their cudaGraphLaunch (correlation 20, 21).
    std::multiset<std::int64_t> corr;
    for (const auto& k : kernels) corr.insert(*valueOf(k, kCorrelationId));
    CHECK(corr == std::multiset<std::int64_t>{19, 20, 20, 21, 21});
}

TEST_CASE("synthetic MPI: two ranks on two hosts merged, aligned on MPI_Init, messages as communications") {
    // Rank 1's report first, and rank 1's host sorts first: tasks must still follow the MPI rank.
    auto t = translateFixtures("synthetic-mpi", {"mpi_rank1", "mpi_rank0"});
    INFO(t.result.output);
    REQUIRE(t.result.exitCode == 0);
    auto trace = readPrv(t.file(".prv"));
    auto side = readJson(t.file(".json"));

    // Clocks. UTC shifts: rank 0 0, rank 1 +3000 (its session started 3000 ns later).
    // MPI_Init ends: rank 0 at 51000 + 0 = 51000, rank 1 at 46500 + 3000 = 49500 -> rank 1 moves by 1500.
    // Shifts: rank 0 0, rank 1 4500. First records: rank 0 1000 (MPI_Init), rank 1 2000 + 4500 = 6500 ->
    // zero = 1000, so offsets (output = export time + offset): rank 0 -1000, rank 1 3500. Last record:
    // rank 0 101000 - 1000 = 100000, rank 1 97500 + 3500 = 101000.
    const auto& in = side.at("inputs");
    REQUIRE(in.size() == 2);
    CHECK(in[0].at("host") == "synth-host-alpha"); // inputs stay in command-line order
    CHECK(in[0].at("utc_shift_ns") == 3000);
    CHECK(in[0].at("sync_shift_ns") == 1500);
    CHECK(in[0].at("sync_point") == "MPI_Init end");
    CHECK(in[0].at("alignment") == "utc+MPI_Init");
    CHECK(in[1].at("alignment") == "utc+MPI_Init");
    CHECK(in[0].at("offset_ns") == 3500);
    CHECK(in[1].at("host") == "synth-host-beta");
    CHECK(in[1].at("utc_shift_ns") == 0);
    CHECK(in[1].at("sync_shift_ns") == 0);
    CHECK(in[1].at("offset_ns") == -1000);
    CHECK(side["trace"]["origin_utc_ns"] == 1700000200000001000LL);
    CHECK(side["trace"]["duration_ns"] == 101000);

    // Layout: task 1 = rank 0 (host beta), task 2 = rank 1 (host alpha); each a thread and a stream.
    // origin 1700000200000001000 ns = 2023-11-14 22:16:40 UTC.
    CHECK(trace.header == "#Paraver (14/11/2023 at 22:16):101000_ns:2(2,2):1:2(2:1,2:2)");
    CHECK(readRowLevel(t.file(".row"), "NODE") ==
          std::vector<std::string>{"synth-host-beta", "synth-host-alpha"});
    CHECK(readRowLevel(t.file(".row"), "TASK") ==
          std::vector<std::string>{"synthetic_mpi 7000@synth-host-beta",
                                   "synthetic_mpi 7000@synth-host-alpha"});
    CHECK(readRowLevel(t.file(".row"), "THREAD") ==
          std::vector<std::string>{"THREAD 1.1.1", "CUDA-D0.S7", "THREAD 1.2.1", "CUDA-D0.S7"});
    CHECK(*std::min_element(trace.lineTimes.begin(), trace.lineTimes.end()) == 0);

    // MPI_Init (Extrae value 31) on each rank's thread: begins 0 and 2000 + 3500, both end at 50000.
    for (auto [task, begin] : {std::pair{1, 0LL}, std::pair{2, 5500LL}}) {
        CAPTURE(task);
        std::optional<std::int64_t> initBegin, initEnd;
        for (const auto& e : onRow(trace, task, 1)) {
            auto v = valueOf(e, kMpiOther);
            if (!v) continue;
            if (*v == 31 && !initBegin)
                initBegin = e.time;
            else if (*v == 0 && initBegin && !initEnd)
                initEnd = e.time;
        }
        CHECK(initBegin == begin);
        CHECK(initEnd == 50000);
    }

    // GPU records move with their rank: rank 1's kernel 48000 + 3500.
    auto kernels = begins(trace, kKernel);
    REQUIRE(kernels.size() == 2);
    for (const auto& k : kernels) CHECK(k.time == (k.task == 1 ? 53000 - 1000 : 48000 + 3500));

    // Calls with sizes: rank 0's MPI_Send (value 1) at 59000, rank 1's MPI_Recv (value 2) at 58500,
    // MPI_Allreduce (10) at 89000 and 89500.
    auto call = [&](int task, std::int64_t time, std::uint32_t type) -> std::optional<PrvEvent> {
        for (const auto& e : onRow(trace, task, 1))
            if (e.time == time && valueOf(e, type).value_or(0) != 0) return e;
        return std::nullopt;
    };
    auto send = call(1, 59000, kMpiP2P);
    REQUIRE(send);
    CHECK(valueOf(*send, kMpiP2P) == 1);
    CHECK(valueOf(*send, kMpiSendSize) == 4096);
    auto recv = call(2, 58500, kMpiP2P);
    REQUIRE(recv);
    CHECK(valueOf(*recv, kMpiP2P) == 2);
    CHECK(valueOf(*recv, kMpiRecvSize) == 4096);
    for (auto [task, time] : {std::pair{1, 89000LL}, std::pair{2, 89500LL}}) {
        auto ar = call(task, time, kMpiCollective);
        REQUIRE(ar);
        CHECK(valueOf(*ar, kMpiCollective) == 10);
        CHECK(valueOf(*ar, kMpiSendSize) == 8);
    }

    // Messages: one communication per matched send/receive pair, logical send = send call start, physical
    // receive = receive call end. The MPI_Send with tag 99 (rank 0, the second input) has no receive: no
    // line, and the call is counted as a row kept without a message line.
    std::vector<PrvComm> messages;
    for (const auto& c : trace.comms)
        if (c.tag != kTagKernelLaunch) messages.push_back(c);
    REQUIRE(messages.size() == 3);
    std::sort(messages.begin(), messages.end(), [](auto& a, auto& b) { return a.tag < b.tag; });
    auto checkMessage = [](const PrvComm& c, int from, int to, std::int64_t sendStart, std::int64_t recvStart,
                           std::int64_t recvEnd, std::int64_t size, std::int64_t tag) {
        CAPTURE(tag);
        CHECK(c.tag == tag);
        CHECK(c.size == size);
        CHECK(c.sendTask == from);
        CHECK(c.sendThread == 1);
        CHECK(c.recvTask == to);
        CHECK(c.recvThread == 1);
        CHECK(c.logicalSend == sendStart);
        CHECK(c.physicalSend == sendStart);
        CHECK(c.logicalRecv == recvStart);
        CHECK(c.physicalRecv == recvEnd);
    };
    checkMessage(messages[0], 1, 2, 60000 - 1000, 55000 + 3500, 57500 + 3500, 4096,
                 17); // MPI_Send -> MPI_Recv
    checkMessage(messages[1], 1, 2, 62000 - 1000, 57600 + 3500, 57700 + 3500, 1024,
                 18); // MPI_Isend -> MPI_Irecv
    checkMessage(messages[2], 2, 1, 66000 + 3500, 70000 - 1000, 72000 - 1000, 256,
                 19); // rank 1 -> rank 0
    CHECK(side["communications_by_tag"]["17"] == 1);
    const auto kept = nlohmann::json{
        {"MPI_P2P_EVENTS", {{"kept without a message line (no matching call of the partner rank)", 1}}}};
    CHECK(side["skipped_rows"] == kept);
    CHECK(side["inputs"][1]["skipped_rows"] == kept);
    CHECK(side["inputs"][0]["skipped_rows"].empty());
    CHECK(t.result.output.find("gpueff: warning: " + (t.dir / "mpi_rank0.sqlite").string() +
                               ": MPI_P2P_EVENTS: 1 row kept without a message line") != std::string::npos);
}

TEST_CASE("synthetic MPI: calls with a NULL end (the run ended inside them) become zero-length") {
    // The documented MPI_* tables declare `end` nullable. Rank 1's MPI_Finalize and rank 0's last
    // MPI_Recv (tag 19) get no end here.
    auto dir = tempDir("synthetic-mpi-null-end");
    auto r0 = buildVariant("mpi_rank0", "UPDATE MPI_P2P_EVENTS SET end = NULL WHERE tag = 19;", dir);
    auto r1 = buildVariant("mpi_rank1", "UPDATE MPI_OTHER_EVENTS SET end = NULL WHERE textId = 4;", dir);
    auto prefix = dir / "out";
    auto r = run("'" + gpueffBinary().string() + "' translate '" + r0.string() + "' '" + r1.string() +
                 "' -o '" + prefix.string() + "' --quiet");
    INFO(r.output);
    REQUIRE(r.exitCode == 0);
    auto trace = readPrv(dir / "out.prv");

    // Offsets as in the main MPI test (rank 0 -1000, rank 1 3500; MPI_Init ends are unchanged). The last
    // records are now rank 0's MPI_Finalize end (101000 - 1000) and rank 1's MPI_Finalize start (96500 +
    // 3500).
    CHECK(trace.endTime == 100000);
    for (std::size_t i = 1; i < trace.lineTimes.size(); ++i)
        CHECK(trace.lineTimes[i] >= trace.lineTimes[i - 1]);

    // Rank 1's MPI_Finalize (Extrae value 32): begins and ends at 100000.
    std::vector<std::pair<std::int64_t, std::int64_t>>
        finalize; // (time, value) on rank 1's thread, from the begin
    for (const auto& e : onRow(trace, 2, 1))
        if (auto v = valueOf(e, kMpiOther); v && (*v == 32 || !finalize.empty()))
            finalize.emplace_back(e.time, *v);
    CHECK(finalize == std::vector<std::pair<std::int64_t, std::int64_t>>{{100000, 32}, {100000, 0}});

    // Rank 0's MPI_Recv of tag 19 (value 2) at 70000 - 1000 is zero-length too, and its message's
    // physical receive is the receive's start.
    std::vector<std::pair<std::int64_t, std::int64_t>> recv;
    for (const auto& e : onRow(trace, 1, 1))
        if (e.time == 69000)
            if (auto v = valueOf(e, kMpiP2P)) recv.emplace_back(e.time, *v);
    CHECK(recv == std::vector<std::pair<std::int64_t, std::int64_t>>{{69000, 2}, {69000, 0}});
    bool found = false;
    for (const auto& c : trace.comms)
        if (c.tag == 19) {
            found = true;
            CHECK(c.sendTask == 2);
            CHECK(c.recvTask == 1);
            CHECK(c.logicalSend == 66000 + 3500);
            CHECK(c.logicalRecv == 69000);
            CHECK(c.physicalRecv == 69000);
        }
    CHECK(found);
}

TEST_CASE("synthetic MPI: the merged trace does not depend on the order of the reports") {
    auto a = translateFixtures("synthetic-mpi-order-a", {"mpi_rank0", "mpi_rank1"});
    auto b = translateFixtures("synthetic-mpi-order-b", {"mpi_rank1", "mpi_rank0"});
    REQUIRE(a.result.exitCode == 0);
    REQUIRE(b.result.exitCode == 0);
    auto ta = readPrv(a.file(".prv")), tb = readPrv(b.file(".prv"));
    CHECK(ta.header == tb.header);
    CHECK(ta.lineTimes == tb.lineTimes);
    REQUIRE(ta.events.size() == tb.events.size());
    for (std::size_t i = 0; i < ta.events.size(); ++i) {
        CHECK(ta.events[i].task == tb.events[i].task);
        CHECK(ta.events[i].thread == tb.events[i].thread);
        CHECK(ta.events[i].pairs == tb.events[i].pairs);
    }
    CHECK(ta.comms.size() == tb.comms.size());
}

TEST_CASE("the same report given twice is refused, naming the file, with no output written") {
    for (const char* name : {"mpi_rank0", "gpu_metrics"}) {
        CAPTURE(name);
        auto dir = tempDir(std::string("synthetic-twice-") + name);
        auto db = buildDatabase(fixture(name), dir / (std::string(name) + ".sqlite"));
        auto prefix = dir / "out";
        auto r = run("'" + gpueffBinary().string() + "' translate '" + db.string() + "' '" + db.string() +
                     "' -o '" + prefix.string() + "' --quiet");
        INFO(r.output);
        CHECK(r.exitCode != 0);
        CHECK(r.output.find(db.string()) != std::string::npos);
        std::vector<std::string> left;
        for (const auto& entry : fs::directory_iterator(dir))
            left.push_back(entry.path().filename().string());
        CHECK(left == std::vector<std::string>{std::string(name) + ".sqlite"});
    }
}
