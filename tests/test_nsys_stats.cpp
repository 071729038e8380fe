// report.json's nsys_stats against `nsys stats` itself and against SQL:
// - on fuser_matmul_h100, the real `nsys stats` output printed for that export
//   (data/nsys/fuser_matmul_h100.nsys-stats.txt): nvtx_sum, cuda_api_sum, cuda_gpu_mem_time_sum and
//   cuda_gpu_mem_size_sum, to the printed precision;
// - on every real export and on a synthetic one with start/end ranges, a domain and a range without end,
//   nsys' definitions recomputed here from NVTX_EVENTS, CUPTI_ACTIVITY_KIND_RUNTIME + StringIds and
//   CUPTI_ACTIVITY_KIND_MEMCPY/MEMSET (the SQL of nsys' report scripts: every push/pop and start/end range,
//   grouped by "domain:text" and style, a range without end counted to the last NVTX timestamp; every
//   runtime/driver call by name; "[CUDA memcpy <ENUM_CUDA_MEMCPY_OPER label>]" and "[CUDA memset]"; sample
//   standard deviation). Nothing here calls gpueff's engine or metrics code.
#include "tests/AnalyzeOracle.h"
#include "tests/NsysStatsText.h"
#include "tests/TestSupport.h"

#include <algorithm>
#include <cmath>
#include <doctest/doctest.h>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

using namespace testsupport;
using nlohmann::json;

namespace {

using namespace nsysstatstext;

constexpr std::int64_t kMissing = -1; // absent keys compare unequal instead of asserting
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---- The text nsys stats printed ----

// Every printed row has a row of ours with its name and numbers, each of ours used once, in the printed
// order of totals (rows of equal total may come in either order). `total` reads a row's total from either.
template <typename Match>
void matchRows(const std::vector<PrintedRow>& printed, const json& ours, const char* totalKey,
               std::size_t totalColumn, double totalScale, Match matches) {
    REQUIRE(ours.is_array());
    REQUIRE(ours.size() == printed.size());
    std::vector<bool> used(ours.size(), false);
    for (std::size_t i = 0; i < printed.size(); ++i) {
        const auto& p = printed[i];
        CAPTURE(i);
        CAPTURE(p.name);
        CHECK_MESSAGE(
            close(ours[i].value(totalKey, kNaN) * totalScale, p.at(totalColumn), totalScale < 1 ? 0.0005 : 0),
            "row order differs from nsys: ours " << ours[i].dump());
        bool found = false;
        for (std::size_t j = 0; j < ours.size() && !found; ++j)
            if (!used[j] && matches(p, ours[j])) used[j] = found = true;
        CHECK_MESSAGE(found, "no row of report.json with this name and these numbers; ours at "
                                 << i << ": " << ours[i].dump());
    }
}

// gpueff removes nsys' version suffixes of 4 or more digits; nsys stats those of exactly 4 (its SQL tests
// substr(name, -6, 2) = '_v'): "cudaStreamIsCapturing_v10000" is printed, "cudaStreamIsCapturing" ours.
std::string withoutLongSuffix(const std::string& printed) {
    static const std::regex suffix("_v[0-9]{5,}$");
    return std::regex_replace(printed, suffix, "");
}

const json& fuserReport() {
    static const json report =
        analyzeoracle::analyze(dataDir() / "nsys" / "fuser_matmul_h100.sqlite", "", "-nsys-stats");
    return report;
}

} // namespace

