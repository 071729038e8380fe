// Translation of every real export in data/nsys, checked against SQL on the export itself.
#include "tests/TestSupport.h"

#include <algorithm>
#include <doctest/doctest.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

using namespace testsupport;

namespace {

struct Translated {
    std::filesystem::path db, prefix;
    PrvTrace prv;
    nlohmann::json side;
    std::int64_t offset = 0;
};

Translated translateOne(const std::filesystem::path& db) {
    Translated t;
    t.db = db;
    t.prefix = tempDir("real-" + db.stem().string()) / db.stem();
    auto r = run(gpueffBinary().string() + " translate --quiet " + db.string() + " -o " + t.prefix.string());
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    t.prv = readPrv(t.prefix.string() + ".prv");
    std::ifstream side(t.prefix.string() + ".json");
    side >> t.side;
    t.offset = t.side["inputs"][0]["offset_ns"].get<std::int64_t>();
    return t;
}

bool hasTable(const std::filesystem::path& db, const std::string& t) {
    return queryInt(db, "SELECT count(*) FROM sqlite_master WHERE name='" + t + "'") > 0;
}
bool hasColumn(const std::filesystem::path& db, const std::string& t, const std::string& c) {
    return queryInt(db, "SELECT count(*) FROM pragma_table_info('" + t + "') WHERE name='" + c + "'") > 0;
}
std::int64_t count(const std::filesystem::path& db, const std::string& t, const std::string& where = "") {
    return hasTable(db, t)
               ? queryInt(db, "SELECT count(*) FROM " + t + (where.empty() ? "" : " WHERE " + where))
               : 0;
}

std::map<std::uint32_t, std::int64_t> beginsByType(const PrvTrace& prv) {
    std::map<std::uint32_t, std::int64_t> n;
    for (const auto& e : prv.events)
        if (!e.pairs.empty() && e.pairs[0].second != 0) ++n[e.pairs[0].first];
    return n;
}

// Kernel intervals read back from the trace: begin and end records of types 63000006/7 on each stream row.
std::multiset<std::tuple<std::int64_t, std::int64_t, std::int64_t>> kernelIntervals(const PrvTrace& prv) {
    std::multiset<std::tuple<std::int64_t, std::int64_t, std::int64_t>> out;
    std::map<std::pair<int, int>, std::vector<std::pair<std::int64_t, std::int64_t>>>
        open; // row -> (begin, corr)
    for (const auto& e : prv.events) {
        if (e.pairs.empty() || (e.pairs[0].first != 63000006 && e.pairs[0].first != 63000007)) continue;
        auto row = std::make_pair(e.task, e.thread);
        std::int64_t corr = 0;
        for (auto [t, v] : e.pairs)
            if (t == 9200) corr = v;
        if (e.pairs[0].second != 0) {
            open[row].push_back({e.time, corr});
        } else {
            REQUIRE_FALSE(open[row].empty());
            auto [begin, c] = open[row].front();
            open[row].erase(open[row].begin());
            out.insert({begin, e.time, c});
        }
    }
    for (const auto& [row, v] : open) CHECK(v.empty());
    return out;
}

} // namespace

