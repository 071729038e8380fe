#pragma once
// The JSON side of the `gpueff analyze` oracles for PyTorch profiler (Kineto) Chrome traces
// (test_kineto_oracle.cpp): what gpueff must make of a `.json`/`.json.gz` trace, recomputed from the raw
// events with deliberately naive code, written from the contract (/work/notes/kineto_contract.md, summarised
// below) without reading gpueff's importer, so that a shared mistake cannot hide.
//
// Contract as read here (where it left a choice, the reading is stated):
// - Times: `ts`/`dur` are microseconds; ns = the decimal value x 1000, rounded half away from zero, from the
//   number's text (a double cannot hold 1.7e15 us at ns resolution). Interval = [ts, ts + dur).
// - One file = one task; its pid is that of the process labelled "CPU" (`process_labels` metadata), else of
//   its first cpu_op / cuda_runtime event. host = top-level `host_name`, else "localhost".
// - GPU activity = events of ph "X" and cat `kernel`, `gpu_memcpy`, `gpu_memset` (reading: only complete
//   events are intervals; every such event of the traces is ph "X"); device = (task pid, args.device).
//   Kernels whose name contains "nccl" (any case) are NCCL (N), other kernels compute (C), memcpy + memset
//   memory (M).
// - Launch lines join a kernel / memcpy / memset to the cuda_runtime or cuda_driver call of the same file
// with
//   the same args.correlation; HTA's host-wait test uses that call's start (the earliest one if several
//   share the id: the outer call, as for nsys exports).
// - HTA's own rules (docs/report.md "HTA's figures as HTA users read them"), read from HTA's source, each
//   replayed alone: (a) with two ProfilerStep#<n> names or more (host ranges: cpu_op, user_annotation,
//   python_function), only the GPU work whose launch call began before the last one began is kept; (b) ts and
//   dur are read as doubles from their JSON text, each start rounded up and each end (ts + dur, in doubles)
//   down, then merged HTA's way (a group opens where a start exceeds every earlier end; inverted intervals
//   count negative); (c) host events with an integer args.stream other than -1 (cpu_op, user_annotation,
//   python_function; cuda_sync whose call exists: the contract keeps those) are GPU work, on the trace's
//   lowest device, compute unless HTA's name rule sets them apart.
#include "tests/AnalyzeOracle.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kinetooracle {

using analyzeoracle::Device;
using analyzeoracle::DeviceKey;
using analyzeoracle::Interval;
using analyzeoracle::Intervals;

// A decimal number of microseconds written as JSON text ("4458676522690.655", "68.0", "1.5e3", "-2") to
// integer nanoseconds, exactly: the decimal point moved three places, rounded half away from zero on the
// first digit dropped. Throws std::invalid_argument on text that is not a JSON number, std::out_of_range
// beyond int64.
std::int64_t microsecondsTextToNs(std::string_view text);

// Parses JSON text into a DOM in which every number with a fraction or an exponent is kept as a string
// holding its exact text (nlohmann's DOM would hold a double); integers stay integers. Throws on bad JSON.
nlohmann::json parseKeepingNumberText(const std::string& text);
// The same from a file: `.json.gz` or `.json` (zlib's gzread reads both).
nlohmann::json loadKeepingNumberText(const std::filesystem::path& path);
// ts/dur of such a DOM (an integer, or a number's text) to ns.
std::int64_t microsecondsToNs(const nlohmann::json& number);

// The value of type 63000001 the contract gives a memcpy name ("Memcpy HtoD (Pinned -> Device)" -> 1).
std::int64_t memcpyKindValue(const std::string& name);
// The value of type 63000009 of a cuda_sync event: CUPTI's synchronization type + 1, from Kineto's text
// (cupti_activity.h: 0 unknown, 1 event synchronize, 2 stream wait event, 3 stream synchronize, 4 context
// synchronize; Kineto writes "Event Sync", "Stream Wait Event", "Stream Sync", "Context Sync").
std::int64_t syncTypeValue(const std::string& cudaSyncKind);

struct Activity {
    std::int64_t begin = 0, end = 0; // ns, export time
    std::int64_t device = 0, stream = 0;
    std::optional<std::int64_t> correlation;
    char cls = 'C'; // 'C' compute kernel, 'N' NCCL kernel, 'M' memcpy / memset
    bool memset = false;
    std::string name;
    double tsUs = 0, durUs = 0; // ts and dur as a float64 reader of the JSON text holds them
};

