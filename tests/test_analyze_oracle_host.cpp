// The parts of report.json that test_analyze_oracle.cpp leaves out: launch queues, the host-wait /
// kernel-wait split of GPU gaps, host offload, and windows chosen by --region or --begin/--end. Each is
// recomputed from the SQLite rows with SQL and the naive interval code of tests/AnalyzeOracle.h, never with
// gpueff's engine or metrics, on every real export that has the tables. Definitions:
// ../shared/docs/MODEL.md, docs/report.md, docs/events.md (launch messages, tag 55001/55002).
#include "tests/AnalyzeOracle.h"
#include "tests/TestSupport.h"

#include <algorithm>
#include <cmath>
#include <doctest/doctest.h>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

using namespace analyzeoracle;
using nlohmann::json;
using testsupport::query;
using testsupport::queryInt;

namespace {

constexpr std::int64_t kMissing = -1;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const std::string kRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME";
const std::string kSync = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
const std::string kWithCall = "EXISTS (SELECT 1 FROM " + kRuntime +
                              " r WHERE r.correlationId = s.correlationId AND r.globalTid >= s.globalPid AND "
                              "r.globalTid < s.globalPid + 16777216)";

const json& at(const json& o, const std::string& key) {
    static const json none;
    return o.is_object() && o.contains(key) ? o[key] : none;
}

bool near(double a, double b, double rel) {
    return std::fabs(a - b) <= rel * std::max(std::fabs(a), std::fabs(b)) + 1e-300;
}

// The same export is analyzed by several test cases: one run per (export, arguments) keeps the suite fast.
const json& analyzed(const std::filesystem::path& db, const std::string& args = "") {
    static std::map<std::string, json> cache;
    auto key = db.string() + "\n" + args;
    if (auto it = cache.find(key); it != cache.end()) return it->second;
    auto report = analyze(db, args, "-host-" + std::to_string(cache.size()));
    return cache.emplace(key, std::move(report)).first->second;
}

// A report and its window in export time [lo, hi).
struct Run {
    const json& report;
    std::string host;
    std::int64_t offset = 0, lo = 0, hi = 0;
    std::string idOf(const DeviceKey& k) const {
        return host + ":" + std::to_string(k.first) + ":" + std::to_string(k.second);
    }
};
Run runOf(const std::filesystem::path& db, const std::string& args = "") {
    const json& r = analyzed(db, args);
    REQUIRE(r["inputs"].size() == 1);
    REQUIRE(r["inputs"][0]["host"].is_string());
    Run run{r, r["inputs"][0]["host"].get<std::string>(), r["inputs"][0].value("offset_ns", kMissing)};
    run.lo = r["window"].value("begin_ns", kMissing) - run.offset;
    run.hi = r["window"].value("end_ns", kMissing) - run.offset;
    return run;
}

// One GPU activity and the host call that launched it.
struct Launch {
    std::int64_t callStart, callEnd, gpuStart;
    bool kernel; // kernel or graph launch (tag 55001), else memcpy/memset (55002)
};

// Activities joined to their launch call on (process, correlation id). The oldest exports log every runtime
// call twice under one correlation id (an unversioned row enclosing its `_v7000` twin): one activity is
// still one launch, made by the enclosing call, hence min(start)/max(end) per activity.
std::map<DeviceKey, std::vector<Launch>> loadLaunches(const std::filesystem::path& db) {
    std::map<DeviceKey, std::vector<Launch>> out;
    if (!hasTable(db, kRuntime)) return out;
    for (auto [table, kernel] :
         {std::pair{"CUPTI_ACTIVITY_KIND_KERNEL", true}, std::pair{"CUPTI_ACTIVITY_KIND_GRAPH_TRACE", true},
          std::pair{"CUPTI_ACTIVITY_KIND_MEMCPY", false}, std::pair{"CUPTI_ACTIVITY_KIND_MEMSET", false}}) {
        if (!hasTable(db, table)) continue;
        for (const auto& r : query(
                 db, std::string("SELECT (g.globalPid >> 24) & 16777215, g.deviceId, g.start, min(r.start), "
                                 "max(r.end) FROM ") +
                         table + " g JOIN " + kRuntime +
                         " r ON r.correlationId = g.correlationId AND r.globalTid >= g.globalPid AND "
                         "r.globalTid < g.globalPid + 16777216 GROUP BY g.rowid"))
            out[{std::stoll(r[0]), std::stoll(r[1])}].push_back(
                {std::stoll(r[3]), std::stoll(r[4]), std::stoll(r[2]), kernel});
    }
    return out;
}

struct Export {
    std::map<DeviceKey, Device> devices;
    std::map<DeviceKey, std::vector<Launch>> launches;
};
const Export& loaded(const std::filesystem::path& db) {
    static std::map<std::string, Export> cache;
    auto it = cache.find(db.string());
    if (it == cache.end()) it = cache.emplace(db.string(), Export{loadDevices(db), loadLaunches(db)}).first;
    return it->second;
}

std::int64_t sumOf(const json& histogram) {
    std::int64_t s = 0;
    if (histogram.is_object())
        for (const auto& [k, v] : histogram.items()) s += v.get<std::int64_t>();
    return s;
}

// kernels_queued: a kernel or graph launch is in the queue from min(call end, GPU start) (the physical send
// of its 55001 message) to its GPU start.
void checkQueued(const Run& run, const Export& ex) {
    const std::int64_t T = run.hi - run.lo;
    for (const auto& [key, d] : ex.devices) {
        auto id = run.idOf(key);
        CAPTURE(id);
        const json* entry = findBy(run.report["kernels_queued"], "device", id);
        if (!entry) {
            FAIL_CHECK("no kernels_queued entry");
            continue;
        }
        Intervals queued;
        if (auto it = ex.launches.find(key); it != ex.launches.end())
            for (const auto& l : it->second)
                if (l.kernel) queued.push_back({std::min(l.callEnd, l.gpuStart), l.gpuStart});
        auto hist = timeByCount(queued, run.lo, run.hi);
        checkHistogram(at(*entry, "time_ns_by_depth"), hist, "kernels_queued");
        CHECK(sumOf(at(*entry, "time_ns_by_depth")) == T);
        std::int64_t maximum = 0;
        double weighted = 0;
        for (const auto& [n, t] : hist) {
            weighted += static_cast<double>(n) * static_cast<double>(t);
            if (t > 0) maximum = std::max(maximum, n);
        }
        CHECK(entry->value("maximum", kMissing) == maximum);
        if (T > 0)
            CHECK_MESSAGE(near(entry->value("mean", kNaN), weighted / static_cast<double>(T), 1e-9),
                          entry->value("mean", kNaN) << " vs " << weighted / static_cast<double>(T));
    }
}

// gaps: a gap starting at g0 waits on the GPU (kernel-wait) when some activity of the device was launched
// and had not started at g0 (its call start <= g0 < its GPU start: the logical send of its message);
// otherwise the host had not launched the next work yet (host-wait).
void checkGaps(const Run& run, const Export& ex) {
    for (const auto& [key, d] : ex.devices) {
        auto id = run.idOf(key);
        CAPTURE(id);
        const json* entry = findBy(run.report["gaps"], "device", id);
        if (!entry) {
            FAIL_CHECK("no gaps entry");
            continue;
        }
        static const std::vector<Launch> none;
        auto it = ex.launches.find(key);
        const auto& launches = it == ex.launches.end() ? none : it->second;
        auto busy = merged(concat({&d.compute, &d.nccl, &d.memory}), run.lo, run.hi);
        std::int64_t hostCount = 0, hostNs = 0, kernelCount = 0, kernelNs = 0;
        for (std::size_t i = 1; i < busy.size(); ++i) {
            auto g0 = busy[i - 1].second, length = busy[i].first - g0;
            bool pending = std::any_of(launches.begin(), launches.end(),
                                       [&](const Launch& l) { return l.callStart <= g0 && g0 < l.gpuStart; });
            (pending ? kernelCount : hostCount) += 1;
            (pending ? kernelNs : hostNs) += length;
        }
        CHECK(entry->value("host_wait_count", kMissing) == hostCount);
        CHECK(entry->value("host_wait_ns", kMissing) == hostNs);
        CHECK(entry->value("kernel_wait_count", kMissing) == kernelCount);
        CHECK(entry->value("kernel_wait_ns", kMissing) == kernelNs);
    }
}

// Useful (C) and communication (N + M minus C) time per device, and kernels in flight, in the run's window.
void checkDevicesInWindow(const Run& run, const Export& ex) {
    std::set<std::string> ours, theirs;
    for (const auto& [key, d] : ex.devices) ours.insert(run.idOf(key));
    for (const auto& d : run.report["devices"]) theirs.insert(d.value("id", std::string()));
    CHECK(ours == theirs);
    for (const auto& [key, d] : ex.devices) {
        auto id = run.idOf(key);
        CAPTURE(id);
        const json* dev = findBy(run.report["devices"], "id", id);
        if (!dev) continue; // reported by the id sets
        auto useful = length(d.compute, run.lo, run.hi);
        auto active = length(concat({&d.compute, &d.nccl, &d.memory}), run.lo, run.hi);
        CHECK(dev->value("useful_ns", kMissing) == useful);
        CHECK(dev->value("communication_ns", kMissing) == active - useful);
        CHECK(dev->value("idle_ns", kMissing) == run.hi - run.lo - active);
        if (const json* k = findBy(run.report["kernels_in_flight"], "device", id)) {
            checkHistogram(at(*k, "time_ns_by_count"),
                           timeByCount(concat({&d.compute, &d.nccl}), run.lo, run.hi), "kernels_in_flight");
            checkHistogram(at(*k, "with_memory_time_ns_by_count"),
                           timeByCount(concat({&d.compute, &d.nccl, &d.memory}), run.lo, run.hi),
                           "kernels_in_flight with memory");
        } else {
            FAIL_CHECK("no kernels_in_flight entry");
        }
    }
}

std::filesystem::path mfuExport() {
    return testsupport::dataDir() / "nsys" / "mfu_2gpu_h100_nccl.sqlite";
}

// NVTX range names resolve through StringIds when nsys registered the string.
const std::string kNvtxRanges = "SELECT coalesce(n.text, s.value) AS name, n.start, n.end, "
                                "coalesce(n.domainId, 0) AS domain, coalesce(n.category, 0) AS category, "
                                "n.globalTid FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId "
                                "WHERE n.eventType IN (59, 60) AND n.end IS NOT NULL";

// --region NAME: the window spans the ranges of that name (first start to last end), whatever their
// nesting, and the devices' times are clipped to it.
void checkRegion(const std::filesystem::path& db, const std::string& name) {
    CAPTURE(name);
    REQUIRE_MESSAGE(name.find('\'') == std::string::npos, "the name must be quotable for the shell");
    auto span = query(db, "SELECT min(start), max(end), count(*) FROM (" + kNvtxRanges + ") WHERE name = '" +
                              name + "'");
    REQUIRE(span.size() == 1);
    MESSAGE("region '" << name << "': " << span[0][2] << " ranges");
    auto run = runOf(db, "--region '" + name + "'");
    const auto& w = run.report["window"];
    CHECK(w.value("source", std::string()) == "region");
    CHECK(w.value("region", std::string()) == name);
    const std::int64_t begin = std::stoll(span[0][0]), end = std::stoll(span[0][1]);
    CHECK(w.value("begin_ns", kMissing) == begin + run.offset);
    CHECK(w.value("end_ns", kMissing) == end + run.offset);
    CHECK(w.value("duration_ns", kMissing) == end - begin);
    // Devices in the region's window are compared in the window gpueff reports, so a window mismatch above
    // does not turn every device number into a second failure.
    const auto& ex = loaded(db);
    for (const auto& [key, d] : ex.devices) {
        auto id = run.idOf(key);
        CAPTURE(id);
        const json* dev = findBy(run.report["devices"], "id", id);
        if (!dev) {
            FAIL_CHECK("device missing");
            continue;
        }
        CHECK(dev->value("useful_ns", kMissing) == length(d.compute, run.lo, run.hi));
    }
}

bool haveNvtx(const std::filesystem::path& db) {
    if (!std::filesystem::exists(db)) {
        MESSAGE("skipped: " << db.string() << " is absent");
        return false;
    }
    if (!hasTable(db, "NVTX_EVENTS")) {
        MESSAGE("skipped: " << db.filename().string() << " has no NVTX_EVENTS");
        return false;
    }
    return true;
}

// host.offload: blocking = |union of the process's synchronizations| in the window, for those whose API call
// was recorded: the host blocks inside a call; a synchronization without one cannot be put on a host thread
// (the translator counts it as a skipped row of CUPTI_ACTIVITY_KIND_SYNCHRONIZATION).
void checkOffload(const std::filesystem::path& db, const std::string& args = "") {
    CAPTURE(args);
    auto run = runOf(db, args);
    const std::int64_t T = run.hi - run.lo;
    std::map<std::int64_t, Intervals> byPid;
    for (const auto& r : query(db, "SELECT (s.globalPid >> 24) & 16777215, s.start, s.end FROM " + kSync +
                                       " s WHERE " + kWithCall))
        byPid[std::stoll(r[0])].push_back({std::stoll(r[1]), std::stoll(r[2])});
    if (byPid.empty()) MESSAGE(db.filename().string() << ": " << kSync << " has no rows");
    std::set<std::int64_t> reported;
    for (const auto& task : run.report["host"]["offload"]) {
        // "process pid@host"
        auto name = task.value("name", std::string());
        CAPTURE(name);
        auto at_ = name.rfind('@'), space = name.rfind(' ', at_);
        REQUIRE_MESSAGE((at_ != std::string::npos && space != std::string::npos), "task name form");
        CHECK(name.substr(at_ + 1) == run.host);
        auto pid = std::stoll(name.substr(space + 1, at_ - space - 1));
        reported.insert(pid);
        auto blocking = length(byPid[pid], run.lo, run.hi);
        CHECK(task.value("blocking_ns", kMissing) == blocking);
        // Blocked launch calls: longer than 4x the process's median launch call (the upper middle value),
        // from begin + median to min(call end, GPU start).
        std::vector<std::pair<std::int64_t, std::int64_t>> calls;
        for (const char* gpu : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
                                "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"})
            if (hasTable(db, gpu))
                for (const auto& r :
                     query(db, "SELECT min(r.start), r.end, g.start FROM " + kRuntime + " r JOIN " + gpu +
                                   " g ON g.correlationId = r.correlationId AND (r.globalTid >> 24) = "
                                   "(g.globalPid >> "
                                   "24) WHERE (r.globalTid >> 24) & 16777215 = " +
                                   std::to_string(pid) + " GROUP BY r.correlationId, g.start"))
                    // A launch recorded twice (a driver row wrapping the runtime row) is the outer call's:
                    // the first in start order (SQLite gives the bare r.end of the row holding min()).
                    calls.push_back({std::stoll(r[0]), std::min(std::stoll(r[1]), std::stoll(r[2]))});
        if (!calls.empty() && !task["launch_blocked_ns"].is_null()) {
            std::vector<std::int64_t> d;
            for (auto [b, e] : calls) d.push_back(e - b);
            std::sort(d.begin(), d.end());
            const auto median = d[d.size() / 2];
            Intervals blocked;
            for (auto [b, e] : calls)
                if (e - b > 4 * median && e - b > 0) blocked.push_back({b + median, e});
            CHECK(task.value("launch_blocked_ns", kMissing) == length(blocked, run.lo, run.hi));
            auto both = blocked;
            both.insert(both.end(), byPid[pid].begin(), byPid[pid].end());
            if (T > 0)
                CHECK(near(task.value("offload_efficiency_with_launches", kNaN),
                           static_cast<double>(T - length(both, run.lo, run.hi)) / static_cast<double>(T),
                           1e-12));
        }
        if (T > 0) {
            double expected = static_cast<double>(T - blocking) / static_cast<double>(T);
            CHECK_MESSAGE(near(task.value("offload_efficiency", kNaN), expected, 1e-12),
                          task.value("offload_efficiency", kNaN) << " vs " << expected);
        }
    }
    for (const auto& [pid, rows] : byPid)
        CHECK_MESSAGE(reported.count(pid) == 1,
                      "process " << pid << " has synchronizations but no host.offload entry");
}

} // namespace

