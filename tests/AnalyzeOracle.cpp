#include "tests/AnalyzeOracle.h"

#include "tests/TestSupport.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <doctest/doctest.h>
#include <fstream>
#include <limits>
#include <set>

using namespace testsupport;
using nlohmann::json;

namespace analyzeoracle {

namespace {

// Sentinels for absent keys: the schema check reports the absence, the comparisons then fail on a value
// instead of hitting nlohmann's assertion on a missing key of a const object.
constexpr std::int64_t kMissing = -1;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const json& at(const json& o, const std::string& key) {
    static const json none;
    return o.is_object() && o.contains(key) ? o[key] : none;
}

bool near(double a, double b, double rel) {
    return std::fabs(a - b) <= rel * std::max(std::fabs(a), std::fabs(b)) + 1e-300;
}

#define CHECK_NEAR(a, b, rel) CHECK_MESSAGE(near((a), (b), (rel)), #a " = " << (a) << " vs " #b " = " << (b))

void checkKernelRows(const json& rows, const std::map<std::string, std::vector<std::int64_t>>& durations,
                     const std::string& what) {
    CAPTURE(what);
    REQUIRE(rows.is_array());
    std::int64_t grand = 0;
    for (const auto& [name, v] : durations)
        for (auto x : v) grand += x;
    CHECK(rows.size() == durations.size());
    std::set<std::string> seen;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        auto name = r.value("name", std::string());
        CAPTURE(name);
        CHECK_MESSAGE(seen.insert(name).second, "kernel listed twice");
        if (i > 0)
            CHECK_MESSAGE(rows[i - 1].value("total_ns", kMissing) >= r.value("total_ns", kMissing),
                          "rows not sorted by total time");
        auto it = durations.find(name);
        if (it == durations.end()) {
            FAIL_CHECK("kernel name not in the export");
            continue;
        }
        auto s = stats(it->second);
        CHECK(r.value("total_ns", kMissing) == s.total);
        CHECK(r.value("instances", kMissing) == s.instances);
        CHECK(r.value("min_ns", kMissing) == s.min);
        CHECK(r.value("max_ns", kMissing) == s.max);
        CHECK_NEAR(r.value("avg_ns", kNaN), s.avg, 1e-9);
        CHECK_NEAR(r.value("med_ns", kNaN), s.med, 1e-9);
        CHECK_MESSAGE(std::fabs(r.value("stddev_ns", kNaN) - s.stddev) <= 1e-9 * s.avg,
                      r.value("stddev_ns", kNaN) << " vs " << s.stddev);
        CHECK_NEAR(r.value("time_percent", kNaN),
                   100.0 * static_cast<double>(s.total) / static_cast<double>(grand), 1e-9);
    }
}

} // namespace

Stats stats(std::vector<std::int64_t> v) {
    std::sort(v.begin(), v.end());
    Stats s;
    s.instances = static_cast<std::int64_t>(v.size());
    for (auto x : v) s.total += x;
    s.min = v.front(), s.max = v.back();
    s.avg = static_cast<double>(s.total) / static_cast<double>(v.size());
    std::size_t m = v.size() / 2;
    s.med = v.size() % 2 ? static_cast<double>(v[m])
                         : (static_cast<double>(v[m - 1]) + static_cast<double>(v[m])) / 2;
    double ss = 0;
    for (auto x : v) ss += (static_cast<double>(x) - s.avg) * (static_cast<double>(x) - s.avg);
    s.stddev =
        v.size() > 1 ? std::sqrt(ss / static_cast<double>(v.size() - 1)) : 0.0; // nsys prints 0 for one
    return s;
}

bool hasTable(const std::filesystem::path& db, const std::string& t) {
    return queryInt(db, "SELECT count(*) FROM sqlite_master WHERE name='" + t + "'") > 0;
}
bool hasColumn(const std::filesystem::path& db, const std::string& t, const std::string& c) {
    return queryInt(db, "SELECT count(*) FROM pragma_table_info('" + t + "') WHERE name='" + c + "'") > 0;
}

