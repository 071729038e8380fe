// Oracle for the levels of detail of `gpueff analyze` (report.json: iteration_detection, iterations, focus,
// phases, stragglers, collectives, kernel_overlap). Every expected number is recomputed here from the SQLite
// rows with SQL and deliberately naive interval code (AnalyzeOracle's sort + merge and endpoint sweeps);
// nothing calls gpueff's engine or metrics code and no expected value was read off gpueff's output.
// Exports: power_iteration_t4 (real, NVTX "Step N to M" markers), mfu_2gpu_h100_nccl (real, 2 GPUs, NCCL, no
// step markers) and the SYNTHETIC pair data/synthetic/levels_rank0.sql + levels_rank1.sql, whose header lists
// values worked out by hand: the oracle is checked against those too.
#include "tests/AnalyzeOracle.h"

#include <algorithm>
#include <cmath>
#include <doctest/doctest.h>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

using namespace analyzeoracle;
using namespace testsupport;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr std::int64_t kMissing = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
constexpr std::size_t kAll = std::numeric_limits<std::size_t>::max();
const std::string kDefaultPattern =
    "ProfilerStep#\\d+|iter(ation)?[-_ #]?\\d+|step \\d+ to \\d+|step[-_ #]?\\d+|"
    "(global_|train_|training_)?step|train(ing)?_batch|iteration";
const std::string kConventions[] = {"nccl_as_communication", "nccl_as_useful"};

// Lookups that never assert on a missing key: absence turns into a sentinel the comparisons then reject.
const json& at(const json& o, const std::string& key) {
    static const json none;
    return o.is_object() && o.contains(key) ? o[key] : none;
}
std::int64_t num(const json& o, const std::string& key) {
    const json& v = at(o, key);
    return v.is_number_integer() ? v.get<std::int64_t>() : kMissing;
}
std::string text(const json& o, const std::string& key) {
    const json& v = at(o, key);
    return v.is_string() ? v.get<std::string>() : "<not a string>";
}
// The element of `array` whose `key` is `value` (null, and a failed check, when there is none).
const json& entry(const json& array, const char* key, const std::string& value) {
    static const json none;
    const json* e = array.is_array() ? findBy(array, key, value) : nullptr;
    if (!e) FAIL_CHECK("no element with " << key << " = " << value << " in " << array.dump().substr(0, 300));
    return e ? *e : none;
}
std::optional<double> ratio(double a, double b) {
    return b != 0 ? std::optional(a / b) : std::nullopt;
}
template <class T>
double median(std::vector<T> v) { // mean of the two middle values for an even count
    std::sort(v.begin(), v.end());
    std::size_t m = v.size() / 2;
    return v.size() % 2 ? static_cast<double>(v[m])
                        : (static_cast<double>(v[m - 1]) + static_cast<double>(v[m])) / 2;
}
std::int64_t sum(const std::vector<std::int64_t>& v) {
    std::int64_t s = 0;
    for (auto x : v) s += x;
    return s;
}
// A number, relative tolerance 1e-9; nullopt: the report must hold null (the contract's undefined values).
void checkNumber(const json& v, std::optional<double> ours, const std::string& what) {
    CAPTURE(what);
    if (!ours) {
        CHECK_MESSAGE(v.is_null(), "expected null, got " << v.dump());
        return;
    }
    double x = v.is_number() ? v.get<double>() : std::numeric_limits<double>::quiet_NaN();
    CHECK_MESSAGE(std::fabs(x - *ours) <= 1e-9 * std::max(std::fabs(x), std::fabs(*ours)) + 1e-300,
                  "report " << v.dump() << " vs oracle " << *ours);
}

// ---- The run as the oracle sees it: every export's rows in trace time (export time + its offset_ns).
struct Kernel {
    std::int64_t begin, end;
    std::string name;
};
struct Gpu {
    Device act;                  // compute / nccl / memory intervals and ncclRuns, in trace time
    std::vector<Kernel> compute; // non-NCCL kernels with their names
};
struct Launch {
    std::int64_t call, begin, end; // call start; GPU start and end of the work it launched
};
struct Range {
    std::string process, thread, text; // "input:pid", "input:globalTid"
    std::int64_t begin, end;
};
bool inside(const Range& r, const Range& outer) { // strictly nested, same thread
    return r.thread == outer.thread && outer.begin <= r.begin && r.end <= outer.end &&
           (outer.begin < r.begin || r.end < outer.end);
}
struct Rows {
    std::map<std::string, Gpu> gpus; // report device id -> activity
    std::vector<std::vector<std::string>> idsOfInput;
    std::map<std::string, std::vector<Launch>> launches; // by process
    std::vector<Range> ranges;                           // closed NVTX push/pop ranges
    std::int64_t windowBegin = 0, windowEnd = 0;         // report.window
};

void shift(Intervals& v, std::int64_t d) {
    for (auto& [b, e] : v) b += d, e += d;
}

