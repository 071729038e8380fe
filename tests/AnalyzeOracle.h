#pragma once
// The SQL side of the `gpueff analyze` oracles (test_analyze_oracle*.cpp): loading GPU activity from an
// export and deliberately naive interval code (sort + merge, endpoint sweeps), written without gpueff's
// engine or metrics so that a shared mistake cannot hide. Also runs the binary and reads report.json.
#include "tests/TestSupport.h"

#include <cstdint>
#include <filesystem>
#include <functional>
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

// The statistics nsys stats prints of a set of durations (or sizes): sample standard deviation, 0 for one
// value.
struct Stats {
    std::int64_t total = 0, instances = 0, min = 0, max = 0;
    double avg = 0, med = 0, stddev = 0;
};
Stats stats(std::vector<std::int64_t> values);

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
// The same with several inputs, into `dir` (made fresh by the caller: its .prv is read afterwards).
nlohmann::json analyzeInto(const std::vector<std::filesystem::path>& inputs, const std::filesystem::path& dir,
                           const std::string& extraArgs = "");

// The checks of report.json that need only the GPU activity of each device, whatever the input it came from
// (an nsys export read with SQL, a Kineto trace read as JSON): default window, device ids, per-device unions
// and both conventions' factors, kernels in flight, overlap, gaps (count, total, by duration), NCCL overlap,
// the executive summary's losses, kernel categories and the kernel summary. Trace time = the devices' time +
// `offset` (inputs[].offset_ns; devices already in trace time with 0). Returns the window [lo, hi) in the
// devices' time, for checks particular to one kind of input.
using DeviceIdOf = std::function<std::string(const DeviceKey&)>;
Interval checkDeviceModel(const nlohmann::json& report, const std::map<DeviceKey, Device>& devices,
                          const DeviceIdOf& idOf, std::int64_t offset);

using testsupport::realExports;

} // namespace analyzeoracle