TEST_CASE("every real export translates into a trace that agrees with SQL on the export") {
    auto exports = realExports();
    REQUIRE(exports.size() >= 7);
    for (const auto& db : exports) {
        CAPTURE(db);
        Translated t = translateOne(db);
        auto begins = beginsByType(t.prv);

        std::string nameCol =
            hasColumn(db, "CUPTI_ACTIVITY_KIND_KERNEL", "demangledName") ? "demangledName" : "shortName";
        auto kernels = count(db, "CUPTI_ACTIVITY_KIND_KERNEL");
        auto nccl =
            hasTable(db, "CUPTI_ACTIVITY_KIND_KERNEL")
                ? queryInt(db,
                           "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k." +
                               nameCol + " WHERE s.value LIKE '%nccl%'")
                : 0;
        CHECK(begins[63000006] == kernels - nccl);
        CHECK(begins[63000007] == nccl);
        CHECK(begins[63000001] ==
              count(db, "CUPTI_ACTIVITY_KIND_MEMCPY") + count(db, "CUPTI_ACTIVITY_KIND_MEMSET"));
        CHECK(begins[63000000] == count(db, "CUPTI_ACTIVITY_KIND_RUNTIME"));
        CHECK(begins[66400000] + begins[61000000] == count(db, "OSRT_API"));
        if (hasTable(db, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION") &&
            hasTable(db, "CUPTI_ACTIVITY_KIND_RUNTIME"))
            CHECK(begins[63000009] ==
                  queryInt(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION s JOIN "
                               "CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = s.correlationId AND "
                               "(r.globalTid >> 24) = (s.globalPid >> 24)"));
        std::int64_t memoryInUse = 0;
        for (const auto& e : t.prv.events)
            if (!e.pairs.empty() && e.pairs[0].first == 63000200) ++memoryInUse;
        std::int64_t memorySkipped = 0;
        const auto& skippedRows = t.side.at("skipped_rows");
        if (skippedRows.contains("CUDA_GPU_MEMORY_USAGE_EVENTS"))
            for (const auto& [why, n] : skippedRows.at("CUDA_GPU_MEMORY_USAGE_EVENTS").items())
                memorySkipped += n.get<std::int64_t>();
        CHECK(memoryInUse + memorySkipped == count(db, "CUDA_GPU_MEMORY_USAGE_EVENTS"));
        std::int64_t nvtx = 0;
        for (auto [type, n] : begins)
            if ((type >= 9500 && type < 10000000) || (type >= 50000001 && type <= 50000005)) nvtx += n;
        CHECK(nvtx == count(db, "NVTX_EVENTS", "eventType IN (34, 59, 60) AND globalTid IS NOT NULL"));

        // Every kernel's begin/end equal its SQL start/end shifted by the recorded offset.
        std::multiset<std::tuple<std::int64_t, std::int64_t, std::int64_t>> expected;
        if (hasTable(db, "CUPTI_ACTIVITY_KIND_KERNEL"))
            for (const auto& row :
                 query(db, "SELECT start, end, correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL"))
                expected.insert(
                    {std::stoll(row[0]) + t.offset, std::stoll(row[1]) + t.offset, std::stoll(row[2])});
        CHECK(kernelIntervals(t.prv) == expected);

        // Every launch line goes from the API call with the same (process, correlation id) to the kernel;
        // when an export records the launch twice (a driver row wrapping the runtime row), from the outer
        // call.
        const std::string outermost =
            " AND NOT EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME o WHERE o.correlationId = "
            "r.correlationId "
            "AND (o.globalTid >> 24) = (r.globalTid >> 24) AND o.rowid <> r.rowid AND o.start <= r.start AND "
            "o.end >= r.end)";
        std::multiset<std::pair<std::int64_t, std::int64_t>> launches, expectedLaunches;
        for (const auto& c : t.prv.comms)
            if (c.tag == 55001) launches.insert({c.logicalSend, c.logicalRecv});
        if (hasTable(db, "CUPTI_ACTIVITY_KIND_KERNEL") && hasTable(db, "CUPTI_ACTIVITY_KIND_RUNTIME"))
            for (const auto& row :
                 query(db, "SELECT r.start, k.start FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
                           "CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId AND "
                           "(r.globalTid >> 24) = (k.globalPid >> 24)" +
                               outermost))
                expectedLaunches.insert({std::stoll(row[0]) + t.offset, std::stoll(row[1]) + t.offset});
        CHECK(launches == expectedLaunches);
        std::int64_t memoryBytes = 0, expectedBytes = 0;
        for (const auto& c : t.prv.comms)
            if (c.tag == 55002) memoryBytes += c.size;
        for (const char* table : {"CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"})
            if (hasTable(db, table) && hasTable(db, "CUPTI_ACTIVITY_KIND_RUNTIME"))
                expectedBytes +=
                    queryInt(db, std::string("SELECT coalesce(sum(g.bytes), 0) FROM ") + table +
                                     " g JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = "
                                     "g.correlationId AND (r.globalTid >> 24) = (g.globalPid >> 24)" +
                                     outermost);
        CHECK(memoryBytes == expectedBytes);

        // Sorted by time; header consistent with the body; time 0 is the first record.
        CHECK(std::is_sorted(t.prv.lineTimes.begin(), t.prv.lineTimes.end()));
        REQUIRE_FALSE(t.prv.lineTimes.empty());
        CHECK(t.prv.lineTimes.front() == 0);
        std::int64_t last = 0;
        for (const auto& e : t.prv.events) last = std::max(last, e.time);
        for (const auto& c : t.prv.comms) last = std::max({last, c.logicalRecv, c.physicalRecv});
        CHECK(t.prv.endTime == last);
        int threads = 0;
        for (int n : t.prv.threadsPerTask) threads += n;
        for (const auto& e : t.prv.events) {
            REQUIRE(e.task >= 1);
            REQUIRE(e.task <= static_cast<int>(t.prv.threadsPerTask.size()));
            CHECK(e.thread >= 1);
            CHECK(e.thread <= t.prv.threadsPerTask[static_cast<std::size_t>(e.task - 1)]);
            CHECK(e.cpu >= 1);
            CHECK(e.cpu <= threads);
        }
        // The .row lists every thread of the header; the .pcf names every type and every named value used.
        CHECK(static_cast<int>(readRowLevel(t.prefix.string() + ".row", "THREAD").size()) == threads);
        CHECK(readRowLevel(t.prefix.string() + ".row", "TASK").size() == t.prv.threadsPerTask.size());
        auto pcf = readPcfValues(t.prefix.string() + ".pcf");
        std::set<std::uint32_t> named = {63000000, 63000001, 63000006, 63000007,
                                         63000009, 66400000, 61000000};
        for (const auto& e : t.prv.events)
            for (auto [type, value] : e.pairs) {
                REQUIRE_MESSAGE(pcf.count(type), "type " << type << " missing from the .pcf");
                bool nvtxName = type >= 9500 && type < 10000000 && type % 100 < 97;
                if ((named.count(type) || nvtxName) && value != 0)
                    CHECK_MESSAGE(pcf[type].count(value),
                                  "value " << value << " of type " << type << " unnamed");
            }
        CHECK(t.side["trace"]["records"].get<std::size_t>() == t.prv.events.size() + t.prv.comms.size());
    }
}

TEST_CASE("API names lose nsys' _vNNNN suffix but keep real _v2 names") {
    auto t = translateOne(dataDir() / "nsys" / "mfu_2gpu_h100_nccl.sqlite");
    auto pcf = readPcfValues(t.prefix.string() + ".pcf");
    REQUIRE_FALSE(pcf[63000000].empty());
    for (const auto& [v, name] : pcf[63000000]) {
        auto pos = name.rfind("_v");
        bool versioned = pos != std::string::npos && pos + 6 <= name.size() &&
                         std::all_of(name.begin() + static_cast<long>(pos) + 2, name.end(), ::isdigit);
        CHECK_MESSAGE(!versioned, name);
    }
    bool captureInfoV2 = false;
    for (const auto& [v, name] : pcf[63000000]) captureInfoV2 |= name == "cudaStreamGetCaptureInfo_v2";
    CHECK(captureInfoV2);
    CHECK(t.side["inputs"][0]["nsys_version"] == "2026.2.1.210");
}