Rows loadRows(const json& report, const std::vector<fs::path>& dbs) {
    Rows rows;
    rows.windowBegin = num(at(report, "window"), "begin_ns");
    rows.windowEnd = num(at(report, "window"), "end_ns");
    REQUIRE(at(report, "inputs").size() == dbs.size());
    for (std::size_t i = 0; i < dbs.size(); ++i) {
        const fs::path& db = dbs[i];
        const json* in = nullptr;
        for (const auto& x : at(report, "inputs"))
            if (fs::path(text(x, "path")).filename() == db.filename()) in = &x;
        REQUIRE_MESSAGE(in, "no input of report.json is " << db.filename().string());
        const std::string host = text(*in, "host"), process = std::to_string(i) + ":";
        const std::int64_t offset = num(*in, "offset_ns");
        REQUIRE(offset != kMissing);
        auto idOf = [&](const std::string& pid, const std::string& gpu) {
            return host + ":" + pid + ":" + gpu;
        };
        rows.idsOfInput.emplace_back();
        for (auto& [key, d] : loadDevices(db)) {
            for (auto* v : {&d.compute, &d.nccl, &d.memory}) shift(*v, offset);
            for (auto& [name, v] : d.ncclRuns) shift(v, offset);
            auto id = idOf(std::to_string(key.first), std::to_string(key.second));
            rows.gpus[id].act = d;
            rows.idsOfInput.back().push_back(id);
        }
        const std::string kernels = "CUPTI_ACTIVITY_KIND_KERNEL";
        const char* nameColumn = hasColumn(db, kernels, "demangledName") ? "demangledName" : "shortName";
        if (hasTable(db, kernels)) // names as loadDevices reads them
            for (const auto& r :
                 query(db, "SELECT k.start, k.end, (k.globalPid >> 24) & 16777215, k.deviceId, "
                           "s.value FROM " +
                               kernels + " k LEFT JOIN StringIds s ON s.id = k." + nameColumn))
                if (!isNccl(r[4]))
                    rows.gpus[idOf(r[2], r[3])].compute.push_back(
                        {std::stoll(r[0]) + offset, std::stoll(r[1]) + offset, r[4]});
        // Launch calls joined on correlationId, same process, with the GPU work they launched.
        for (const char* t : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                              "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"})
            if (hasTable(db, "CUPTI_ACTIVITY_KIND_RUNTIME") && hasTable(db, t))
                for (const auto& r :
                     query(db, "SELECT r.start, g.start, g.end, (r.globalTid >> 24) & 16777215 "
                               "FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN " +
                                   std::string(t) +
                                   " g ON g.correlationId = r.correlationId AND "
                                   "(g.globalPid >> 24) = (r.globalTid >> 24)"))
                    rows.launches[process + r[3]].push_back(
                        {std::stoll(r[0]) + offset, std::stoll(r[1]) + offset, std::stoll(r[2]) + offset});
        if (hasTable(db, "NVTX_EVENTS"))
            for (const auto& r :
                 query(db, "SELECT n.start, n.end, n.globalTid, (n.globalTid >> 24) & 16777215, "
                           "coalesce(n.text, s.value) FROM NVTX_EVENTS n LEFT JOIN StringIds s "
                           "ON s.id = n.textId WHERE n.eventType IN (59, 70) AND n.end IS NOT NULL"))
                rows.ranges.push_back({process + r[3], process + r[2], r[4], std::stoll(r[0]) + offset,
                                       std::stoll(r[1]) + offset});
    }
    return rows;
}

// ---- Iteration markers and their projection on the GPU (placement "gpu-projection").
// Per process (in "input:pid" order), its outermost ranges fully matching `pattern`, by start time.
std::map<std::string, std::vector<Range>> markersOf(const Rows& rows, const std::string& pattern) {
    std::regex re(pattern, std::regex::ECMAScript | std::regex::icase);
    std::vector<const Range*> match;
    for (const auto& r : rows.ranges)
        if (std::regex_match(r.text, re)) match.push_back(&r);
    std::map<std::string, std::vector<Range>> out;
    for (const auto* r : match)
        if (std::none_of(match.begin(), match.end(), [&](const Range* o) { return inside(*r, *o); }))
            out[r->process].push_back(*r);
    for (auto& [p, v] : out)
        std::sort(v.begin(), v.end(), [](const Range& a, const Range& b) { return a.begin < b.begin; });
    return out;
}

// Widens `span` to [min GPU start, max GPU end) of the work launched by `process` in [range.begin,
// range.end).
Interval launchedIn(const Rows& rows, const std::string& process, const Range& range, Interval span) {
    if (auto it = rows.launches.find(process); it != rows.launches.end())
        for (const auto& l : it->second)
            if (range.begin <= l.call && l.call < range.end)
                span.first = std::min(span.first, l.begin), span.second = std::max(span.second, l.end);
    return span;
}

struct Iteration {
    std::int64_t begin, end; // trace time
    std::string name;
    std::map<std::string, Range> marker; // process -> its marker of this iteration
};

