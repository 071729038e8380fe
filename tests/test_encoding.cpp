// The Paraver encoding of docs/events.md: dense name values in the names' byte order (per trace, one table
// for several merged exports), and the event types shared with nsys2prv 0.6.0. Expected values are computed
// here from the fixtures' SQL (sorted distinct names), never taken from a gpueff run.
#include "tests/TestSupport.h"

#include <algorithm>
#include <doctest/doctest.h>
#include <optional>
#include <regex>
#include <set>

using namespace testsupport;
namespace fs = std::filesystem;

namespace {

constexpr std::uint32_t kApi = 63000000, kKernel = 63000006, kNcclKernel = 63000007;

fs::path fixture(const std::string& name) {
    return sourceDir() / "data" / "synthetic" / (name + ".sql");
}

void translate(const std::vector<fs::path>& inputs, const fs::path& prefix) {
    std::string cmd = quoted(gpueffBinary()) + " translate --quiet";
    for (const auto& i : inputs) cmd += " " + quoted(i);
    auto r = run(cmd + " -o " + quoted(prefix));
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
}

// The distinct values of one SQL column over several exports, in byte order (std::string compares bytes as
// unsigned char): the order the .pcf must number them in.
std::vector<std::string> sortedDistinct(const std::vector<fs::path>& dbs, const std::string& sql) {
    std::set<std::string> names;
    for (const auto& db : dbs)
        for (const auto& row : query(db, sql)) names.insert(row.at(0));
    return {names.begin(), names.end()};
}

// value -> name as the .pcf must list it: 1..N in order.
std::map<std::int64_t, std::string> numbered(const std::vector<std::string>& sorted, std::int64_t first = 1) {
    std::map<std::int64_t, std::string> out;
    for (std::size_t i = 0; i < sorted.size(); ++i) out[first + static_cast<std::int64_t>(i)] = sorted[i];
    return out;
}

// nsys' ABI suffix (_v + 4 or more digits) is not part of an API name (docs/events.md).
std::string apiName(const std::string& raw) {
    static const std::regex suffix("_v[0-9]{4,}$");
    return std::regex_replace(raw, suffix, "");
}

std::vector<std::string> apiNames(const std::vector<fs::path>& dbs) {
    std::set<std::string> names;
    for (const auto& n : sortedDistinct(dbs, "SELECT DISTINCT s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
                                             "JOIN StringIds s ON s.id = r.nameId"))
        names.insert(apiName(n));
    return {names.begin(), names.end()};
}

std::string kernelNameColumn(const fs::path& db) {
    return queryInt(db, "SELECT count(*) FROM pragma_table_info('CUPTI_ACTIVITY_KIND_KERNEL') WHERE "
                        "name = 'demangledName'")
               ? "demangledName"
               : "shortName";
}

std::vector<std::string> kernelNames(const std::vector<fs::path>& dbs) {
    std::set<std::string> names;
    for (const auto& db : dbs)
        for (const auto& n : sortedDistinct(
                 {db}, "SELECT DISTINCT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s "
                       "ON s.id = k." +
                           kernelNameColumn(db)))
            names.insert(n);
    return {names.begin(), names.end()};
}

// A .pcf value table without its "0 End" line.
std::map<std::int64_t, std::string> named(std::map<std::int64_t, std::string> values) {
    values.erase(0);
    return values;
}

// The kernel names a kernel type's .pcf labels stand for (`short [full]`: docs/events.md "Kernel labels").
std::map<std::int64_t, std::string> kernelNamed(std::map<std::int64_t, std::string> values) {
    values = named(std::move(values));
    for (auto& [v, label] : values) label = pcfKernelName(label);
    return values;
}

std::optional<std::int64_t> valueOf(const PrvEvent& e, std::uint32_t type) {
    for (const auto& [t, v] : e.pairs)
        if (t == type) return v;
    return std::nullopt;
}

// Kernel begin records: time -> the name the .pcf gives their value.
std::map<std::int64_t, std::string> kernelsByTime(const PrvTrace& prv,
                                                  std::map<std::int64_t, std::string>& labels) {
    std::map<std::int64_t, std::string> out;
    for (const auto& e : prv.events)
        if (auto v = valueOf(e, kKernel); v && *v != 0) out[e.time] = pcfKernelName(labels[*v]);
    return out;
}

} // namespace

