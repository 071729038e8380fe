#pragma once
// The SQL side of the `gpueff analyze` oracles (test_analyze_oracle*.cpp): loading GPU activity from an
// export and deliberately naive interval code (sort + merge, endpoint sweeps), written without gpueff's
// engine or metrics so that a shared mistake cannot hide. Also runs the binary and reads report.json.
#include "tests/TestSupport.h"

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace analyzeoracle {

using Interval = std::pair<std::int64_t, std::int64_t>; // [begin, end) in export time
using Intervals = std::vector<Interval>;

struct Device {
    Intervals compute, nccl, memory; // C (kernels + graph launches), N, M
    std::int64_t kernels = 0, memoryOperations = 0;
    std::map<std::string, std::vector<std::int64_t>> durations; // kernel name -> durations
    std::map<std::string, Intervals> ncclRuns;                  // NCCL kernel name -> its executions
};
using DeviceKey = std::pair<std::int64_t, std::int64_t>; // (pid, deviceId)

bool hasTable(const std::filesystem::path& db, const std::string& t);
bool hasColumn(const std::filesystem::path& db, const std::string& t, const std::string& c);
bool isNccl(std::string name);

// (pid, deviceId) -> activity. pid is bits 24..47 of globalPid, as nsys packs it.
std::map<DeviceKey, Device> loadDevices(const std::filesystem::path& db);

Intervals concat(std::initializer_list<const Intervals*> parts);
Intervals merged(Intervals v, std::int64_t lo, std::int64_t hi);
std::int64_t length(const Intervals& v, std::int64_t lo, std::int64_t hi);

// Time of [lo, hi) spent at each number of running intervals of `all`, counted only while at least one
// interval of `gate` runs (every time when gate is null).
std::map<std::int64_t, std::int64_t> timeByCount(const Intervals& all, std::int64_t lo, std::int64_t hi,
                                                 const Intervals* gate = nullptr);

// Every key of the report's histogram must hold our time (0 when we have none) and every count where we
// spend time must be present: a report may or may not list zero bins.
void checkHistogram(const nlohmann::json& h, const std::map<std::int64_t, std::int64_t>& ours,
                    const std::string& what);

const nlohmann::json* findBy(const nlohmann::json& array, const char* key, const std::string& value);

// Runs `gpueff analyze db -o <fresh dir> extraArgs`, checks report.json against docs/report.schema.json
// and returns it. `tag` names the output directory (distinct per call within one test process).
nlohmann::json analyze(const std::filesystem::path& db, const std::string& extraArgs = "",
                       const std::string& tag = "");

using testsupport::realExports;

} // namespace analyzeoracle