namespace {

// The four tables of `report` against the printed ones. `exactApiNames`: the trace kept nsys stats' API names
// (nsys2prv's); gpueff's lack nsys' 5-digit version suffixes.
void checkAgainstPrinted(const json& report, bool exactApiNames) {
    const auto text = dataDir() / "nsys" / "fuser_matmul_h100.nsys-stats.txt";
    REQUIRE_MESSAGE(report.contains("nsys_stats"), "report.json has no nsys_stats");
    const json& stats = report["nsys_stats"];
    CHECK_FALSE(stats.contains("left_out"));

    SUBCASE("nvtx_sum") {
        auto printed = readSection(text, "nvtx_sum", 8, true);
        REQUIRE(printed.size() == 77); // the parser read the whole table
        matchRows(printed, stats["nvtx_sum"], "total_ns", 1, 1, [](const PrintedRow& p, const json& r) {
            // nsys prints "domain:text", the default domain's name being empty.
            auto range = r.value("domain", std::string("?")) + ":" + r.value("name", std::string());
            return sameName(p, range) && r.value("style", std::string()) == p.style && sameDurations(p, r);
        });
    }
    SUBCASE("cuda_api_sum") {
        auto printed = readSection(text, "cuda_api_sum", 8, false);
        REQUIRE(printed.size() == 25);
        matchRows(printed, stats["cuda_api_sum"], "total_ns", 1, 1, [&](const PrintedRow& p, const json& r) {
            auto name = r.value("name", std::string());
            return (sameName(p, name) || (!exactApiNames && withoutLongSuffix(p.name) == name)) &&
                   sameDurations(p, r);
        });
        // The suffixes that differ are the 5-digit ones only.
        std::size_t renamed = 0;
        for (const auto& p : printed) renamed += withoutLongSuffix(p.name) != p.name;
        CHECK(renamed == 5);
    }
    SUBCASE("cuda_gpu_mem_time_sum") {
        auto printed = readSection(text, "cuda_gpu_mem_time_sum", 8, false);
        REQUIRE(printed.size() == 2);
        matchRows(printed, stats["gpu_mem_time_sum"], "total_ns", 1, 1,
                  [](const PrintedRow& p, const json& r) {
                      return sameName(p, r.value("name", std::string())) && sameDurations(p, r);
                  });
    }
    SUBCASE("cuda_gpu_mem_size_sum") {
        // Total, Count, Avg, Med, Min, Max, StdDev in MB = 10^6 bytes, printed to three decimals.
        auto printed = readSection(text, "cuda_gpu_mem_size_sum", 7, false);
        REQUIRE(printed.size() == 2);
        matchRows(printed, stats["gpu_mem_size_sum"], "total_bytes", 0, 1e-6,
                  [](const PrintedRow& p, const json& r) {
                      auto mb = [&](const char* key, std::size_t column) {
                          return close(r.value(key, kNaN) / 1e6, p.at(column), 0.0005);
                      };
                      return sameName(p, r.value("name", std::string())) &&
                             r.value("instances", kMissing) == p.integer(1) && mb("total_bytes", 0) &&
                             mb("avg_bytes", 2) && mb("med_bytes", 3) && mb("min_bytes", 4) &&
                             mb("max_bytes", 5) && mb("stddev_bytes", 6);
                  });
        // Below the printed precision: 1 byte copied in 2880 ns, 4 bytes set in 1088 ns.
        for (const auto& r : stats["gpu_mem_size_sum"]) {
            auto name = r.value("name", std::string());
            CAPTURE(name);
            if (name == "[CUDA memcpy Device-to-Host]") {
                CHECK(r.value("total_bytes", kMissing) == 1);
                CHECK(r.value("bandwidth_gbps", kNaN) == doctest::Approx(1.0 / 2880));
            } else {
                CHECK(name == "[CUDA memset]");
                CHECK(r.value("total_bytes", kMissing) == 4);
                CHECK(r.value("bandwidth_gbps", kNaN) == doctest::Approx(4.0 / 1088));
            }
        }
    }
}

} // namespace

TEST_CASE("nsys_stats equals the real nsys stats output of fuser_matmul_h100") {
    checkAgainstPrinted(fuserReport(), false);
}