std::vector<Iteration> project(const Rows& rows, const std::map<std::string, std::vector<Range>>& markers) {
    std::vector<Iteration> out, clipped;
    std::vector<std::int64_t> lastEnd;
    std::size_t count = markers.empty() ? 0 : kAll;
    for (const auto& [p, v] : markers) count = std::min(count, v.size());
    for (std::size_t k = 0; k < count; ++k) {
        Interval span{kNever, -kNever};
        Iteration it{0, 0, markers.begin()->second[k].text, {}};
        for (const auto& [p, v] : markers) span = launchedIn(rows, p, v[k], span), it.marker[p] = v[k];
        if (span.first > span.second) continue; // nothing launched: dropped
        it.begin = span.first;
        out.push_back(it);
        lastEnd.push_back(span.second);
    }
    for (std::size_t j = 0; j < out.size(); ++j)
        out[j].end = j + 1 < out.size() ? out[j + 1].begin : lastEnd[j];
    for (auto it : out) { // intersected with the analysis window
        it.begin = std::max(it.begin, rows.windowBegin), it.end = std::min(it.end, rows.windowEnd);
        if (it.begin < it.end) clipped.push_back(it);
    }
    return clipped;
}

std::vector<std::string> statuses(const std::vector<std::int64_t>& d) {
    std::vector<std::string> out(d.size(), "steady");
    if (d.size() < 3) return out;
    const double m = median(d);
    std::vector<double> deviation;
    for (auto x : d) deviation.push_back(std::fabs(static_cast<double>(x) - m));
    const double threshold = std::max(3 * 1.4826 * median(deviation), 0.05 * m);
    bool leading = true;
    for (std::size_t i = 0; i < d.size(); ++i)
        if (deviation[i] <= threshold)
            leading = false;
        else
            out[i] = leading ? "warm-up" : "outlier";
    return out;
}
std::vector<std::string> statuses(const std::vector<Iteration>& its) {
    std::vector<std::int64_t> d;
    for (const auto& it : its) d.push_back(it.end - it.begin);
    return statuses(d);
}

// ---- Figures over a set of windows (one iteration, the focus, or a phase's windows summed).
Intervals usefulOf(const Gpu& g, const std::string& convention) {
    return convention == "nccl_as_useful" ? concat({&g.act.compute, &g.act.nccl}) : g.act.compute;
}

void checkEfficiency(const json& e, const Rows& rows, const Intervals& windows,
                     const std::string& convention) {
    CAPTURE(convention);
    std::int64_t T = 0, sumU = 0, maxU = 0, maxA = 0;
    for (auto [b, en] : windows) T += en - b;
    CHECK(at(e, "devices").size() == rows.gpus.size());
    for (const auto& [id, g] : rows.gpus) {
        auto useful = usefulOf(g, convention), all = concat({&g.act.compute, &g.act.nccl, &g.act.memory});
        std::int64_t u = 0, a = 0;
        for (auto [b, en] : windows) u += length(useful, b, en), a += length(all, b, en);
        sumU += u, maxU = std::max(maxU, u), maxA = std::max(maxA, a);
        CAPTURE(id);
        const json& d = entry(at(e, "devices"), "id", id);
        CHECK(num(d, "useful_ns") == u);
        CHECK(num(d, "communication_ns") == a - u);
        CHECK(num(d, "idle_ns") == T - a);
    }
    CHECK(num(e, "useful_sum_ns") == sumU);
    CHECK(num(e, "useful_max_ns") == maxU);
    CHECK(num(e, "active_max_ns") == maxA);
    // As for the whole run (same shape): the four factors are numbers only when T > 0 and some device did
    // useful work, all null otherwise (docs/report.md: a number that cannot be computed is null).
    const bool computable = !rows.gpus.empty() && T > 0 && maxU > 0;
    const auto n = static_cast<double>(rows.gpus.size()), dT = static_cast<double>(T),
               dSum = static_cast<double>(sumU), dMaxU = static_cast<double>(maxU),
               dMaxA = static_cast<double>(maxA);
    auto factor = [&](const char* key, double value) {
        checkNumber(at(e, key), computable ? std::optional(value) : std::nullopt, key);
    };
    factor("parallel_efficiency", dSum / (n * dT));
    factor("load_balance", dSum / (n * dMaxU));
    factor("communication_efficiency", dMaxU / dMaxA);
    factor("orchestration_efficiency", dMaxA / dT);
}

// efficiency (both conventions), and unless `efficiencyOnly` overlap_share and kernels_in_flight_mean.
void checkFigures(const json& o, const Rows& rows, const Intervals& windows, bool efficiencyOnly = false) {
    for (const auto& c : kConventions) checkEfficiency(at(at(o, "efficiency"), c), rows, windows, c);
    if (efficiencyOnly) return;
    std::int64_t both = 0, communication = 0, integral = 0, busy = 0;
    for (const auto& [id, g] : rows.gpus) {
        auto comm = concat({&g.act.nccl, &g.act.memory}), kernels = concat({&g.act.compute, &g.act.nccl});
        for (auto [b, e] : windows) {
            auto c = length(comm, b, e);
            both += length(g.act.compute, b, e) + c - length(concat({&g.act.compute, &comm}), b, e);
            communication += c;
            for (auto [count, t] : timeByCount(kernels, b, e))
                integral += count * t, busy += count > 0 ? t : 0;
        }
    }
    checkNumber(at(o, "overlap_share"), ratio(static_cast<double>(both), static_cast<double>(communication)),
                "overlap_share");
    checkNumber(at(o, "kernels_in_flight_mean"),
                ratio(static_cast<double>(integral), static_cast<double>(busy)), "kernels_in_flight_mean");
}