TEST_CASE("dense values: two exports sharing kernel names number each name by its sorted position") {
    auto dir = tempDir("encoding-two-exports");
    // Export A: the gpu_metrics fixture (three kernels). Export B: the same plus a kernel whose name sorts
    // before all of them, so every shared name moves up by one.
    auto a = buildDatabase(fixture("gpu_metrics"), dir / "a.sqlite");
    auto b = buildDatabase(fixture("gpu_metrics"), dir / "b.sqlite", R"(
        INSERT INTO StringIds VALUES (90, 'aaa_first_kernel');
        INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (10100, 10200, 0, 281546145665170, 104, 1, 0, NULL);
        INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, greenContextId, streamId,
            correlationId, globalPid, demangledName, shortName, mangledName, launchType, cacheConfig,
            registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory,
            dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId, sharedMemoryExecuted,
            graphNodeId, sharedMemoryLimitConfig)
            VALUES (10300, 10900, 0, 1, NULL, 7, 104, 281546145660928, 90, 90, NULL, 1, 0, 32, 1, 1, 1, 32, 1, 1,
                    0, 0, 0, 0, 9, 0, NULL, 0);
    )");
    translate({a}, dir / "a");
    translate({b}, dir / "b");
    auto pcfA = readPcfValues(dir / "a.pcf"), pcfB = readPcfValues(dir / "b.pcf");
    auto namesA = kernelNames({a}), namesB = kernelNames({b});
    REQUIRE(namesA.size() == 3);
    REQUIRE(namesB.size() == 4);
    CHECK(namesB.front() == "aaa_first_kernel");
    CHECK(kernelNamed(pcfA[kKernel]) == numbered(namesA));
    CHECK(kernelNamed(pcfB[kKernel]) == numbered(namesB));
    // A shared name: value 1 in A, 2 in B (its positions), the same name behind both.
    CHECK(pcfA[kKernel][1] == "ampere_sgemm_128x64_nn");
    CHECK(pcfB[kKernel][2] == "ampere_sgemm_128x64_nn");
    // The API table the same way (cudaLaunchKernel, its nsys suffix dropped).
    CHECK(named(pcfA[kApi]) == numbered(apiNames({a})));
    CHECK(named(pcfB[kApi]) == numbered(apiNames({b})));

    // Records carry those values: each kernel's value names the kernel SQL has at that start.
    auto prvA = readPrv(dir / "a.prv"), prvB = readPrv(dir / "b.prv");
    std::map<std::int64_t, std::string> expectedA;
    for (const auto& row : query(a, "SELECT k.start - 800, s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
                                    "StringIds s ON s.id = k.demangledName"))
        expectedA[std::stoll(row[0])] = row[1];
    CHECK(kernelsByTime(prvA, pcfA[kKernel]) == expectedA);
    auto expectedB = expectedA;
    expectedB[10300 - 800] = "aaa_first_kernel";
    CHECK(kernelsByTime(prvB, pcfB[kKernel]) == expectedB);
}