TEST_CASE("nsys_stats of nsys2prv's trace of fuser_matmul_h100 equals the same output, API names included") {
    // nsys2prv names API calls as nsys stats does and labels the default NVTX domain "Default".
    auto dir = tempDir("nsys-stats-nsys2prv");
    auto prv = dataDir() / "paraver" / "fidelity" / "traces" / "fuser_matmul_h100.nsys2prv.prv.gz";
    auto r = run(gpueffBinary().string() + " analyze " + prv.string() + " -o " + dir.string() + " -q");
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    auto report = json::parse(readText(dir / "report.json"));
    checkAgainstPrinted(report, true);
    bool noted = false;
    for (const auto& n : report["notes"])
        noted = noted || n.get<std::string>().find("nsys2prv does not mark") != std::string::npos;
    CHECK(noted);
}

namespace {

// ---- nsys' definitions in SQL ----

using Durations = std::map<std::string, std::vector<std::int64_t>>; // row key -> values

std::string nvtxKey(const std::string& domain, const std::string& name, const std::string& style) {
    return domain + "\x1f" + name + "\x1f" + style;
}
std::string nvtxKeyOf(const json& r) {
    return nvtxKey(r.value("domain", std::string("?")), r.value("name", std::string()),
                   r.value("style", std::string()));
}

// The domain names gpueff gives: those of the domain-create rows (eventType 75), an unnamed domain whose
// first range is nccl* being NCCL's and any other "NVTX domain <id>" (docs/events.md); the default domain
// (0) has none. Ranges of the "MPI" domain are MPI calls in the trace, not NVTX ranges.
std::map<std::int64_t, std::string> domainNames(const std::filesystem::path& db, const std::string& text) {
    std::map<std::int64_t, std::string> names;
    for (const auto& row : query(db, "SELECT n.domainId, " + text +
                                         " FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId "
                                         "WHERE n.eventType = 75"))
        names[std::stoll(row[0])] = row[1];
    // The first range of each domain (SQLite takes a bare column from the row min() picks).
    for (const auto& row :
         query(db, "SELECT n.domainId, " + text +
                       ", min(n.rowid) FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId "
                       "WHERE n.eventType IN (59, 60) AND n.domainId IS NOT NULL AND "
                       "n.domainId != 0 GROUP BY n.domainId")) {
        auto id = std::stoll(row[0]);
        if (!names.count(id))
            names[id] = row[1].rfind("nccl", 0) == 0 ? "NCCL" : "NVTX domain " + std::to_string(id);
    }
    return names;
}

Durations nvtxOracle(const std::filesystem::path& db) {
    Durations out;
    if (!analyzeoracle::hasTable(db, "NVTX_EVENTS")) return out;
    bool textIds = analyzeoracle::hasColumn(db, "NVTX_EVENTS", "textId");
    bool domains = analyzeoracle::hasColumn(db, "NVTX_EVENTS", "domainId");
    std::string text = textIds ? "coalesce(n.text, s.value, '')" : "coalesce(n.text, '')";
    std::string join = textIds ? " LEFT JOIN StringIds s ON s.id = n.textId" : "";
    auto names = domains ? domainNames(db, text) : std::map<std::int64_t, std::string>{};
    // nsys: a range without end lasts to the latest start or end of any NVTX row.
    auto last = queryInt(db, "SELECT max(max(start), coalesce(max(end), 0)) FROM NVTX_EVENTS");
    for (const auto& row :
         query(db, "SELECT n.eventType, " + std::string(domains ? "coalesce(n.domainId, 0)" : "0") + ", " +
                       text + ", n.start, n.end FROM NVTX_EVENTS n" + join +
                       " WHERE n.eventType IN (59, 60) AND n.globalTid IS NOT NULL")) {
        auto domainId = std::stoll(row[1]);
        std::string domain = domainId == 0 ? "" : names[domainId];
        if (domain == "MPI") continue;
        std::string name = row[2].empty() ? "unnamed range" : row[2];
        auto start = std::stoll(row[3]);
        auto end = row[4].empty() ? last : std::stoll(row[4]);
        out[nvtxKey(domain, name, row[0] == "60" ? "StartEnd" : "PushPop")].push_back(end - start);
    }
    return out;
}

Durations apiOracle(const std::filesystem::path& db) {
    Durations out;
    if (!analyzeoracle::hasTable(db, "CUPTI_ACTIVITY_KIND_RUNTIME")) return out;
    static const std::regex suffix("_v[0-9]{4,}$"); // the trace's names (docs/events.md, 63000000)
    for (const auto& row :
         query(db, "SELECT coalesce(s.value, ''), r.end - r.start FROM "
                   "CUPTI_ACTIVITY_KIND_RUNTIME r LEFT JOIN StringIds s ON s.id = r.nameId"))
        out[row[0].empty() ? "unnamed" : std::regex_replace(row[0], suffix, "")].push_back(
            std::stoll(row[1]));
    return out;
}

// Operation -> durations and bytes.
std::pair<Durations, Durations> memoryOracle(const std::filesystem::path& db) {
    Durations time, bytes;
    auto add = [&](const std::string& sql) {
        for (const auto& row : query(db, sql)) {
            time[row[0]].push_back(std::stoll(row[1]));
            bytes[row[0]].push_back(std::stoll(row[2]));
        }
    };
    // Exports of 2022 have no ENUM tables (nsys stats then refuses the memory reports): the labels of
    // ENUM_CUDA_MEMCPY_OPER in the exports that have it (fuser_matmul_h100), as CUPTI numbers them.
    std::string kinds = "ENUM_CUDA_MEMCPY_OPER";
    if (!analyzeoracle::hasTable(db, kinds))
        kinds =
            "(SELECT 0 AS id, 'Unknown' AS label UNION ALL SELECT 1, 'Host-to-Device' UNION ALL SELECT 2, "
            "'Device-to-Host' UNION ALL SELECT 8, 'Device-to-Device' UNION ALL SELECT 10, 'Peer-to-Peer')";
    if (analyzeoracle::hasTable(db, "CUPTI_ACTIVITY_KIND_MEMCPY"))
        add("SELECT '[CUDA memcpy ' || e.label || ']', m.end - m.start, m.bytes FROM "
            "CUPTI_ACTIVITY_KIND_MEMCPY m JOIN " +
            kinds + " e ON e.id = m.copyKind");
    if (analyzeoracle::hasTable(db, "CUPTI_ACTIVITY_KIND_MEMSET"))
        add("SELECT '[CUDA memset]', end - start, bytes FROM CUPTI_ACTIVITY_KIND_MEMSET");
    return {time, bytes};
}

using analyzeoracle::stats;

bool near(double ours, double expected) {
    return std::fabs(ours - expected) <= 1e-9 * std::max(1.0, std::fabs(expected));
}

// The rows of one duration table against the oracle: every key listed (at most `cap`, those with the most
// time; the rest counted in left_out), each with the oracle's numbers, sorted by total time.
void checkDurations(const json& rows, const json* leftOut, const Durations& expected, std::size_t cap,
                    const std::function<std::string(const json&)>& keyOf, const char* what) {
    CAPTURE(what);
    REQUIRE(rows.is_array());
    std::int64_t grand = 0, instances = 0;
    std::vector<std::int64_t> totals;
    for (const auto& [key, v] : expected) {
        auto s = stats(v);
        grand += s.total;
        instances += s.instances;
        totals.push_back(s.total);
    }
    CHECK(rows.size() == std::min(cap, expected.size()));
    std::set<std::string> seen;
    std::int64_t listedTotal = 0, listedInstances = 0, smallestListed = INT64_MAX;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        auto key = keyOf(r);
        CAPTURE(key);
        CHECK_MESSAGE(seen.insert(key).second, "row listed twice");
        if (i > 0)
            CHECK_MESSAGE(rows[i - 1].value("total_ns", kMissing) >= r.value("total_ns", kMissing),
                          "rows not sorted by total time");
        auto it = expected.find(key);
        if (it == expected.end()) {
            FAIL_CHECK("no such row in the export");
            continue;
        }
        auto s = stats(it->second);
        CHECK(r.value("total_ns", kMissing) == s.total);
        CHECK(r.value("instances", kMissing) == s.instances);
        CHECK(r.value("min_ns", kMissing) == s.min);
        CHECK(r.value("max_ns", kMissing) == s.max);
        CHECK_MESSAGE(near(r.value("avg_ns", kNaN), s.avg), r.value("avg_ns", kNaN) << " vs " << s.avg);
        CHECK_MESSAGE(near(r.value("med_ns", kNaN), s.med), r.value("med_ns", kNaN) << " vs " << s.med);
        CHECK_MESSAGE(std::fabs(r.value("stddev_ns", kNaN) - s.stddev) <= 1e-9 * std::max(1.0, s.avg),
                      r.value("stddev_ns", kNaN) << " vs " << s.stddev);
        CHECK(near(r.value("time_percent", kNaN),
                   100.0 * static_cast<double>(s.total) / static_cast<double>(grand)));
        listedTotal += s.total;
        listedInstances += s.instances;
        smallestListed = std::min(smallestListed, s.total);
    }
    if (expected.size() <= cap) {
        CHECK_MESSAGE(!leftOut, "left_out without rows left out");
        return;
    }
    // The rows listed are those with the most time: none left out has more than the smallest listed.
    std::sort(totals.rbegin(), totals.rend());
    CHECK(totals[cap] <= smallestListed);
    REQUIRE_MESSAGE(leftOut, "rows left out, and no left_out");
    CHECK(leftOut->value("rows", kMissing) == static_cast<std::int64_t>(expected.size() - cap));
    CHECK(leftOut->value("instances", kMissing) == instances - listedInstances);
    CHECK(leftOut->value("total_ns", kMissing) == grand - listedTotal);
}

