// Traces written by BSC's nsys2prv 0.6.0 (data/paraver/fidelity/traces, from the exports of the same names in
// data/nsys): `gpueff analyze` must give the device model of the export they came from. Expected values come
// from SQL on the export and from a sweep over the .prv records done here, never from gpueff's output; a
// last check compares analyze(export) with analyze(nsys2prv trace) field by field on what both carry.
#include "tests/AnalyzeOracle.h"

#include <algorithm>
#include <cmath>
#include <doctest/doctest.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <zlib.h>

using namespace analyzeoracle;
using namespace testsupport;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const char* const kTraces[] = {"fuser_matmul_h100", "power_iteration_t4", "cloverleaf_a100"};

fs::path tracePath(const std::string& name) {
    return dataDir() / "paraver" / "fidelity" / "traces" / (name + ".nsys2prv.prv.gz");
}
fs::path exportPath(const std::string& name) {
    return dataDir() / "nsys" / (name + ".sqlite");
}

// The .prv.gz unpacked next to a copy of its .pcf and .row, for testsupport's plain-text reader.
fs::path unpacked(const std::string& name) {
    auto dir = tempDir("nsys2prv-" + name);
    auto out = dir / (name + ".prv");
    gzFile in = gzopen(tracePath(name).string().c_str(), "rb");
    REQUIRE(in != nullptr);
    std::ofstream o(out, std::ios::binary);
    char buffer[1 << 16];
    int n = 0;
    while ((n = gzread(in, buffer, sizeof buffer)) > 0) o.write(buffer, n);
    gzclose(in);
    REQUIRE(n == 0);
    for (const char* ext : {".pcf", ".row"})
        fs::copy_file(tracePath(name).parent_path() / (name + ".nsys2prv" + ext), dir / (name + ext));
    return out;
}

std::int64_t value(const json& o, const std::string& key) {
    return o.is_object() && o.contains(key) && o[key].is_number_integer() ? o[key].get<std::int64_t>() : -1;
}