TEST_CASE("dense values: several exports merged in one translate share one table of values") {
    auto dir = tempDir("encoding-merged");
    auto r0 = buildDatabase(fixture("mpi_rank0"), dir / "rank0.sqlite");
    auto r1 = buildDatabase(fixture("mpi_rank1"), dir / "rank1.sqlite", R"(
        INSERT INTO StringIds VALUES (90, 'MPI_Type_commit');
        INSERT INTO MPI_OTHER_EVENTS VALUES (46850, 46900, 281592417229656, 90);
    )");
    translate({r0, r1}, dir / "merged");
    auto pcf = readPcfValues(dir / "merged.pcf");
    // Kernels and API calls: the union of both exports' names, numbered once.
    CHECK(kernelNamed(pcf[kKernel]) == numbered(kernelNames({r0, r1})));
    CHECK(named(pcf[kApi]) == numbered(apiNames({r0, r1})));
    // MPI: Extrae's values for the calls it knows; a name it does not know (MPI_Type_commit) is numbered
    // after the largest Extrae value gpueff knows (MPI_Init_thread, 71), in the one table of the five types.
    auto& other = pcf[50000003];
    CHECK(other[31] == "MPI_Init");
    CHECK(other[32] == "MPI_Finalize");
    CHECK(other[72] == "MPI_Type_commit");
    auto prv = readPrv(dir / "merged.prv");
    bool typeCommit = false;
    for (const auto& e : prv.events) typeCommit |= valueOf(e, 50000003) == 72;
    CHECK(typeCommit);
}

TEST_CASE("dense values: two translations of one export write the same files") {
    auto db = dataDir() / "nsys" / "power_iteration_t4.sqlite";
    auto dir = tempDir("encoding-twice");
    fs::create_directories(dir / "1");
    fs::create_directories(dir / "2");
    translate({db}, dir / "1" / "t");
    translate({db}, dir / "2" / "t");
    for (const char* ext : {".prv", ".pcf", ".row"}) {
        auto one = readText(dir / "1" / (std::string("t") + ext)),
             two = readText(dir / "2" / (std::string("t") + ext));
        CHECK_MESSAGE(!one.empty(), ext);
        CHECK_MESSAGE(one == two, ext);
    }
}

TEST_CASE("dense values: every name type of the real exports is numbered 1..N in byte order") {
    for (const char* name : {"power_iteration_t4", "cloverleaf_a100", "mfu_2gpu_h100_nccl"}) {
        INFO(name);
        auto db = dataDir() / "nsys" / (std::string(name) + ".sqlite");
        auto dir = tempDir(std::string("encoding-real-") + name);
        translate({db}, dir / "t");
        auto pcf = readPcfValues(dir / "t.pcf");
        CHECK(named(pcf[kApi]) == numbered(apiNames({db})));
        // Kernels and NCCL kernels share one table: both types list it whole.
        auto kernels = numbered(kernelNames({db}));
        CHECK(kernelNamed(pcf[kKernel]) == kernels);
        if (pcf.count(kNcclKernel)) CHECK(kernelNamed(pcf[kNcclKernel]) == kernels);
        // Every type's name values run 1..N without holes, ordered like their names (the MPI and pthread
        // types start with Extrae's values and are left out here).
        for (const auto& [type, values] : pcf) {
            if ((type >= 50000001 && type <= 50000005) || type == 61000000) continue;
            // Kernel labels are `short [full]`: their names are in byte order.
            bool kernelType = type == kKernel || type == kNcclKernel;
            std::vector<std::string> labels;
            for (const auto& [v, label] : values)
                if (v != 0) labels.push_back(kernelType ? pcfKernelName(label) : label);
            if (type != 63000001 && type != 63000003 && type != 63000004 && type != 63000009 &&
                !labels.empty()) {
                CHECK_MESSAGE(std::is_sorted(labels.begin(), labels.end()), type);
                CHECK_MESSAGE(values.rbegin()->first == static_cast<std::int64_t>(labels.size()), type);
            }
        }
    }
}