// Straggler of [b, e): per device, the end of its last useful (compute) work clipped to the window.
void checkStraggler(const json& s, const Rows& rows, std::int64_t b, std::int64_t e) {
    std::map<std::string, std::int64_t> ends;
    for (const auto& [id, g] : rows.gpus)
        for (auto [kb, ke] : g.act.compute)
            if (std::min(ke, e) > std::max(kb, b))
                ends[id] = std::max(ends.count(id) ? ends[id] : kMissing, std::min(ke, e));
    if (ends.size() < 2) {
        CHECK_MESSAGE(s.is_null(), "straggler with fewer than 2 devices at work: " << s.dump());
        return;
    }
    std::int64_t latest = kMissing, earliest = kNever;
    for (auto [id, t] : ends) latest = std::max(latest, t), earliest = std::min(earliest, t);
    auto it = ends.find(text(s, "device"));
    CHECK_MESSAGE((it != ends.end() && it->second == latest),
                  "straggler " << s.dump() << " ends before " << latest);
    CHECK(num(s, "useful_end_ns") == latest);
    CHECK(num(s, "lag_ns") == latest - earliest);
}

// Everything per iteration that follows from its listed window, the status rule and the focus. `tiled`: the
// windows follow each other without gaps, so each device's useful time sums to that of their union.
void checkIterations(const json& report, const Rows& rows, bool tiled) {
    const json& its = at(report, "iterations");
    const json& detection = at(report, "iteration_detection");
    REQUIRE(its.is_array());
    CHECK(num(detection, "count") == static_cast<std::int64_t>(its.size()));
    std::vector<std::int64_t> durations;
    for (std::size_t i = 0; i < its.size(); ++i) {
        CAPTURE(i);
        auto b = num(its[i], "begin_ns"), e = num(its[i], "end_ns");
        REQUIRE((b != kMissing && e != kMissing && b < e));
        CHECK(num(its[i], "index") == static_cast<std::int64_t>(i));
        CHECK(num(its[i], "duration_ns") == e - b);
        if (tiled && i + 1 < its.size()) CHECK(e == num(its[i + 1], "begin_ns"));
        durations.push_back(e - b);
        checkFigures(its[i], rows, {{b, e}});
        checkStraggler(at(its[i], "straggler"), rows, b, e);
    }
    auto status = statuses(durations);
    std::optional<std::size_t> first, last;
    for (std::size_t i = 0; i < its.size(); ++i) {
        CHECK_MESSAGE(text(its[i], "status") == status[i],
                      "iteration " << i << ", " << durations[i] << " ns");
        if (status[i] == "steady") last = i, first = first.value_or(i);
    }
    CHECK(num(detection, "steady") == std::count(status.begin(), status.end(), "steady"));
    const json& focus = at(report, "focus");
    if (!first) {
        CHECK_MESSAGE(focus.is_null(), "focus without a steady iteration");
    } else {
        auto b = num(its[*first], "begin_ns"), e = num(its[*last], "end_ns");
        CHECK(num(focus, "first") == static_cast<std::int64_t>(*first));
        CHECK(num(focus, "last") == static_cast<std::int64_t>(*last));
        CHECK(num(focus, "begin_ns") == b);
        CHECK(num(focus, "end_ns") == e);
        checkFigures(focus, rows, {{b, e}}, true);
    }
    if (!tiled || its.empty()) return;
    const auto b0 = num(its[0], "begin_ns"), eLast = num(its[its.size() - 1], "end_ns");
    for (const auto& c : kConventions)
        for (const auto& [id, g] : rows.gpus) {
            std::int64_t total = 0;
            for (const auto& it : its)
                if (const json* d = findBy(at(at(at(it, "efficiency"), c), "devices"), "id", id))
                    total += num(*d, "useful_ns");
            CHECK_MESSAGE(total == length(usefulOf(g, c), b0, eLast), c << " useful time of " << id);
        }
}

// The report's iterations must be the SQL projection of the markers.
// The process ("input:pid") of report task `task` (1-based), through the ids of its devices.
std::string processOfTask(const json& report, const Rows& rows, std::int64_t task) {
    for (const auto& d : at(report, "devices"))
        if (num(d, "task") == task)
            for (std::size_t i = 0; i < rows.idsOfInput.size(); ++i)
                for (const auto& id : rows.idsOfInput[i])
                    if (id == text(d, "id")) {
                        auto pid = id.substr(0, id.rfind(':'));
                        return std::to_string(i) + ":" + pid.substr(pid.rfind(':') + 1);
                    }
    return "";
}

