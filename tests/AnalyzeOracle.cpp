#include "tests/AnalyzeOracle.h"

#include "tests/JsonSchema.h"
#include "tests/TestSupport.h"

#include <algorithm>
#include <cctype>
#include <doctest/doctest.h>
#include <fstream>

using namespace testsupport;
using nlohmann::json;

namespace analyzeoracle {

bool hasTable(const std::filesystem::path& db, const std::string& t) {
    return queryInt(db, "SELECT count(*) FROM sqlite_master WHERE name='" + t + "'") > 0;
}
bool hasColumn(const std::filesystem::path& db, const std::string& t, const std::string& c) {
    return queryInt(db, "SELECT count(*) FROM pragma_table_info('" + t + "') WHERE name='" + c + "'") > 0;
}

bool isNccl(std::string name) {
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return name.find("nccl") != std::string::npos;
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
    auto dir = tempDir("analyze-oracle-" + db.stem().string() + tag);
    auto r = run(gpueffBinary().string() + " analyze " + db.string() + " -o " + dir.string() +
                 (extraArgs.empty() ? "" : " " + extraArgs));
    REQUIRE_MESSAGE(r.exitCode == 0, "gpueff analyze " << db.filename().string() << " " << extraArgs
                                                       << " exited with " << r.exitCode
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
    std::ifstream schemaIn(sourceDir() / "docs" / "report.schema.json");
    auto errors = validateJson(json::parse(schemaIn), report);
    std::string all;
    for (const auto& e : errors) all += e + "\n";
    CHECK_MESSAGE(errors.empty(), "report.json does not follow docs/report.schema.json:\n" << all);
    return report;
}

} // namespace analyzeoracle