TEST_CASE("encoding: NVTX domains numbered by name as nsys2prv does, start/end ranges also under 9004") {
    auto dir = tempDir("encoding-nvtx");
    // nccl_payload plus two named domains (created as "zeta" id 6 and "alpha" id 7: name order differs from
    // id order), push/pop and start/end ranges and a mark.
    auto db = buildDatabase(fixture("nccl_payload"), dir / "nvtx.sqlite", R"(
        INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES
            (0, 0, 75, 'zeta', 1677721701, 6), (0, 0, 75, 'alpha', 1677721701, 7),
            (1100, 1900, 59, 'zeta push', 1677721701, 6),
            (1200, 1800, 60, 'zeta startend', 1677721701, 6),
            (1300, 1700, 59, 'alpha push', 1677721701, 7),
            (1400, 1600, 60, 'default startend', 1677721701, 0),
            (1500, 1500, 60, 'another startend', 1677721701, 0),
            (1550, NULL, 34, 'alpha mark', 1677721701, 7);
    )");
    translate({db}, dir / "t");
    auto prv = readPrv(dir / "t.prv");
    auto pcf = readPcfValues(dir / "t.pcf");
    // Domains other than the default and NCCL ones, by name: alpha 9700, zeta 9800 (nsys2prv's rule).
    // Ranges and marks of one domain share its values (alpha: "alpha mark" 1, "alpha push" 2).
    CHECK(named(pcf[9700]) == std::map<std::int64_t, std::string>{{1, "alpha mark"}, {2, "alpha push"}});
    CHECK(pcf[9799][1] == "alpha mark"); // alpha's marks: base + 99
    CHECK(named(pcf[9800]) == std::map<std::int64_t, std::string>{{1, "zeta push"}, {2, "zeta startend"}});
    CHECK(named(pcf[9600]) ==
          std::map<std::int64_t, std::string>{{1, "another startend"}, {2, "default startend"}});
    // 9004: every start/end range whatever its domain, its own table.
    const std::map<std::int64_t, std::string> startEnd = {
        {1, "another startend"}, {2, "default startend"}, {3, "zeta startend"}};
    CHECK(named(pcf[9004]) == startEnd);
    // Records: each start/end range carries 9004 beside its domain type, and its end closes both.
    // Time 0 is the NCCL range at 1000.
    std::map<std::int64_t, std::map<std::uint32_t, std::int64_t>> at;
    for (const auto& e : prv.events)
        for (const auto& [t, v] : e.pairs)
            if (t == 9004 || (t >= 9600 && t < 9900)) at[e.time][t] = v;
    CHECK(at[200][9800] == 2);
    CHECK(at[200][9004] == 3);
    CHECK(at[800][9004] == 0);
    CHECK(at[400][9600] == 2);
    CHECK(at[400][9004] == 2);
    CHECK(at[100][9800] == 1);
    CHECK(at[100].count(9004) == 0); // push/pop: no 9004
    CHECK(at[550][9799] == 1);
    // NCCL keeps nsys2prv's 9500 for its ranges and 9501.. for payload fields.
    CHECK(pcf[9500][1] == "ncclAllReduce");
    auto labels = readPcfTypeLabels(dir / "t.pcf");
    CHECK(labels[9501].find("message size") != std::string::npos);
}