void checkSizes(const json& rows, const Durations& bytes, const Durations& time) {
    REQUIRE(rows.is_array());
    CHECK(rows.size() == bytes.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        auto name = r.value("name", std::string());
        CAPTURE(name);
        if (i > 0)
            CHECK_MESSAGE(rows[i - 1].value("total_bytes", kMissing) >= r.value("total_bytes", kMissing),
                          "rows not sorted by total bytes");
        auto it = bytes.find(name);
        if (it == bytes.end()) {
            FAIL_CHECK("no such operation in the export");
            continue;
        }
        auto s = stats(it->second), t = stats(time.at(name));
        CHECK(r.value("instances", kMissing) == s.instances);
        CHECK(r.value("total_bytes", kMissing) == s.total);
        CHECK(r.value("min_bytes", kMissing) == s.min);
        CHECK(r.value("max_bytes", kMissing) == s.max);
        CHECK(near(r.value("avg_bytes", kNaN), s.avg));
        CHECK(near(r.value("med_bytes", kNaN), s.med));
        CHECK(std::fabs(r.value("stddev_bytes", kNaN) - s.stddev) <= 1e-9 * std::max(1.0, s.avg));
        CHECK(near(r.value("bandwidth_gbps", kNaN),
                   static_cast<double>(s.total) / static_cast<double>(t.total)));
    }
}