void checkProjection(const json& report, const Rows& rows, const std::vector<Iteration>& ours) {
    const json& its = at(report, "iterations");
    REQUIRE(its.size() == ours.size());
    for (std::size_t i = 0; i < ours.size(); ++i) {
        CAPTURE(i);
        CHECK(text(its[i], "name") == ours[i].name);
        CHECK(num(its[i], "begin_ns") == ours[i].begin);
        CHECK(num(its[i], "end_ns") == ours[i].end);
        // Each task's own part: the work its marker launched, neither tiled nor clipped.
        std::size_t working = 0;
        for (const auto& [process, marker] : ours[i].marker)
            working += launchedIn(rows, process, marker, {kNever, -kNever}).first < kNever;
        CHECK(at(its[i], "tasks").size() == working);
        for (const auto& t : at(its[i], "tasks")) {
            auto process = processOfTask(report, rows, num(t, "task"));
            CAPTURE(process);
            REQUIRE(ours[i].marker.count(process));
            auto span = launchedIn(rows, process, ours[i].marker.at(process), {kNever, -kNever});
            CHECK(num(t, "begin_ns") == span.first);
            CHECK(num(t, "end_ns") == span.second);
        }
    }
}

// ---- Phases: NVTX ranges nested directly in an iteration marker (same thread), projected per iteration.
// docs/report.md: phases are matched by name with every run of digits masked as one '#'.
std::string phaseName(const std::string& rangeText) {
    std::string key;
    for (char c : rangeText) {
        bool digit = c >= '0' && c <= '9';
        if (!digit)
            key += c;
        else if (key.empty() || key.back() != '#')
            key += '#';
    }
    return key;
}
struct Phase {
    std::int64_t iterations = 0;                         // steady iterations it occurs in
    Intervals windows;                                   // its windows in those (non-empty ones)
    std::pair<std::size_t, std::int64_t> first{kAll, 0}; // (iteration, range begin) of its first occurrence
};
std::map<std::string, Phase> phasesOf(const Rows& rows, const std::vector<Iteration>& its) {
    const auto status = statuses(its);
    std::map<std::string, Phase> out;
    for (std::size_t k = 0; k < its.size(); ++k) {
        std::map<std::string, Interval> spans;
        for (const auto& [p, m] : its[k].marker) {
            std::vector<const Range*> in;
            for (const auto& r : rows.ranges)
                if (inside(r, m)) in.push_back(&r);
            for (const auto* r : in) {
                if (std::any_of(in.begin(), in.end(), [&](const Range* o) { return inside(*r, *o); }))
                    continue;
                const auto name = phaseName(r->text);
                out[name].first = std::min(out[name].first, std::pair{k, r->begin});
                auto& span = spans.try_emplace(name, Interval{kNever, -kNever}).first->second;
                span = launchedIn(rows, p, *r, span);
            }
        }
        if (status[k] != "steady") continue;
        for (auto [name, span] : spans) {
            ++out[name].iterations;
            auto b = std::max(span.first, its[k].begin), e = std::min(span.second, its[k].end);
            if (b < e) out[name].windows.push_back({b, e});
        }
    }
    return out;
}

// Every phase the report lists must be ours, with our numbers, in order of first occurrence; every phase
// with GPU work in a steady iteration must be listed.
void checkPhases(const json& report, const Rows& rows, const std::map<std::string, Phase>& ours) {
    CHECK(at(report, "phases").is_array());
    std::set<std::string> listed;
    std::pair<std::size_t, std::int64_t> previous{0, kMissing};
    for (const auto& ph : at(report, "phases")) {
        auto name = text(ph, "name");
        CAPTURE(name);
        listed.insert(name);
        auto it = ours.find(name);
        if (it == ours.end()) {
            FAIL_CHECK("not an NVTX range nested directly in an iteration marker");
            continue;
        }
        const Phase& p = it->second;
        CHECK_MESSAGE(previous < p.first, "phases not in order of first occurrence");
        previous = p.first;
        std::int64_t time = 0;
        for (auto [b, e] : p.windows) time += e - b;
        CHECK(num(ph, "iterations") == p.iterations);
        CHECK(num(ph, "time_ns") == time);
        checkNumber(at(ph, "mean_ns"), ratio(static_cast<double>(time), static_cast<double>(p.iterations)),
                    "mean");
        checkFigures(ph, rows, p.windows);
    }
    for (const auto& [name, p] : ours)
        if (p.iterations > 0 && !p.windows.empty())
            CHECK_MESSAGE(listed.count(name), "phase " << name << " missing");
}

// ---- Collectives: the k-th instance of an NCCL kernel name on every device running it.
struct Collective {
    std::int64_t first, skew;
    std::set<std::string> last; // devices arriving last (one unless tied)
};
using Collectives = std::map<std::pair<std::string, std::int64_t>, Collective>; // (kernel, sequence)