TEST_CASE("encoding: GPU memory changes as nsys2prv's 66500001/66500002 beside gpueff's 63000200") {
    auto dir = tempDir("encoding-gpu-memory");
    auto db = buildDatabase(fixture("gpu_metrics"), dir / "mem.sqlite", R"(
        CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start INTEGER NOT NULL, globalPid INTEGER NOT NULL,
            deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, address INTEGER NOT NULL, pc INTEGER NOT NULL,
            bytes INTEGER NOT NULL, memKind INTEGER NOT NULL, memoryOperationType INTEGER NOT NULL, name TEXT,
            correlationId INTEGER);
        INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES
            (1500, 281546145660928, 0, 1, 4096, 0, 1000, 1, 0, NULL, NULL),
            (2500, 281546145660928, 0, 1, 8192, 0, 500, 1, 0, NULL, NULL),
            (8000, 281546145660928, 0, 1, 4096, 0, 1000, 1, 1, NULL, NULL);
    )");
    translate({db}, dir / "t");
    auto prv = readPrv(dir / "t.prv");
    // Time 0 is the cudaLaunchKernel call at 800. Per change: its size under 66500001 (allocation) or
    // 66500002 (deallocation), ended at the same time; the running sum under 63000200.
    std::vector<std::tuple<std::int64_t, std::uint32_t, std::int64_t>> got;
    for (const auto& e : prv.events)
        for (const auto& [t, v] : e.pairs)
            if (t == 66500001 || t == 66500002 || t == 63000200) got.emplace_back(e.time, t, v);
    const std::vector<std::tuple<std::int64_t, std::uint32_t, std::int64_t>> expected = {
        {700, 63000200, 1000},  {700, 66500001, 1000},  {700, 66500001, 0},
        {1700, 63000200, 1500}, {1700, 66500001, 500},  {1700, 66500001, 0},
        {7200, 63000200, 500},  {7200, 66500002, 1000}, {7200, 66500002, 0}};
    CHECK(got == expected);
    auto labels = readPcfTypeLabels(dir / "t.pcf");
    CHECK(labels[66500001] == "GPU Memory Allocation");
    CHECK(labels[66500002] == "GPU Memory Deallocation");
}