// A host event HTA reads as GPU work (its integer args.stream is not -1).
struct StreamHostEvent {
    std::int64_t begin = 0, end = 0; // ns, export time
    std::string name;
    bool fromSync = false; // a cuda_sync event (else a host range)
};

// JSON events per kind of Paraver record the contract gives them.
struct Counts {
    std::int64_t kernels = 0, ncclKernels = 0;    // 63000006, 63000007
    std::map<std::int64_t, std::int64_t> memory;  // 63000001 by value (copy kind, 100 memset)
    std::int64_t memoryBytes = 0;                 // sum of args.bytes of memcpy + memset (63000002)
    std::int64_t apiCalls = 0;                    // cuda_runtime + cuda_driver: 63000000
    std::int64_t cpuOps = 0, userAnnotations = 0; // NVTX ranges of the domains cpu_op / user_annotation
    std::map<std::int64_t, std::int64_t> syncs;   // 63000009 by value (those whose call exists)
    std::int64_t kernelLaunches = 0, memoryLaunches = 0; // launch lines: tags 55001 / 55002
    std::map<std::string, std::int64_t> activitiesByRow; // "CUDA-D<dev>.S<stream>" -> kernels + memory ops
    std::int64_t syncsWithoutCall = 0;                   // cuda_sync with no call of that correlation
};

// The host records of one CPU thread (tid): API calls, cpu_op and user_annotation ranges, and the
// synchronizations whose call it made (the contract puts a cuda_sync on its call's thread).
struct HostThread {
    std::int64_t apiCalls = 0, cpuOps = 0, userAnnotations = 0, syncs = 0;
    auto operator<=>(const HostThread&) const = default;
};

struct Trace {
    std::string host;
    std::int64_t pid = 0;
    std::vector<Activity> activities;
    std::map<std::int64_t, std::int64_t> callStart; // correlation -> start of its runtime / driver call
    std::map<std::int64_t, std::string> callThread; // correlation -> tid (JSON text) of that call
    std::map<std::string, HostThread> hostThreads;  // tid (JSON text) -> its records
    Counts counts;
    std::vector<std::pair<std::int64_t, std::string>>
        profilerSteps; // host ProfilerStep#<n>: (begin ns, name)
    std::vector<StreamHostEvent> streamHostEvents;
};

Trace fromJson(const nlohmann::json& document);
Trace load(const std::filesystem::path& path);

// The report's id of a device of this trace: "<host>:<pid>:<device>".
std::string deviceId(const Trace& trace, std::int64_t device);
// The activity of each device of the trace in the shape of the SQL oracle, every time plus `shift`.
std::map<DeviceKey, Device> devices(const Trace& trace, std::int64_t shift = 0);

// HTA's figures of one device (contract, "HTA definitions"), whole trace (the default window clips nothing).
struct Hta {
    std::int64_t kernelTime = 0, idle = 0, compute = 0, nonCompute = 0;
    std::int64_t ncclTime = 0, computeNcclOverlap = 0; // |union N|, |union C intersect union N|
    std::optional<double> commCompOverlap;             // null without NCCL time
    std::int64_t hostWait = 0, kernelWait = 0, other = 0;
};
// HTA's threshold of kernel wait: its consecutive_kernel_delay of 30 compared with gaps in microseconds.
inline constexpr std::int64_t kConsecutiveKernelDelayNs = 30000;
std::map<std::int64_t, Hta> hta(const Trace& trace); // args.device -> figures

// HTA's span, idle and compute of a device under one of its own rules, each alone (contract above).
struct HtaReading {
    std::int64_t kernelTime = 0, idle = 0, compute = 0;
    bool operator==(const HtaReading&) const = default;
};
struct HtaRules {
    struct LastStep {
        std::int64_t stepBegin = 0; // export ns
        std::int64_t dropped = 0, droppedTime = 0;
        HtaReading reading;
    };
    struct StreamHost {
        std::int64_t events = 0, time = 0;
        HtaReading reading;
    };
    std::optional<LastStep> lastStep;            // when some operation drops out
    std::optional<HtaReading> wholeMicroseconds; // when rounding changes a figure
    std::optional<StreamHost> streamHost;        // when the device gets such events
};
std::map<std::int64_t, HtaRules> htaRules(const Trace& trace); // args.device -> rules

} // namespace kinetooracle