Collectives checkCollectives(const json& c, const Rows& rows) {
    std::map<std::string, std::map<std::string, std::vector<std::int64_t>>>
        starts; // name -> device -> starts
    for (const auto& [id, g] : rows.gpus)
        for (const auto& [name, runs] : g.act.ncclRuns)
            for (auto [b, e] : runs)
                if (rows.windowBegin <= b && b < rows.windowEnd) starts[name][id].push_back(b);
    Collectives mine;
    std::map<std::string, std::int64_t> lastCount, wait, taking;
    bool ties = false;
    for (auto& [name, byDevice] : starts) {
        if (byDevice.size() < 2) continue;
        std::size_t count = kAll;
        for (auto& [id, v] : byDevice) std::sort(v.begin(), v.end()), count = std::min(count, v.size());
        for (std::size_t k = 0; k < count; ++k) {
            Collective col{kNever, 0, {}};
            std::int64_t latest = kMissing, caused = 0;
            for (const auto& [id, v] : byDevice)
                col.first = std::min(col.first, v[k]), latest = std::max(latest, v[k]);
            for (const auto& [id, v] : byDevice) {
                ++taking[id], caused += latest - v[k];
                if (v[k] == latest) col.last.insert(id);
            }
            col.skew = latest - col.first;
            ties |= col.last.size() > 1;
            ++lastCount[*col.last.begin()], wait[*col.last.begin()] += caused;
            mine[{name, static_cast<std::int64_t>(k)}] = col;
        }
    }
    CHECK(num(c, "matched") == static_cast<std::int64_t>(mine.size()));
    CHECK(at(c, "instances").is_array());
    std::vector<std::int64_t> skews, theirs;
    for (const auto& [key, col] : mine) skews.push_back(col.skew);
    std::sort(skews.rbegin(), skews.rend());
    skews.resize(std::min<std::size_t>(skews.size(), 20));
    for (const auto& in : at(c, "instances")) {
        auto key = std::pair{text(in, "kernel"), num(in, "sequence")};
        CAPTURE(key.first);
        CAPTURE(key.second);
        theirs.push_back(num(in, "skew_ns"));
        auto it = mine.find(key);
        if (it == mine.end()) {
            FAIL_CHECK("no such collective");
            continue;
        }
        CHECK(num(in, "first_arrival_ns") == it->second.first);
        CHECK(num(in, "skew_ns") == it->second.skew);
        CHECK_MESSAGE(it->second.last.count(text(in, "last_device")),
                      "last device " << text(in, "last_device"));
    }
    CHECK_MESSAGE(theirs == skews, "instances are not the top 20 by skew, in descending order");
    if (ties) return mine; // who arrived last is then a choice: the per-device figures are not checked
    for (const auto& [id, n] : taking) {
        CAPTURE(id);
        const json& d = entry(at(c, "devices"), "device", id);
        CHECK(num(d, "last_count") == lastCount[id]);
        CHECK(num(d, "wait_caused_ns") == wait[id]);
        checkNumber(at(d, "last_percent"),
                    100.0 * static_cast<double>(lastCount[id]) / static_cast<double>(n), "last_percent");
    }
    return mine;
}

// ---- Kernel overlap: instances of each compute kernel beginning in the window, split by whether they run
// for > 0 ns together with communication (NCCL kernels or memory operations) on their device.
struct Split {
    std::vector<std::int64_t> overlapped, alone;
};
std::map<std::string, Split> overlapSplit(const Rows& rows) {
    std::map<std::string, Split> out;
    for (const auto& [id, g] : rows.gpus) {
        auto comm = merged(concat({&g.act.nccl, &g.act.memory}), -kNever, kNever);
        for (const auto& k : g.compute) {
            if (k.begin < rows.windowBegin || k.begin >= rows.windowEnd) continue;
            auto c =
                std::partition_point(comm.begin(), comm.end(), [&](auto& x) { return x.second <= k.begin; });
            bool overlapped = c != comm.end() && std::min(k.end, c->second) > std::max(k.begin, c->first);
            (overlapped ? out[k.name].overlapped : out[k.name].alone).push_back(k.end - k.begin);
        }
    }
    return out;
}

void checkGroup(const json& g, std::vector<std::int64_t> v, const char* what) {
    CAPTURE(what);
    if (v.empty()) {
        CHECK_MESSAGE(g.is_null(), "expected null, got " << g.dump());
        return;
    }
    std::sort(v.begin(), v.end());
    const auto n = static_cast<std::int64_t>(v.size());
    CHECK(num(g, "instances") == n);
    CHECK(num(g, "total_ns") == sum(v));
    checkNumber(at(g, "avg_ns"), static_cast<double>(sum(v)) / static_cast<double>(n), "avg_ns");
    checkNumber(at(g, "med_ns"), median(v), "med_ns");
    CHECK(num(g, "min_ns") == v.front());
    CHECK(num(g, "max_ns") == v.back());
}

void checkKernelOverlap(const json& list, const std::map<std::string, Split>& split) {
    REQUIRE(list.is_array());
    std::vector<std::int64_t> totals;
    for (const auto& [name, s] : split) totals.push_back(sum(s.overlapped) + sum(s.alone));
    std::sort(totals.rbegin(), totals.rend());
    CHECK(list.size() == std::min<std::size_t>(totals.size(), 20));
    const std::int64_t cut = totals.size() > 20 ? totals[19] : 0;
    std::int64_t previous = kNever;
    for (const auto& e : list) {
        auto name = text(e, "name");
        CAPTURE(name);
        auto it = split.find(name);
        if (it == split.end()) {
            FAIL_CHECK("not a compute kernel of the window");
            continue;
        }
        const Split& s = it->second;
        const std::int64_t total = sum(s.overlapped) + sum(s.alone);
        CHECK_MESSAGE(total >= cut, "not among the top 20 by total time");
        CHECK_MESSAGE(total <= previous, "not sorted by total time");
        previous = total;
        checkGroup(at(e, "overlapped"), s.overlapped, "overlapped");
        checkGroup(at(e, "alone"), s.alone, "alone");
        checkNumber(at(e, "slowdown"),
                    s.overlapped.empty() || s.alone.empty() ? std::nullopt
                                                            : ratio(median(s.overlapped), median(s.alone)),
                    "slowdown");
    }
}

