// `gpueff analyze` on every real export in data/nsys: report.json must follow
// docs/report.schema.json, and its numbers must equal what this file recomputes from the SQLite rows with
// SQL and deliberately naive interval code (sort + merge, endpoint sweeps). Nothing here calls gpueff's
// engine or metrics code, so a shared mistake cannot hide. Definitions: ../shared/docs/MODEL.md,
// docs/report.md. The checks that need only each device's activity are shared with the Kineto oracle
// (AnalyzeOracle.cpp, checkDeviceModel); those that read nsys' own tables stay here.
#include "tests/AnalyzeOracle.h"

#include <doctest/doctest.h>
#include <map>
#include <nlohmann/json.hpp>

using namespace analyzeoracle;
using nlohmann::json;
using testsupport::query;
using testsupport::queryInt;

namespace {

// Sentinels for absent keys: the schema check reports the absence, the comparisons then fail on a value
// instead of hitting nlohmann's assertion on a missing key of a const object.
constexpr std::int64_t kMissing = -1;
const json& at(const json& o, const std::string& key) {
    static const json none;
    return o.is_object() && o.contains(key) ? o[key] : none;
}

void checkExport(const std::filesystem::path& db) {
    auto report = analyze(db);
    auto devices = loadDevices(db);
    REQUIRE(!devices.empty());

    REQUIRE(report["inputs"].size() == 1);
    REQUIRE_MESSAGE(report["inputs"][0]["host"].is_string(), "device ids need the host of the input");
    auto host = report["inputs"][0]["host"].get<std::string>();
    auto offset = report["inputs"][0]["offset_ns"].get<std::int64_t>();
    auto idOf = [&](const std::pair<std::int64_t, std::int64_t>& key) {
        return host + ":" + std::to_string(key.first) + ":" + std::to_string(key.second);
    };
    auto [lo, hi] = checkDeviceModel(report, devices, idOf, offset);

    // nsys only, from SQL: memory time by copy kind (union per copy kind, memsets as "Memset") and the
    // kernels whose launch call exists.
    for (const auto& [key, d] : devices) {
        auto id = idOf(key);
        CAPTURE(id);
        const json* dev = findBy(report["devices"], "id", id);
        if (!dev) continue;
        std::map<std::string, Intervals> byKind;
        const std::string where = " WHERE (globalPid >> 24) & 16777215 = " + std::to_string(key.first) +
                                  " AND deviceId = " + std::to_string(key.second);
        // Older exports have no enum table: CUPTI's documented copy kinds then.
        const std::string label =
            hasTable(db, "ENUM_CUDA_MEMCPY_OPER")
                ? "(SELECT label FROM ENUM_CUDA_MEMCPY_OPER e WHERE e.id = m.copyKind)"
                : "CASE m.copyKind WHEN 1 THEN 'Host-to-Device' WHEN 2 THEN 'Device-to-Host' "
                  "WHEN 8 THEN 'Device-to-Device' WHEN 10 THEN 'Peer-to-Peer' END";
        if (hasTable(db, "CUPTI_ACTIVITY_KIND_MEMCPY"))
            for (const auto& r :
                 query(db, "SELECT m.start, m.end, coalesce(" + label +
                               ", 'kind ' || m.copyKind) FROM CUPTI_ACTIVITY_KIND_MEMCPY m" + where))
                byKind[r[2]].push_back({std::stoll(r[0]), std::stoll(r[1])});
        if (hasTable(db, "CUPTI_ACTIVITY_KIND_MEMSET"))
            for (const auto& r : query(db, "SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMSET" + where))
                byKind["Memset"].push_back({std::stoll(r[0]), std::stoll(r[1])});
        std::map<std::string, std::int64_t> expected;
        for (const auto& [kind, v] : byKind)
            if (auto ns = length(v, lo, hi)) expected[kind] = ns;
        std::map<std::string, std::int64_t> got;
        if (const json& m = at(*dev, "memory_by_kind_ns"); m.is_object())
            for (const auto& [kind, ns] : m.items()) got[kind] = ns.get<std::int64_t>();
        CHECK(got == expected);
        if (hasTable(db, "CUPTI_ACTIVITY_KIND_RUNTIME"))
            CHECK(
                dev->value("kernels_with_launch", kMissing) ==
                queryInt(
                    db,
                    "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k" + where +
                        " AND EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE "
                        "r.correlationId = k.correlationId AND (r.globalTid >> 24) = (k.globalPid >> 24))"));
    }
}

} // namespace

TEST_CASE("gpueff analyze oracle: report.json of every real export equals its recomputation from SQL") {
    auto exports = realExports();
    REQUIRE(exports.size() >= 7);
    for (const auto& db : exports) {
        // One subcase per export: a failure in one (REQUIRE included) does not hide the others.
        SUBCASE(db.filename().string().c_str()) {
            checkExport(db);
        }
    }
}