// Every export's rows under one key (the reports of one trace: nsys stats of their union).
Durations merged(const std::vector<Durations>& parts) {
    Durations out;
    for (const auto& part : parts)
        for (const auto& [key, values] : part) out[key].insert(out[key].end(), values.begin(), values.end());
    return out;
}

void checkExports(const json& report, const std::vector<std::filesystem::path>& dbs) {
    REQUIRE_MESSAGE(report.contains("nsys_stats"), "report.json has no nsys_stats");
    const json& stats = report["nsys_stats"];
    const json* leftOut = stats.contains("left_out") ? &stats["left_out"] : nullptr;
    auto left = [&](const char* table) {
        return leftOut && leftOut->contains(table) ? &(*leftOut)[table] : nullptr;
    };
    const std::size_t cap = 1000; // kMaxSummaryRows (metrics/NsysStats.h)
    std::vector<Durations> nvtx, api, times, sizes;
    for (const auto& db : dbs) {
        nvtx.push_back(nvtxOracle(db));
        api.push_back(apiOracle(db));
        auto [t, b] = memoryOracle(db);
        times.push_back(std::move(t));
        sizes.push_back(std::move(b));
    }
    checkDurations(stats["nvtx_sum"], left("nvtx_sum"), merged(nvtx), cap, nvtxKeyOf, "nvtx_sum");
    checkDurations(
        stats["cuda_api_sum"], left("cuda_api_sum"), merged(api), cap,
        [](const json& r) { return r.value("name", std::string()); }, "cuda_api_sum");
    auto time = merged(times), bytes = merged(sizes);
    checkDurations(
        stats["gpu_mem_time_sum"], nullptr, time, cap,
        [](const json& r) { return r.value("name", std::string()); }, "gpu_mem_time_sum");
    checkSizes(stats["gpu_mem_size_sum"], bytes, time);
}