TEST_CASE("analyze oracle host: kernels_queued time by depth equals the SQL launches in transit") {
    for (const auto& db : realExports()) {
        SUBCASE(db.filename().string().c_str()) {
            if (!hasTable(db, kRuntime)) {
                MESSAGE("skipped: " << db.filename().string() << " has no " << kRuntime);
            } else {
                checkQueued(runOf(db), loaded(db));
            }
        }
    }
}

TEST_CASE("analyze oracle host: gaps host-wait / kernel-wait split equals SQL") {
    for (const auto& db : realExports()) {
        SUBCASE(db.filename().string().c_str()) {
            if (!hasTable(db, kRuntime)) {
                MESSAGE("skipped: " << db.filename().string() << " has no " << kRuntime);
            } else {
                checkGaps(runOf(db), loaded(db));
            }
        }
    }
}

TEST_CASE("analyze oracle host: host.offload blocking time equals the union of SQL synchronizations") {
    for (const auto& db : realExports()) {
        SUBCASE(db.filename().string().c_str()) {
            if (!hasTable(db, kSync) || !hasTable(db, kRuntime))
                MESSAGE("skipped: " << db.filename().string() << " lacks " << kSync << " or " << kRuntime);
            else
                checkOffload(db);
        }
    }
}

TEST_CASE("analyze oracle host: host.offload leaves out synchronizations whose API call is not recorded") {
    // The default window may clip such rows away (power_iteration_t4's lies after the last GPU activity):
    // a window over every synchronization row keeps them.
    for (const auto& db : realExports()) {
        SUBCASE(db.filename().string().c_str()) {
            if (!hasTable(db, kSync) || !hasTable(db, kRuntime)) {
                MESSAGE("skipped: " << db.filename().string() << " lacks " << kSync << " or " << kRuntime);
            } else {
                auto orphans = queryInt(
                    db, "SELECT count(*) FROM " + kSync + " s WHERE NOT EXISTS (SELECT 1 FROM " + kRuntime +
                            " r WHERE r.correlationId = s.correlationId AND "
                            "r.globalTid >= s.globalPid AND r.globalTid < s.globalPid + 16777216)");
                if (orphans == 0) {
                    MESSAGE("skipped: every synchronization of " << db.filename().string()
                                                                 << " has its API call");
                } else {
                    MESSAGE(db.filename().string()
                            << ": " << orphans << " synchronizations without API call");
                    auto offset = runOf(db).offset;
                    auto b = queryInt(db, "SELECT min(start) FROM " + kSync) + offset;
                    auto e = queryInt(db, "SELECT max(end) FROM " + kSync) + offset;
                    checkOffload(db, "--begin " + std::to_string(b) + " --end " + std::to_string(e));
                }
            }
        }
    }
}