// ---- Running gpueff: all inputs as one run; report.json checked against the schema.
json analyzeRun(const std::vector<fs::path>& dbs, const std::string& extra, const std::string& tag) {
    auto dir = tempDir("levels-oracle-" + tag);
    std::string cmd = quoted(gpueffBinary()) + " analyze";
    for (const auto& db : dbs) cmd += " " + quoted(db);
    cmd += " -o " + quoted(dir / "out") + " -q " + extra;
    auto r = run(cmd);
    REQUIRE_MESSAGE(r.exitCode == 0, cmd << " exited with " << r.exitCode << ":\n" << r.output);
    std::ifstream in(dir / "out" / "report.json");
    REQUIRE_MESSAGE(in.good(), "no report.json");
    json report = json::parse(in);
    auto violation = reportSchemaViolation(report);
    CHECK_MESSAGE(violation.empty(), "report.json does not follow docs/report.schema.json: " << violation);
    return report;
}

const fs::path kPower = dataDir() / "nsys" / "power_iteration_t4.sqlite";
const fs::path kMfu = dataDir() / "nsys" / "mfu_2gpu_h100_nccl.sqlite";

} // namespace

TEST_CASE("levels oracle: power_iteration_t4 iterations are its 'Step N to M' markers projected on the GPU") {
    auto report = analyzeRun({kPower}, "", "power-markers");
    auto rows = loadRows(report, {kPower});
    auto markers = markersOf(rows, kDefaultPattern);
    REQUIRE(markers.size() == 1);
    REQUIRE(markers.begin()->second.size() == 44);
    auto ours = project(rows, markers); // 44 minus those that launched nothing
    const json& detection = at(report, "iteration_detection");
    CHECK(text(detection, "source") == "markers");
    CHECK(text(detection, "placement") == "gpu-projection");
    CHECK(at(detection, "pattern").is_string());
    CHECK(num(detection, "count") == static_cast<std::int64_t>(ours.size()));
    std::int64_t tasks44 = 0;
    for (const auto& t : at(detection, "markers_per_task")) tasks44 += num(t, "count") == 44;
    CHECK_MESSAGE(tasks44 == 1, "markers_per_task: " << at(detection, "markers_per_task").dump());
    checkProjection(report, rows, ours);
    checkIterations(report, rows, true);
    checkPhases(report, rows, phasesOf(rows, ours));
    checkCollectives(at(report, "collectives"), rows); // no NCCL: nothing matched
    checkKernelOverlap(at(report, "kernel_overlap"), overlapSplit(rows));
}

TEST_CASE(
    "levels oracle: synthetic 2-rank run (levels_rank0/1.sql): warm-up, phases, straggler, collectives") {
    auto dir = tempDir("levels-oracle-synthetic-db");
    std::vector<fs::path> dbs;
    for (std::string r : {"levels_rank0", "levels_rank1"})
        dbs.push_back(
            buildDatabase(sourceDir() / "data" / "synthetic" / (r + ".sql"), dir / (r + ".sqlite")));
    auto report = analyzeRun(dbs, "", "synthetic");
    auto rows = loadRows(report, dbs);
    REQUIRE(rows.gpus.size() == 2);
    REQUIRE(rows.idsOfInput.at(1).size() == 1);
    const std::string rank1 = rows.idsOfInput[1][0];
    const std::int64_t offset = num(at(report, "inputs")[0], "offset_ns"); // the same for both (same start)

    // The oracle against the values worked out by hand in levels_rank0.sql.
    auto ours = project(rows, markersOf(rows, kDefaultPattern));
    REQUIRE(ours.size() == 6);
    for (std::size_t k = 0; k < 6; ++k)
        CHECK(ours[k].begin - offset == (k == 0 ? 11000 : 41000 + 10000 * static_cast<std::int64_t>(k - 1)));
    CHECK(ours[5].end - offset == 90900);
    CHECK(statuses(ours) ==
          std::vector<std::string>{"warm-up", "steady", "steady", "steady", "steady", "steady"});
    auto phases = phasesOf(rows, ours);
    std::map<std::string, std::int64_t> times;
    for (const auto& [name, p] : phases)
        for (auto [b, e] : p.windows) times[name] += e - b;
    CHECK(times ==
          std::map<std::string, std::int64_t>{{"forward", 10000}, {"backward", 23500}, {"optimizer", 16000}});
    auto split = overlapSplit(rows);
    const Split& gemm = split["ampere_sgemm_128x64_tn"];
    CHECK(gemm.overlapped.size() == 6);
    CHECK(gemm.alone.size() == 30);
    CHECK(median(gemm.overlapped) == 2000);
    CHECK(median(gemm.alone) == 1500);
    CHECK(split["vectorized_elementwise_kernel"].overlapped.empty());

    // report.json against the oracle.
    const json& detection = at(report, "iteration_detection");
    CHECK(text(detection, "source") == "markers");
    CHECK(text(detection, "placement") == "gpu-projection");
    CHECK(num(detection, "count") == 6);
    CHECK(num(detection, "steady") == 5);
    CHECK(at(detection, "markers_per_task").size() == 2);
    for (const auto& t : at(detection, "markers_per_task")) CHECK(num(t, "count") == 6);
    checkProjection(report, rows, ours);
    checkIterations(report, rows, true);
    for (const auto& it : at(report, "iterations")) {
        CAPTURE(text(it, "name"));
        CHECK(text(at(it, "straggler"), "device") == rank1);
    }
    std::vector<std::string> names;
    for (const auto& p : at(report, "phases")) {
        names.push_back(text(p, "name"));
        CHECK(num(p, "iterations") == 5);
    }
    CHECK(names == std::vector<std::string>{"forward", "backward", "optimizer"});
    checkPhases(report, rows, phases);

    auto collectives = checkCollectives(at(report, "collectives"), rows);
    REQUIRE(collectives.size() == 6);
    std::int64_t skews = 0;
    for (const auto& [key, c] : collectives) {
        CHECK(c.last == std::set<std::string>{rank1});
        skews += c.skew;
    }
    CHECK(skews == 5400 + 5 * 1800);
    for (const auto& in : at(at(report, "collectives"), "instances")) CHECK(text(in, "last_device") == rank1);
    CHECK(num(entry(at(at(report, "collectives"), "devices"), "device", rank1), "last_count") == 6);

    checkKernelOverlap(at(report, "kernel_overlap"), split);
    const json& g = entry(at(report, "kernel_overlap"), "name", "ampere_sgemm_128x64_tn");
    CHECK(at(g, "overlapped").is_object());
    CHECK(at(g, "alone").is_object());
}