void checkExport(const json& report, const std::filesystem::path& db) {
    checkExports(report, {db});
}

} // namespace

TEST_CASE("nsys_stats of every real export equals nsys' definitions computed in SQL") {
    auto exports = realExports();
    REQUIRE(exports.size() >= 7);
    for (const auto& db : exports) {
        SUBCASE(db.filename().string().c_str()) {
            auto report = db.filename() == "fuser_matmul_h100.sqlite"
                              ? fuserReport()
                              : analyzeoracle::analyze(db, "", "-nsys-stats");
            checkExport(report, db);
        }
    }
}

namespace {

const json* rowOf(const json& rows, const std::string& key,
                  const std::function<std::string(const json&)>& keyOf) {
    for (const auto& r : rows)
        if (keyOf(r) == key) return &r;
    return nullptr;
}

std::string nameOf(const json& r) {
    return r.value("name", std::string());
}

bool hasNote(const json& report, const std::string& part) {
    for (const auto& n : report["notes"])
        if (n.get<std::string>().find(part) != std::string::npos) return true;
    return false;
}

} // namespace

TEST_CASE("nsys_stats of two exports analysed as one trace equals nsys' definitions over both, in parts and "
          "on workers") {
    // Two runs of one workload: names shared between their tasks merge into one row; 34 k groups, 1,000
    // listed. The reduction merges the tasks' spilled groups in key order, whole or under a tiny limit.
    auto d = dataDir() / "nsys";
    std::vector<std::filesystem::path> dbs{d / "mfu_2gpu_h100_nccl.sqlite",
                                           d / "mfu_2gpu_h100_nccl_after.sqlite"};
    for (auto [args, tag] :
         {std::pair{"--no-trace -j 1", "whole"}, {"--no-trace -j 3 --memory-limit 1K", "parts"}}) {
        CAPTURE(args);
        auto report = analyzeoracle::analyzeInto(dbs, tempDir(std::string("nsys-stats-two-") + tag), args);
        checkExports(report, dbs);
    }
}