// docs/events.md, 63000007: a collective kernel is NCCL's ("nccl") or ROCm RCCL's ("rccl"), any case.
bool isNccl(std::string name) {
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return name.find("nccl") != std::string::npos || name.find("rccl") != std::string::npos;
}

std::map<DeviceKey, Device> loadDevices(const std::filesystem::path& db) {
    std::map<DeviceKey, Device> out;
    const std::string pidDev = "(globalPid >> 24) & 16777215, deviceId";
    const std::string kernelTable = "CUPTI_ACTIVITY_KIND_KERNEL";
    if (hasTable(db, kernelTable)) {
        std::string nameColumn = hasColumn(db, kernelTable, "demangledName") ? "demangledName" : "shortName";
        for (const auto& r : query(db, "SELECT start, end, " + pidDev + ", s.value FROM " + kernelTable +
                                           " k LEFT JOIN StringIds s ON s.id = k." + nameColumn)) {
            auto& d = out[{std::stoll(r[2]), std::stoll(r[3])}];
            Interval iv{std::stoll(r[0]), std::stoll(r[1])};
            (isNccl(r[4]) ? d.nccl : d.compute).push_back(iv);
            if (isNccl(r[4])) d.ncclRuns[r[4]].push_back(iv);
            d.durations[r[4]].push_back(iv.second - iv.first);
            ++d.kernels;
        }
    }
    if (hasTable(db, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"))
        for (const auto& r :
             query(db, "SELECT start, end, " + pidDev + " FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE"))
            out[{std::stoll(r[2]), std::stoll(r[3])}].compute.push_back({std::stoll(r[0]), std::stoll(r[1])});
    for (const char* t : {"CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"}) {
        if (!hasTable(db, t)) continue;
        for (const auto& r : query(db, "SELECT start, end, " + pidDev + " FROM " + t)) {
            auto& d = out[{std::stoll(r[2]), std::stoll(r[3])}];
            d.memory.push_back({std::stoll(r[0]), std::stoll(r[1])});
            ++d.memoryOperations;
        }
    }
    return out;
}

Intervals concat(std::initializer_list<const Intervals*> parts) {
    Intervals all;
    for (const auto* p : parts) all.insert(all.end(), p->begin(), p->end());
    return all;
}

Intervals merged(Intervals v, std::int64_t lo, std::int64_t hi) {
    Intervals out;
    for (auto& [b, e] : v) b = std::max(b, lo), e = std::min(e, hi);
    std::sort(v.begin(), v.end());
    for (auto [b, e] : v) {
        if (e <= b) continue;
        if (!out.empty() && b <= out.back().second)
            out.back().second = std::max(out.back().second, e);
        else
            out.push_back({b, e});
    }
    return out;
}

std::int64_t length(const Intervals& v, std::int64_t lo, std::int64_t hi) {
    std::int64_t n = 0;
    for (auto [b, e] : merged(v, lo, hi)) n += e - b;
    return n;
}

std::map<std::int64_t, std::int64_t> timeByCount(const Intervals& all, std::int64_t lo, std::int64_t hi,
                                                 const Intervals* gate) {
    std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> delta{{lo, {0, 0}}, {hi, {0, 0}}};
    auto add = [&](const Intervals& v, bool isGate) {
        for (auto [b, e] : v) {
            b = std::max(b, lo), e = std::min(e, hi);
            if (e <= b) continue;
            (isGate ? delta[b].second : delta[b].first) += 1;
            (isGate ? delta[e].second : delta[e].first) -= 1;
        }
    };
    add(all, false);
    if (gate) add(*gate, true);
    std::map<std::int64_t, std::int64_t> out;
    std::int64_t count = 0, gates = 0, prev = lo;
    for (const auto& [t, d] : delta) {
        if (t > prev && (!gate || gates > 0)) out[count] += t - prev;
        count += d.first, gates += d.second, prev = t;
    }
    return out;
}

void checkHistogram(const json& h, const std::map<std::int64_t, std::int64_t>& ours,
                    const std::string& what) {
    CAPTURE(what);
    REQUIRE(h.is_object());
    for (const auto& [key, value] : h.items()) {
        auto it = ours.find(std::stoll(key));
        CHECK_MESSAGE(value.get<std::int64_t>() == (it == ours.end() ? 0 : it->second), "count " << key);
    }
    for (const auto& [k, t] : ours)
        if (t > 0) CHECK_MESSAGE(h.contains(std::to_string(k)), "count " << k << " (" << t << " ns) missing");
}

const json* findBy(const json& array, const char* key, const std::string& value) {
    for (const auto& e : array)
        if (e.contains(key) && e[key] == value) return &e;
    return nullptr;
}

json analyze(const std::filesystem::path& db, const std::string& extraArgs, const std::string& tag) {
    return analyzeInto({db}, tempDir("analyze-oracle-" + db.stem().string() + tag), extraArgs);
}

json analyzeInto(const std::vector<std::filesystem::path>& inputs, const std::filesystem::path& dir,
                 const std::string& extraArgs) {
    std::string names, paths;
    for (const auto& p : inputs)
        names += (names.empty() ? "" : " ") + p.filename().string(), paths += " " + p.string();
    auto r = run(gpueffBinary().string() + " analyze" + paths + " -o " + dir.string() +
                 (extraArgs.empty() ? "" : " " + extraArgs));
    REQUIRE_MESSAGE(r.exitCode == 0, "gpueff analyze " << names << " " << extraArgs << " exited with "
                                                       << r.exitCode
                                                       << " (is the analyze subcommand built?):\n"
                                                       << r.output);
    std::ifstream in(dir / "report.json");
    REQUIRE_MESSAGE(in.good(), "gpueff analyze exited 0 but wrote no " << (dir / "report.json").string());
    json report;
    try {
        report = json::parse(in);
    } catch (const std::exception& e) {
        FAIL("report.json is not valid JSON: " << e.what());
    }
    auto violation = reportSchemaViolation(report);
    CHECK_MESSAGE(violation.empty(), "report.json does not follow docs/report.schema.json: " << violation);
    return report;
}

Interval checkDeviceModel(const json& report, const std::map<DeviceKey, Device>& devices,
                          const DeviceIdOf& idOf, std::int64_t offset) {
    REQUIRE(!devices.empty());
    // Window: first start to last end of all GPU activity, in export time [lo, hi).
    std::int64_t lo = std::numeric_limits<std::int64_t>::max(), hi = std::numeric_limits<std::int64_t>::min();
    for (const auto& [key, d] : devices)
        for (const auto& iv : concat({&d.compute, &d.nccl, &d.memory}))
            lo = std::min(lo, iv.first), hi = std::max(hi, iv.second);
    const std::int64_t T = hi - lo;
    const auto& w = at(report, "window");
    CHECK(w.value("source", std::string()) == "gpu-activity");
    CHECK(w.value("duration_ns", kMissing) == T);
    CHECK(w.value("begin_ns", kMissing) == lo + offset);
    CHECK(w.value("end_ns", kMissing) == hi + offset);

    std::set<std::string> ourIds, theirIds;
    for (const auto& [key, d] : devices) ourIds.insert(idOf(key));
    for (const auto& d : at(report, "devices")) theirIds.insert(d.value("id", std::string()));
    CHECK(ourIds == theirIds);

    // Per convention: U, A per device, then the multiplicative model.
    struct Model {
        std::int64_t sumU = 0, maxU = 0, maxA = 0;
        std::map<std::string, std::pair<std::int64_t, std::int64_t>> ua; // id -> (U, A)
    };
    std::map<std::string, Model> models;
    for (const auto& [key, d] : devices) {
        auto id = idOf(key);
        auto a = length(concat({&d.compute, &d.nccl, &d.memory}), lo, hi);
        for (auto [conv, useful] : {std::pair{"nccl_as_communication", concat({&d.compute})},
                                    std::pair{"nccl_as_useful", concat({&d.compute, &d.nccl})}}) {
            auto& m = models[conv];
            auto u = length(useful, lo, hi);
            m.ua[id] = {u, a};
            m.sumU += u, m.maxU = std::max(m.maxU, u), m.maxA = std::max(m.maxA, a);
        }

        CAPTURE(id);
        const json* dev = findBy(at(report, "devices"), "id", id);
        if (!dev) continue; // already reported by the id sets
        auto [u, aa] = models["nccl_as_communication"].ua[id];
        CHECK(dev->value("useful_ns", kMissing) == u);
        CHECK(dev->value("communication_ns", kMissing) == aa - u);
        CHECK(dev->value("idle_ns", kMissing) == T - aa);
        CHECK(dev->value("compute_ns", kMissing) == length(d.compute, lo, hi));
        CHECK(dev->value("nccl_ns", kMissing) == length(d.nccl, lo, hi));
        CHECK(dev->value("memory_ns", kMissing) == length(d.memory, lo, hi));
        CHECK(dev->value("kernels", kMissing) == d.kernels);
        CHECK(dev->value("memory_operations", kMissing) == d.memoryOperations);
        CHECK(dev->value("gpu", kMissing) == key.second);

        auto kernelsOnly = concat({&d.compute, &d.nccl});
        auto everything = concat({&d.compute, &d.nccl, &d.memory});
        auto communication = concat({&d.nccl, &d.memory});
        if (const json* k = findBy(at(report, "kernels_in_flight"), "device", id)) {
            auto hist = timeByCount(kernelsOnly, lo, hi);
            checkHistogram(at(*k, "time_ns_by_count"), hist, "kernels_in_flight");
            checkHistogram(at(*k, "with_memory_time_ns_by_count"), timeByCount(everything, lo, hi),
                           "kernels_in_flight with memory");
            std::int64_t sum = 0, maximum = 0;
            double weighted = 0;
            for (const auto& [n, t] : hist) {
                sum += t, weighted += static_cast<double>(n) * static_cast<double>(t);
                if (t > 0) maximum = std::max(maximum, n);
            }
            CHECK(sum == T);
            CHECK(k->value("maximum", kMissing) == maximum);
            CHECK_NEAR(k->value("mean", kNaN), weighted / static_cast<double>(T), 1e-9);
        } else {
            FAIL_CHECK("no kernels_in_flight entry");
        }

        if (const json* o = findBy(at(report, "overlap"), "device", id)) {
            auto comm = length(communication, lo, hi);
            auto hist = timeByCount(everything, lo, hi, &communication);
            checkHistogram(at(*o, "time_ns_by_concurrency"), hist, "overlap");
            std::int64_t sum = 0;
            for (const auto& [n, t] : hist) sum += t;
            CHECK(sum == comm);
            CHECK(o->value("communication_ns", kMissing) == comm);
            for (const auto& [n, t] : hist) {
                if (t == 0) continue;
                auto key_ = std::to_string(n);
                CAPTURE(key_);
                CHECK_NEAR(at(*o, "fraction_of_communication").value(key_, -1.0),
                           static_cast<double>(t) / static_cast<double>(comm), 1e-9);
                CHECK_NEAR(at(*o, "fraction_of_window").value(key_, -1.0),
                           static_cast<double>(t) / static_cast<double>(T), 1e-9);
            }
        } else {
            FAIL_CHECK("no overlap entry");
        }

        if (const json* g = findBy(at(report, "gaps"), "device", id)) {
            auto busy = merged(everything, lo, hi);
            std::int64_t count = 0, total = 0;
            for (std::size_t i = 1; i < busy.size(); ++i)
                ++count, total += busy[i].first - busy[i - 1].second;
            CHECK(g->value("count", kMissing) == count);
            CHECK(g->value("total_ns", kMissing) == total);
            // host-wait and kernel-wait split every gap in two classes.
            CHECK(g->value("host_wait_count", kMissing) + g->value("kernel_wait_count", kMissing) == count);
            CHECK(g->value("host_wait_ns", kMissing) + g->value("kernel_wait_ns", kMissing) == total);
            // by_duration: each gap in the bin whose [lower, upper) holds its length, as the bins state them.
            const json& bins = at(*g, "by_duration");
            REQUIRE(bins.is_array());
            REQUIRE(!bins.empty());
            std::vector<std::int64_t> binCount(bins.size(), 0), binTime(bins.size(), 0);
            for (std::size_t i = 1; i < busy.size(); ++i) {
                auto gap = busy[i].first - busy[i - 1].second;
                std::size_t hits = 0;
                for (std::size_t b = 0; b < bins.size(); ++b) {
                    auto lower = bins[b].value("lower_ns", kMissing);
                    bool below =
                        bins[b]["upper_ns"].is_null() || gap < bins[b]["upper_ns"].get<std::int64_t>();
                    if (gap >= lower && below) ++hits, ++binCount[b], binTime[b] += gap;
                }
                CHECK_MESSAGE(hits == 1, "gap of " << gap << " ns in " << hits << " bins");
            }
            for (std::size_t b = 0; b < bins.size(); ++b) {
                CHECK(bins[b].value("count", kMissing) == binCount[b]);
                CHECK(bins[b].value("time_ns", kMissing) == binTime[b]);
            }
        } else {
            FAIL_CHECK("no gaps entry");
        }

        // nccl_overlap: per NCCL kernel name, the part of its executions covered by compute or memory.
        if (!d.ncclRuns.empty()) {
            auto others = merged(concat({&d.compute, &d.memory}), lo, hi);
            for (const auto& [name, runs] : d.ncclRuns) {
                CAPTURE(name);
                const json* entry = nullptr;
                if (report.contains("nccl_overlap"))
                    for (const auto& e : at(report, "nccl_overlap"))
                        if (at(e, "device") == id && at(e, "kernel") == name) entry = &e;
                if (!entry) {
                    FAIL_CHECK("no nccl_overlap entry");
                    continue;
                }
                std::int64_t time = 0, covered = 0;
                for (auto [b, e] : runs) {
                    time += e - b;
                    for (auto [ob, oe] : others)
                        covered += std::max<std::int64_t>(0, std::min(e, oe) - std::max(b, ob));
                }
                CHECK(entry->value("instances", kMissing) == static_cast<std::int64_t>(runs.size()));
                CHECK(entry->value("time_ns", kMissing) == time);
                CHECK(entry->value("overlapped_ns", kMissing) == covered);
            }
        }
    }

    // The executive summary: n T - sum U split among the factors (NCCL as communication).
    {
        const auto& m = models["nccl_as_communication"];
        const auto nDev = static_cast<std::int64_t>(devices.size());
        const json& summary = at(report, "summary");
        CHECK(summary.value("device_time_ns", kMissing) == nDev * T);
        CHECK(summary.value("lost_ns", kMissing) == nDev * T - m.sumU);
        std::map<std::string, std::int64_t> lost = {{"orchestration", nDev * (T - m.maxA)},
                                                    {"communication", nDev * (m.maxA - m.maxU)},
                                                    {"load balance", nDev * m.maxU - m.sumU}};
        CHECK(at(summary, "losses").size() == lost.size());
        std::int64_t previous = std::numeric_limits<std::int64_t>::max();
        for (const auto& l : at(summary, "losses")) {
            auto factor = l.value("factor", std::string());
            CAPTURE(factor);
            REQUIRE(lost.count(factor));
            CHECK(l.value("lost_ns", kMissing) == lost[factor]);
            CHECK_MESSAGE(l.value("lost_ns", kMissing) <= previous, "losses not largest first");
            previous = l.value("lost_ns", kMissing);
        }
    }
    // Kernel categories: every kernel in exactly one (their times add up to all kernel time), memory apart.
    {
        std::int64_t kernels = 0, memory = 0, categorised = 0, memoryCategory = 0;
        for (const auto& [key, d] : devices) {
            for (const auto& [name, v] : d.durations)
                for (auto x : v) kernels += x;
            memory += length(d.memory, lo, hi);
        }
        for (const auto& c : at(report, "kernel_categories"))
            (c.value("category", std::string()) == "memory" ? memoryCategory : categorised) +=
                c.value("time_ns", kMissing);
        CHECK(categorised == kernels);
        CHECK(memoryCategory == memory);
    }
    const auto n = static_cast<double>(devices.size());
    for (const auto& [conv, m] : models) {
        CAPTURE(conv);
        const auto& e = at(at(report, "efficiency"), conv);
        for (const char* k :
             {"parallel_efficiency", "load_balance", "communication_efficiency", "orchestration_efficiency"})
            REQUIRE_MESSAGE(e[k].is_number(), k << " is not a number on an export where it is defined");
        CHECK(e.value("useful_sum_ns", kMissing) == m.sumU);
        CHECK(e.value("useful_max_ns", kMissing) == m.maxU);
        CHECK(e.value("active_max_ns", kMissing) == m.maxA);
        auto sumU = static_cast<double>(m.sumU), maxU = static_cast<double>(m.maxU),
             maxA = static_cast<double>(m.maxA);
        CHECK_NEAR(e.value("parallel_efficiency", kNaN), sumU / (n * static_cast<double>(T)), 1e-9);
        if (m.maxU > 0) CHECK_NEAR(e.value("load_balance", kNaN), sumU / (n * maxU), 1e-9);
        CHECK_NEAR(e.value("communication_efficiency", kNaN), maxU / maxA, 1e-9);
        CHECK_NEAR(e.value("orchestration_efficiency", kNaN), maxA / static_cast<double>(T), 1e-9);
        CHECK_NEAR(e.value("parallel_efficiency", kNaN),
                   e.value("load_balance", kNaN) * e.value("communication_efficiency", kNaN) *
                       e.value("orchestration_efficiency", kNaN),
                   1e-12);
        CHECK(at(e, "devices").size() == m.ua.size());
        for (const auto& [id, ua] : m.ua) {
            CAPTURE(id);
            const json* d = findBy(at(e, "devices"), "id", id);
            if (!d) {
                FAIL_CHECK("device missing from the convention's devices");
                continue;
            }
            CHECK(d->value("useful_ns", kMissing) == ua.first);
            CHECK(d->value("communication_ns", kMissing) == ua.second - ua.first);
            CHECK(d->value("idle_ns", kMissing) == T - ua.second);
        }
    }

    // Kernel summary: whole export (not clipped), kernels only.
    std::map<std::string, std::vector<std::int64_t>> overall;
    for (const auto& [key, d] : devices)
        for (const auto& [name, v] : d.durations)
            overall[name].insert(overall[name].end(), v.begin(), v.end());
    checkKernelRows(at(at(report, "kernel_summary"), "overall"), overall, "kernel_summary overall");
    for (const auto& [key, d] : devices) {
        if (d.durations.empty()) continue;
        const json* entry = findBy(at(at(report, "kernel_summary"), "devices"), "device", idOf(key));
        if (!entry) {
            FAIL_CHECK("kernel_summary has no rows for " << idOf(key));
            continue;
        }
        checkKernelRows(at(*entry, "rows"), d.durations, "kernel_summary " + idOf(key));
    }
    return {lo, hi};
}

} // namespace analyzeoracle