TEST_CASE("encoding: OpenACC events under nsys2prv's kind, region and function types") {
    auto dir = tempDir("encoding-openacc");
    // gpu_metrics plus one data event (an upload of 4096 B in "a.c" line 12) and two launches on the thread
    // of the CUDA calls; ENUM_OPENACC_EVENT_KIND as real exports have it.
    auto db = buildDatabase(fixture("gpu_metrics"), dir / "acc.sqlite", R"(
        CREATE TABLE ENUM_OPENACC_EVENT_KIND (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
        INSERT INTO ENUM_OPENACC_EVENT_KIND VALUES (4, 'CUPTI_OPENACC_EVENT_KIND_ENQUEUE_LAUNCH', 'Enqueue launch'),
            (5, 'CUPTI_OPENACC_EVENT_KIND_ENQUEUE_UPLOAD', 'Enqueue upload');
        CREATE TABLE CUPTI_ACTIVITY_KIND_OPENACC_DATA (start INTEGER NOT NULL, end INTEGER NOT NULL,
            nameId INTEGER NOT NULL, globalTid INTEGER, eventKind INTEGER NOT NULL, DeviceType INTEGER NOT NULL,
            lineNo INTEGER NOT NULL, cuDeviceId INTEGER NOT NULL, cuContextId INTEGER NOT NULL,
            cuStreamId INTEGER NOT NULL, srcFile INTEGER, funcName INTEGER, bytes INTEGER, varName INTEGER);
        CREATE TABLE CUPTI_ACTIVITY_KIND_OPENACC_LAUNCH (start INTEGER NOT NULL, end INTEGER NOT NULL,
            nameId INTEGER NOT NULL, globalTid INTEGER, eventKind INTEGER NOT NULL, DeviceType INTEGER NOT NULL,
            lineNo INTEGER NOT NULL, cuDeviceId INTEGER NOT NULL, cuContextId INTEGER NOT NULL,
            cuStreamId INTEGER NOT NULL, srcFile INTEGER, funcName INTEGER, numGangs INTEGER,
            numWorkers INTEGER, vectorLength INTEGER, kernelName INTEGER);
        INSERT INTO StringIds VALUES (80, 'acc_enqueue_upload'), (81, 'a.c'), (82, 'main'), (83, 'acc_launch'),
            (84, 'saxpy');
        INSERT INTO CUPTI_ACTIVITY_KIND_OPENACC_DATA VALUES
            (1600, 1700, 80, 281546145665170, 5, 0, 12, 0, 1, 7, 81, 82, 4096, NULL);
        INSERT INTO CUPTI_ACTIVITY_KIND_OPENACC_LAUNCH VALUES
            (1800, 1900, 83, 281546145665170, 4, 0, 20, 0, 1, 7, 81, 84, 1, 1, 1, NULL),
            (5300, 5400, 83, 281546145665170, 4, 0, 20, 0, 1, 7, NULL, 82, 1, 1, 1, NULL);
    )");
    translate({db}, dir / "t");
    auto prv = readPrv(dir / "t.prv");
    auto pcf = readPcfValues(dir / "t.pcf");
    // Region names (one table for the three tables, byte order): "acc_enqueue_upload@a.c:12",
    // "acc_launch", "acc_launch@a.c:20"; functions: "main", "saxpy".
    const std::map<std::int64_t, std::string> regions = {
        {1, "acc_enqueue_upload@a.c:12"}, {2, "acc_launch"}, {3, "acc_launch@a.c:20"}};
    CHECK(named(pcf[66100001]) == regions);
    CHECK(named(pcf[66100002]) == regions);
    CHECK(named(pcf[66200002]) == std::map<std::int64_t, std::string>{{1, "main"}, {2, "saxpy"}});
    CHECK(pcf[66000001][6] == "Enqueue upload"); // eventKind + 1
    CHECK(pcf[66000002][5] == "Enqueue launch");
    // Time 0 is the CUDA call at 800.
    std::map<std::int64_t, std::map<std::uint32_t, std::int64_t>> at;
    for (const auto& e : prv.events)
        for (const auto& [t, v] : e.pairs)
            if (t >= 66000000 && t < 66400000) at[e.time][t] = v;
    CHECK(at[800] == std::map<std::uint32_t, std::int64_t>{
                         {66000001, 6}, {66100001, 1}, {66200001, 1}, {66300001, 4096}});
    CHECK(at[1000] == std::map<std::uint32_t, std::int64_t>{{66000002, 5}, {66100002, 3}, {66200002, 2}});
    CHECK(at[4500] == std::map<std::uint32_t, std::int64_t>{{66000002, 5}, {66100002, 2}, {66200002, 1}});
    CHECK(at[1100][66000002] == 0);
}

TEST_CASE("encoding: pthread calls keep Extrae's values, other pthread names follow them") {
    auto db = dataDir() / "nsys" / "power_iteration_t4.sqlite";
    auto dir = tempDir("encoding-pthread");
    // A copy of the export with one more pthread call, under a name Extrae has no value for (a copy of its
    // pthread_cond_signal call).
    auto copy = dir / "p.sqlite";
    fs::copy_file(db, copy);
    execute(copy, "INSERT INTO StringIds SELECT max(id) + 1, 'pthread_yield_synthetic' FROM StringIds; "
                  "CREATE TABLE extra AS SELECT o.* FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId "
                  "WHERE s.value = 'pthread_cond_signal' LIMIT 1; "
                  "UPDATE extra SET nameId = (SELECT max(id) FROM StringIds); "
                  "INSERT INTO OSRT_API SELECT * FROM extra; DROP TABLE extra");
    translate({copy}, dir / "t");
    auto pcf = readPcfValues(dir / "t.pcf");
    // pthread_cond_signal is Extrae's (and nsys2prv's) 10; the unknown name comes after the table's 13.
    CHECK(named(pcf[61000000]) ==
          std::map<std::int64_t, std::string>{{10, "pthread_cond_signal"}, {14, "pthread_yield_synthetic"}});
    // The OS runtime calls that are not pthread's: dense from 1 in byte order.
    std::set<std::string> osrt;
    for (const auto& n : sortedDistinct({copy}, "SELECT DISTINCT s.value FROM OSRT_API o JOIN StringIds s ON "
                                                "s.id = o.nameId"))
        if (n.rfind("pthread_", 0) != 0) osrt.insert(n);
    CHECK(named(pcf[66400000]) == numbered({osrt.begin(), osrt.end()}));
}