TEST_CASE("nsys_stats: start/end ranges, a range without end, domains and API names (synthetic export)") {
    auto dir = tempDir("nsys-stats-synthetic");
    auto script = sourceDir() / "data" / "synthetic" / "nsys_stats.sql";
    auto db = buildDatabase(script, dir / "nsys_stats.sqlite");
    auto report = analyzeoracle::analyze(db, "", "-nsys-stats-synthetic");
    checkExport(report, db);
    const json& s = report["nsys_stats"];

    // By hand (data/synthetic/nsys_stats.sql).
    struct Expected {
        std::string key;
        std::int64_t total, instances;
    };
    for (const auto& e : {Expected{nvtxKey("", "step", "PushPop"), 17000, 2},
                          Expected{nvtxKey("", "step", "StartEnd"), 1000, 1},
                          Expected{nvtxKey("", "inner", "PushPop"), 2500, 2},
                          Expected{nvtxKey("MyLib", "load", "PushPop"), 900, 2},
                          Expected{nvtxKey("MyLib", "load", "StartEnd"), 500, 1},
                          Expected{nvtxKey("", "unnamed range", "PushPop"), 100, 1},
                          Expected{nvtxKey("", "async", "StartEnd"), 8500, 1},
                          Expected{nvtxKey("", "open", "PushPop"), 6000, 1}}) {
        CAPTURE(e.key);
        const json* r = rowOf(s["nvtx_sum"], e.key, nvtxKeyOf);
        REQUIRE(r);
        CHECK(r->value("total_ns", kMissing) == e.total);
        CHECK(r->value("instances", kMissing) == e.instances);
    }
    CHECK(s["nvtx_sum"].size() == 8);
    for (const auto& e :
         {Expected{"cudaLaunchKernel", 600, 2}, Expected{"cuLaunchKernel", 200, 1},
          Expected{"cudaMemcpyAsync", 1000, 3}, Expected{"cudaMemsetAsync", 100, 1},
          Expected{"cudaStreamIsCapturing", 110, 2}, Expected{"cuGetProcAddress_v2", 20, 1}}) {
        CAPTURE(e.key);
        const json* r = rowOf(s["cuda_api_sum"], e.key, nameOf);
        REQUIRE(r);
        CHECK(r->value("total_ns", kMissing) == e.total);
        CHECK(r->value("instances", kMissing) == e.instances);
    }
    struct Memory {
        std::string name;
        std::int64_t ns, bytes;
        double gbps;
    };
    for (const auto& e :
         {Memory{"[CUDA memcpy Host-to-Device]", 1000, 1000000, 1000.0},
          Memory{"[CUDA memcpy Device-to-Host]", 500, 2000000, 4000.0},
          Memory{"[CUDA memcpy Unknown]", 200, 100, 0.5}, Memory{"[CUDA memset]", 100, 4096, 40.96}}) {
        CAPTURE(e.name);
        const json* t = rowOf(s["gpu_mem_time_sum"], e.name, nameOf);
        const json* b = rowOf(s["gpu_mem_size_sum"], e.name, nameOf);
        REQUIRE(t);
        REQUIRE(b);
        CHECK(t->value("total_ns", kMissing) == e.ns);
        CHECK(b->value("total_bytes", kMissing) == e.bytes);
        CHECK(b->value("bandwidth_gbps", kNaN) == doctest::Approx(e.gbps));
    }
    CHECK(hasNote(report, "1 NVTX range never end"));
    CHECK_FALSE(hasNote(report, "start/end range of the same domain"));
    CHECK(hasNote(report, "CUDA API names are the trace's"));

    // The Markdown section: four tables of at most 6 columns, each with its spread folded under it, the style
    // marked.
    auto md = plainSpaces(
        readText(dir.parent_path() / ("analyze-oracle-nsys_stats-nsys-stats-synthetic") / "report.md"));
    auto at = md.find("## nsys stats summaries");
    REQUIRE(at != std::string::npos);
    auto section = md.substr(at, md.find("\n## ", at + 1) - at);
    CHECK(section.find("| Range | Time % | Total | Instances | Avg | Med |\n") != std::string::npos);
    CHECK(
        section.find("<details><summary>Minimum, maximum and standard deviation</summary>\n\n| Range | Min | "
                     "Max | StdDev |\n") != std::string::npos);
    CHECK(section.find("| Operation | Total | Count | Avg | Med | Bandwidth |\n") != std::string::npos);
    CHECK(section.find("| Operation | Min | Max | StdDev |\n") != std::string::npos);
    CHECK(section.find("MyLib:load *(start/end)*") != std::string::npos);
    CHECK(section.find("| \\[CUDA memcpy Device-to-Host\\] | 2.000 MB | 1 |") != std::string::npos);
}