// Kernel durations by short name (what nsys2prv names kernels by), from SQL.
std::map<std::string, std::vector<std::int64_t>> shortNameDurations(const fs::path& db) {
    std::map<std::string, std::vector<std::int64_t>> out;
    for (const auto& r : query(db, "SELECT s.value, k.end - k.start FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                                   "JOIN StringIds s ON s.id = k.shortName"))
        out[r[0]].push_back(std::stoll(r[1]));
    return out;
}

} // namespace

TEST_CASE("nsys2prv traces: each stream row's records are the export's GPU rows at the export's own times") {
    // The brute-force side: walk the .prv records of every CUDA-D<d>.S<s> row (a name value opens, 0
    // closes) and compare the intervals with the SQL rows, so the time origin (nsys2prv keeps the export's
    // timestamps) and the row assignment are checked before any number of the report is.
    for (const std::string name : kTraces) {
        CAPTURE(name);
        auto file = unpacked(name);
        auto prv = readPrv(file);
        auto rows = readRowLevel(fs::path(file).replace_extension(".row"), "THREAD");
        REQUIRE(!prv.threadsPerTask.empty());
        std::map<std::pair<std::size_t, std::uint32_t>, std::int64_t> open; // (row, type) -> begin
        std::map<std::uint32_t, std::multiset<std::pair<std::int64_t, std::int64_t>>> fromTrace; // type ->
        for (const auto& e : prv.events) {
            std::size_t row = 0;
            for (int t = 1; t < e.task; ++t)
                row += static_cast<std::size_t>(prv.threadsPerTask[static_cast<std::size_t>(t - 1)]);
            row += static_cast<std::size_t>(e.thread - 1);
            REQUIRE(row < rows.size());
            CHECK_MESSAGE(e.cpu == 0, "nsys2prv writes CPU 0 in every record");
            for (auto [type, v] : e.pairs) {
                if (type != 63000006 && type != 63000001 && type != 63000007) continue;
                CHECK_MESSAGE(rows[row].rfind("CUDA-D", 0) == 0, "GPU work on row " << rows[row]);
                auto key = std::pair{row, type};
                if (v != 0) {
                    CHECK_MESSAGE(!open.count(key), "overlapping work on row " << rows[row]);
                    open[key] = e.time;
                } else if (auto it = open.find(key); it != open.end()) {
                    fromTrace[type].insert({it->second, e.time});
                    open.erase(it);
                }
            }
        }
        CHECK(open.empty());
        auto db = exportPath(name);
        std::multiset<std::pair<std::int64_t, std::int64_t>> kernels, memory;
        for (const auto& r : query(db, "SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL"))
            kernels.insert({std::stoll(r[0]), std::stoll(r[1])});
        for (const char* t : {"CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"})
            if (hasTable(db, t))
                for (const auto& r : query(db, std::string("SELECT start, end FROM ") + t))
                    memory.insert({std::stoll(r[0]), std::stoll(r[1])});
        CHECK(fromTrace[63000006] == kernels); // no NCCL kernel in these runs
        CHECK(fromTrace[63000007].empty());
        CHECK(fromTrace[63000001] == memory);
    }
}

TEST_CASE("analyze on nsys2prv traces: the device model of the source export, from SQL") {
    for (const std::string name : kTraces) {
        CAPTURE(name);
        auto db = exportPath(name);
        auto report = analyze(tracePath(name), "", "-nsys2prv");
        auto devices = loadDevices(db);
        REQUIRE(devices.size() == 1);
        const auto& [key, d] = *devices.begin();
        REQUIRE(report["devices"].size() == 1);
        const auto& dev = report["devices"][0];
        CHECK(value(dev, "gpu") == key.second);
        CHECK(dev.value("id", std::string()) == "task1:" + std::to_string(key.second));

        // nsys2prv's time is the export's: the window is first start to last end of the GPU rows as stored.
        auto everything = concat({&d.compute, &d.nccl, &d.memory});
        std::int64_t lo = everything.front().first, hi = everything.front().second;
        for (auto [b, e] : everything) lo = std::min(lo, b), hi = std::max(hi, e);
        const auto T = hi - lo;
        CHECK(value(report["window"], "begin_ns") == lo);
        CHECK(value(report["window"], "end_ns") == hi);
        CHECK(value(report["window"], "duration_ns") == T);

        auto useful = length(d.compute, lo, hi), active = length(everything, lo, hi);
        CHECK(value(dev, "useful_ns") == useful);
        CHECK(value(dev, "communication_ns") == active - useful);
        CHECK(value(dev, "idle_ns") == T - active);
        CHECK(value(dev, "compute_ns") == useful);
        CHECK(value(dev, "memory_ns") == length(d.memory, lo, hi));
        CHECK(value(dev, "kernels") == d.kernels);
        CHECK(value(dev, "memory_operations") == d.memoryOperations);
        const auto& e = report["efficiency"]["nccl_as_communication"];
        auto ratio = [](std::int64_t a, std::int64_t b) {
            return static_cast<double>(a) / static_cast<double>(b);
        };
        CHECK(e.value("parallel_efficiency", -1.0) == doctest::Approx(ratio(useful, T)).epsilon(1e-12));
        CHECK(e.value("communication_efficiency", -1.0) ==
              doctest::Approx(ratio(useful, active)).epsilon(1e-12));
        CHECK(e.value("orchestration_efficiency", -1.0) == doctest::Approx(ratio(active, T)).epsilon(1e-12));

        auto communication = concat({&d.nccl, &d.memory});
        checkHistogram(report["kernels_in_flight"][0]["time_ns_by_count"],
                       timeByCount(concat({&d.compute, &d.nccl}), lo, hi), "kernels in flight");
        checkHistogram(report["kernels_in_flight"][0]["with_memory_time_ns_by_count"],
                       timeByCount(everything, lo, hi), "kernels in flight with memory");
        checkHistogram(report["overlap"][0]["time_ns_by_concurrency"],
                       timeByCount(everything, lo, hi, &communication), "overlap");
        auto busy = merged(everything, lo, hi);
        std::int64_t gaps = 0, idle = 0;
        for (std::size_t i = 1; i < busy.size(); ++i) ++gaps, idle += busy[i].first - busy[i - 1].second;
        CHECK(value(report["gaps"][0], "count") == gaps);
        CHECK(value(report["gaps"][0], "total_ns") == idle);

        // Kernel summary by short name, the only name nsys2prv writes.
        auto byName = shortNameDurations(db);
        const auto& rows = report["kernel_summary"]["overall"];
        CHECK(rows.size() == byName.size());
        for (const auto& r : rows) {
            auto n = r.value("name", std::string());
            CAPTURE(n);
            auto it = byName.find(n);
            if (it == byName.end()) {
                FAIL_CHECK("not a short name of the export");
                continue;
            }
            std::int64_t total = 0;
            for (auto x : it->second) total += x;
            CHECK(value(r, "instances") == static_cast<std::int64_t>(it->second.size()));
            CHECK(value(r, "total_ns") == total);
            CHECK(value(r, "min_ns") == *std::min_element(it->second.begin(), it->second.end()));
            CHECK(value(r, "max_ns") == *std::max_element(it->second.begin(), it->second.end()));
        }

        // What the trace cannot carry is said, not guessed.
        CHECK(report["trace"].value("writer", std::string()) == "nsys2prv");
        CHECK(report["kernels_queued"].empty());
        CHECK(report["host"]["offload"].empty());
        std::string notes;
        for (const auto& n : report["notes"]) notes += n.get<std::string>() + "\n";
        CHECK_MESSAGE(notes.find("kernels queued: not computed") != std::string::npos, notes);
        CHECK_MESSAGE(notes.find("nsys2prv writes no CUDA synchronization") != std::string::npos, notes);
        CHECK_MESSAGE(notes.find("time 0 = the session start") != std::string::npos, notes);
        CHECK_MESSAGE(notes.find("short names") != std::string::npos, notes);
        auto md = readText(fs::temp_directory_path() /
                           ("analyze-oracle-" + tracePath(name).stem().string() + "-nsys2prv") / "report.md");
        CHECK_MESSAGE(md.find("written by nsys2prv") != std::string::npos, md.substr(0, 600));
        CHECK(md.find("the report lists no inputs") == std::string::npos);
        CHECK(md.find("## Kernels queued\n\nn/a: not computed for this trace (why: see Notes)") !=
              std::string::npos);
    }
}

TEST_CASE(
    "analyze: an export and its nsys2prv trace give the same device model, windows shifted by the offset") {
    for (const std::string name : kTraces) {
        CAPTURE(name);
        auto fromExport = analyze(exportPath(name), "", "-pair");
        auto fromTrace = analyze(tracePath(name), "", "-pair");
        REQUIRE(fromExport["inputs"].size() == 1);
        // gpueff's trace time = export time + offset_ns; nsys2prv's = export time.
        auto offset = value(fromExport["inputs"][0], "offset_ns");
        CHECK(value(fromTrace["window"], "begin_ns") == value(fromExport["window"], "begin_ns") - offset);
        CHECK(value(fromTrace["window"], "end_ns") == value(fromExport["window"], "end_ns") - offset);
        for (const char* k : {"useful_ns", "communication_ns", "idle_ns", "compute_ns", "nccl_ns",
                              "memory_ns", "kernels", "memory_operations", "gpu"})
            CHECK_MESSAGE(fromTrace["devices"][0][k] == fromExport["devices"][0][k], k);
        for (const char* c : {"nccl_as_communication", "nccl_as_useful"})
            for (const char* k :
                 {"parallel_efficiency", "load_balance", "communication_efficiency",
                  "orchestration_efficiency", "useful_sum_ns", "useful_max_ns", "active_max_ns"})
                CHECK_MESSAGE(fromTrace["efficiency"][c][k] == fromExport["efficiency"][c][k], c << "." << k);
        for (const char* k : {"time_ns_by_count", "with_memory_time_ns_by_count", "maximum", "mean"})
            CHECK_MESSAGE(fromTrace["kernels_in_flight"][0][k] == fromExport["kernels_in_flight"][0][k], k);
        for (const char* k : {"communication_ns", "time_ns_by_concurrency"})
            CHECK_MESSAGE(fromTrace["overlap"][0][k] == fromExport["overlap"][0][k], k);
        for (const char* k : {"count", "total_ns"})
            CHECK_MESSAGE(fromTrace["gaps"][0][k] == fromExport["gaps"][0][k], k);
        CHECK(fromTrace["timeline"]["devices"][0]["useful"] ==
              fromExport["timeline"]["devices"][0]["useful"]);
    }
    // compare takes the report of an nsys2prv trace (no inputs; the schema used to require one).
    auto reportDir = [](const fs::path& input, const char* tag) {
        return fs::temp_directory_path() / ("analyze-oracle-" + input.stem().string() + tag);
    };
    auto cmp = run(gpueffBinary().string() + " compare " +
                   quoted(reportDir(exportPath("fuser_matmul_h100"), "-pair")) + " " +
                   quoted(reportDir(tracePath("fuser_matmul_h100"), "-pair")) + " -o " +
                   quoted(fs::temp_directory_path() / "nsys2prv-compare"));
    CHECK_MESSAGE(cmp.exitCode == 0, cmp.output);
    // An NVTX region: the same ranges in both, so the same window shifted by the offset.
    auto name = std::string("fuser_matmul_h100");
    auto region = std::string("--region KernelExecutor::runFusion");
    auto fromExport = analyze(exportPath(name), region, "-region");
    auto fromTrace = analyze(tracePath(name), region, "-region");
    auto offset = value(fromExport["inputs"][0], "offset_ns");
    CHECK(value(fromTrace["window"], "begin_ns") == value(fromExport["window"], "begin_ns") - offset);
    CHECK(value(fromTrace["window"], "duration_ns") == value(fromExport["window"], "duration_ns"));
    CHECK(fromTrace["devices"][0]["useful_ns"] == fromExport["devices"][0]["useful_ns"]);
}

TEST_CASE("modelfactors on an nsys2prv trace: refused with where its numbers are instead") {
    auto r = run(gpueffBinary().string() + " modelfactors -q " + quoted(tracePath("fuser_matmul_h100")));
    CHECK(r.exitCode == 1);
    CHECK_MESSAGE(r.output.find("the trace has no state records") != std::string::npos, r.output);
    CHECK_MESSAGE(r.output.find("use `gpueff analyze`") != std::string::npos, r.output);
}

TEST_CASE(
    "analyze: devices of an nsys2prv-style trace with two tasks, and work overlapping on one stream row") {
    // nsys2prv's layout: no resources, CPU 0, a ':' before the task list, host threads then the task's
    // stream rows, no TASK level in the .row. Task 2 runs GPU 1 on two streams; on S14 a second kernel
    // begins (650) before the first ends (700): Paraver's last event value gives [500,650) kernA,
    // [650,700) kernB and idle from 700, so the device is busy until 700, not 800.
    auto dir = tempDir("nsys2prv-two-tasks");
    std::ofstream(dir / "t.prv") << "#Paraver (d):1000_ns:0:1:2:(2:1,3:1)\n"
                                    "2:0:1:1:2:100:63000006:5\n2:0:1:1:2:300:63000006:0\n"
                                    "2:0:1:2:2:200:63000006:6\n2:0:1:2:2:600:63000006:0\n"
                                    "2:0:1:2:3:500:63000006:5\n2:0:1:2:3:650:63000006:6\n"
                                    "2:0:1:2:3:700:63000006:0\n2:0:1:2:3:800:63000006:0\n"
                                    "2:0:1:1:2:400:63000001:7\n2:0:1:1:2:450:63000001:0\n"
                                    "2:0:1:1:1:50:63000000:1\n2:0:1:1:1:90:63000000:0\n";
    std::ofstream(dir / "t.pcf")
        << "EVENT_TYPE\n0 63000000 CUDA library call\nVALUES\n0 End\n1 cudaLaunchKernel\n\n"
           "EVENT_TYPE\n0 63000006 CUDA kernel\nVALUES\n0 End\n5 kernA\n6 kernB\n\n"
           "EVENT_TYPE\n0 63000001 CUDA memcpy kernel\nVALUES\n0 End\n"
           "7 CUDA memcpy Host-to-Device\n\n";
    std::ofstream(dir / "t.row")
        << "LEVEL NODE SIZE 1\nnode1\n\nLEVEL THREAD SIZE 5\nTHREAD 1.1.1\nCUDA-D0.S7\n"
           "THREAD 1.2.1\nCUDA-D1.S13\nCUDA-D1.S14\n";
    auto report = analyze(dir / "t.prv", "", "-two-tasks");
    CHECK(report["trace"].value("writer", std::string()) == "nsys2prv");
    CHECK(value(report["window"], "begin_ns") == 100);
    CHECK(value(report["window"], "end_ns") == 700);
    REQUIRE(report["devices"].size() == 2);
    const auto& d0 = report["devices"][0];
    const auto& d1 = report["devices"][1];
    CHECK(d0.value("id", std::string()) == "task1:0");
    CHECK(d1.value("id", std::string()) == "task2:1");
    CHECK(value(d1, "rows") == 2);
    CHECK(value(d0, "useful_ns") == 200);
    CHECK(value(d0, "communication_ns") == 50);
    CHECK(value(d0, "idle_ns") == 350);
    CHECK(value(d0, "memory_operations") == 1);
    CHECK(value(d1, "useful_ns") == 500); // [200,700)
    CHECK(value(d1, "idle_ns") == 100);
    const auto& e = report["efficiency"]["nccl_as_communication"];
    CHECK(e.value("parallel_efficiency", -1.0) == doctest::Approx(700.0 / 1200.0));
    CHECK(e.value("load_balance", -1.0) == doctest::Approx(700.0 / 1000.0));
    CHECK(e.value("communication_efficiency", -1.0) == doctest::Approx(1.0));
    CHECK(e.value("orchestration_efficiency", -1.0) == doctest::Approx(500.0 / 600.0));
    std::string notes;
    for (const auto& n : report["notes"]) notes += n.get<std::string>() + "\n";
    CHECK_MESSAGE(notes.find("1 GPU work record (kernel, graph launch or memory operation) begin") !=
                      std::string::npos,
                  notes);
}