TEST_CASE("levels oracle: power_iteration_t4 with --iterations-from gpu agrees with its markers") {
    auto report = analyzeRun({kPower}, "--iterations-from gpu", "power-gpu");
    auto rows = loadRows(report, {kPower});
    auto marked = project(rows, markersOf(rows, kDefaultPattern));
    REQUIRE(marked.size() >= 2);
    const json& detection = at(report, "iteration_detection");
    CHECK(text(detection, "source") == "detected");
    CHECK(text(detection, "placement") == "gpu-sequence");
    CHECK(at(detection, "anchor").is_string());
    const json& its = at(report, "iterations");
    std::vector<std::int64_t> begins;
    for (std::size_t i = 0; i < its.size(); ++i) {
        CHECK(text(its[i], "name") == "iteration " + std::to_string(i));
        begins.push_back(num(its[i], "begin_ns"));
    }
    CHECK(its.size() >= marked.size());
    if (its.size() > marked.size())
        CHECK_MESSAGE(!at(detection, "notes").empty(),
                      "a finer unit than the markers, and no note says how many");
    // Every marker boundary B_k (k >= 1) within 2 % of that marker iteration's length of a detected begin.
    for (std::size_t k = 1; k < marked.size(); ++k) {
        const auto b = marked[k].begin;
        const double tolerance = 0.02 * static_cast<double>(marked[k].end - marked[k].begin);
        std::int64_t nearest = kNever;
        for (auto x : begins) nearest = std::min(nearest, x > b ? x - b : b - x);
        CHECK_MESSAGE(static_cast<double>(nearest) <= tolerance,
                      "marker iteration " << k << " begins at " << b << ", nearest detected begin " << nearest
                                          << " ns away");
    }
    checkIterations(report, rows, true);
}

TEST_CASE(
    "levels oracle: mfu_2gpu_h100_nccl (no step markers) detects iterations: collectives, kernel overlap") {
    auto report = analyzeRun({kMfu}, "", "mfu");
    auto rows = loadRows(report, {kMfu});
    REQUIRE(rows.gpus.size() == 2);
    REQUIRE(markersOf(rows, kDefaultPattern).empty()); // the premise: no NVTX range matches the default
    CHECK(text(at(report, "iteration_detection"), "source") == "detected");
    CHECK_FALSE(at(report, "iterations").empty());
    checkIterations(report, rows, true);
    CHECK(checkCollectives(at(report, "collectives"), rows).size() ==
          33); // ncclDevKernel_SendRecv, 33 per GPU
    checkKernelOverlap(at(report, "kernel_overlap"), overlapSplit(rows));
}

TEST_CASE("levels oracle: --iterations with a pattern no marker matches falls back to detection") {
    auto report = analyzeRun({kPower}, "--iterations 'no_such_marker_xyz'", "power-nomatch");
    auto rows = loadRows(report, {kPower});
    REQUIRE(markersOf(rows, "no_such_marker_xyz").empty());
    const json& detection = at(report, "iteration_detection");
    CHECK(text(detection, "source") == "detected");
    CHECK_FALSE(at(detection, "notes").empty()); // says that no marker matched
    const json& its = at(report, "iterations");
    CHECK(its.size() >= markersOf(rows, kDefaultPattern).begin()->second.size());
    for (std::size_t i = 0; i + 1 < its.size(); ++i)
        CHECK(num(its[i], "end_ns") == num(its[i + 1], "begin_ns"));
}