TEST_CASE("analyze oracle host: --region NAME spans the NVTX ranges of that name") {
    auto db = mfuExport();
    if (!haveNvtx(db)) return;
    // The default domain's most repeated name (ties: the widest span), and the most repeated name of any
    // domain (NCCL's ranges, many per rank).
    auto named = [&](const std::string& where) {
        auto rows = query(db, "SELECT name FROM (" + kNvtxRanges + ")" + where +
                                  " GROUP BY name HAVING count(*) > 1 ORDER BY count(*) DESC, "
                                  "max(end) - min(start) DESC, name LIMIT 1");
        return rows.empty() ? std::string() : rows[0][0];
    };
    for (const auto& name : {named(" WHERE domain = 0"), named("")}) {
        if (name.empty()) {
            MESSAGE("no repeated NVTX range name");
            continue;
        }
        SUBCASE(name.c_str()) {
            checkRegion(db, name);
        }
    }
}

TEST_CASE("analyze oracle host: --region NAME of a range with nested ranges ends at its own end") {
    auto db = mfuExport();
    if (!haveNvtx(db)) return;
    // Push/pop ranges of one thread nest, so a range holds another when the next range of its thread and
    // category starts before it ends. The first such range by start, in the default domain.
    auto rows = query(db, "SELECT name FROM (SELECT name, start, end, domain, lead(start) OVER (PARTITION BY "
                          "globalTid, domain, category ORDER BY start, end DESC) AS next FROM (" +
                              kNvtxRanges + ")) WHERE domain = 0 AND next < end ORDER BY start LIMIT 1");
    if (rows.empty()) {
        MESSAGE("no nested NVTX range in the default domain");
        return;
    }
    checkRegion(db, rows[0][0]);
}

TEST_CASE("analyze oracle host: --begin/--end window (middle third) equals SQL clipped to it") {
    auto db = mfuExport();
    if (!std::filesystem::exists(db)) {
        MESSAGE("skipped: " << db.string() << " is absent");
        return;
    }
    auto whole = runOf(db);
    const std::int64_t third = (whole.hi - whole.lo) / 3;
    const std::int64_t B = whole.lo + third + whole.offset, E = whole.hi - third + whole.offset;
    auto run = runOf(db, "--begin " + std::to_string(B) + " --end " + std::to_string(E));
    const auto& w = run.report["window"];
    CHECK(w.value("source", std::string()) == "arguments");
    CHECK(w.value("begin_ns", kMissing) == B);
    CHECK(w.value("end_ns", kMissing) == E);
    CHECK(w.value("duration_ns", kMissing) == E - B);
    REQUIRE(run.lo == B - run.offset);
    REQUIRE(run.hi == E - run.offset);
    const auto& ex = loaded(db);
    checkDevicesInWindow(run, ex);
    // The launch-based metrics follow the same window.
    checkQueued(run, ex);
    checkGaps(run, ex);
}
