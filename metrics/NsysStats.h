#pragma once
// The summaries of `nsys stats` that analysts compare against (docs/report.md, "nsys_stats"): NVTX ranges
// (nvtx_sum), CUDA API calls (cuda_api_sum) and GPU memory operations by time and by size
// (cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum), computed from the trace's records: the NVTX range and
// CUDA API events of the tasks' host rows and the memory operations of the devices' stream rows. Like the
// kernel summary, over the whole trace, not the analysis window.
#include "engine/common/SpillStore.h"
#include "metrics/SpilledRuns.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::metrics {

// One row of an nsys stats summary of durations (kernels, API calls, memory operations): count, total,
// extremes, mean, median (mean of the middle two for an even count), sample standard deviation (0 for one
// instance) and the share of the table's total time in percent, as nsys' SQL computes them.
struct KernelRow {
    std::string name;
    std::int64_t total = 0, min = 0, max = 0;
    std::uint64_t instances = 0;
    double timePercent = 0, average = 0, median = 0, stddev = 0;
    static void fields(auto& s, auto&& f) {
        f("name", s.name);
        f("total", s.total);
        f("min", s.min);
        f("max", s.max);
        f("instances", s.instances);
        f("timePercent", s.timePercent);
        f("average", s.average);
        f("median", s.median);
        f("stddev", s.stddev);
    }
};

struct NvtxRow : KernelRow {
    std::string domain;
    bool startEnd = false;
};

// cuda_gpu_mem_size_sum in bytes (nsys prints MB = 10^6 bytes), with the bandwidth of the kind: its bytes
// over its time (both summed over the operations), in bytes per ns = GB/s.
struct MemorySizeRow {
    std::string name;
    std::uint64_t count = 0;
    std::int64_t total = 0, min = 0, max = 0;
    double average = 0, median = 0, stddev = 0;
    std::optional<double> bandwidth; // none when the operations took no time
};

// The rows a summary leaves out past kMaxSummaryRows (PyTorch names each NVTX range after its op_id: one row
// per range), with their instances and time.
struct RowsLeftOut {
    std::uint64_t rows = 0, instances = 0;
    std::int64_t total = 0;
};
inline constexpr std::size_t kMaxSummaryRows = 1000;

struct NsysStats {
    std::vector<NvtxRow> nvtx; // time_percent over every range, listed or not
    std::vector<KernelRow> cudaApi, memoryTime;
    std::vector<MemorySizeRow> memorySize;
    RowsLeftOut nvtxLeftOut, cudaApiLeftOut;
};

// One NVTX range of a task, by value: values are numbered over the whole trace (alike in every shard and
// process, and alike in the types of one domain's categories), so ranges group across tasks without their
// names, which are looked up for the listed rows only (PyTorch names each range after its op_id).
struct NvtxInstance {
    std::uint32_t type = 0;           // domain base + category
    bool startEnd = false;            // nvtxRangeStart/End (eventType 60); push/pop (59) otherwise
    bool open = false;                // the trace never ends it: `time` is its begin
    std::int64_t value = 0, time = 0; // the name's value; the duration
};

// A task's ranges of one nvtx_sum group (domain, value, style), as its partial keeps them: groups in key
// order, each with `closed` durations then `open` begins (ranges the trace never ends, timed by the reduction
// against the whole trace's last NVTX event).
struct NvtxGroup {
    std::uint32_t type = 0; // the smallest type of its ranges (the domain's category that names the row)
    bool startEnd = false;
    std::int64_t value = 0;
    std::uint32_t closed = 0, open = 0;
};

// Of one task's host rows, for the NVTX and API summaries, a run of its ranges and calls: the bulk (a value
// per range and per call) waits in the analysis' SpillStore, `bulk`, packed by hostCallsOf: the groups (three
// values each: type and style, value, closed and open counts), then their ranges' times, then the API calls'
// durations, value after value, each sorted. The reduction reads every run's groups back in key order, a
// block at a time, and merges the runs of every task.
struct HostCallsRun {
    SpillStore::Ref bulk;
    std::uint64_t nvtxGroups = 0, nvtxRanges = 0;
    std::vector<std::pair<std::int64_t, std::uint64_t>> api; // value of 63000000 -> its calls, by value
    static void fields(auto& s, auto&& f) {
        f("bulk", s.bulk);
        f("nvtxGroups", s.nvtxGroups);
        f("nvtxRanges", s.nvtxRanges);
        f("api", s.api);
    }
};

// A task's ranges and calls go to the store in runs (8 bytes each), so that what one task holds at once does
// not grow with its ranges and calls: of a thirty-second of a worker's share of the memory limit, between 4
// Ki and 1 Mi values (8 MiB).
std::uint64_t hostCallsRun(std::uint64_t memoryBudget, unsigned jobs);

struct HostCallsPartial {
    std::vector<HostCallsRun> runs;
    std::uint64_t nvtxOpen = 0;
    std::int64_t lastNvtxEvent = -1; // latest NVTX event (marks too), -1 none
    // Ranges begun inside another range of their type, one of them start/end.
    std::uint64_t startEndNested = 0;
    static void fields(auto& s, auto&& f) {
        f("runs", s.runs);
        f("nvtxOpen", s.nvtxOpen);
        f("lastNvtxEvent", s.lastNvtxEvent);
        f("startEndNested", s.startEndNested);
    }
};

// Of one device's stream rows: per operation ("[CUDA memcpy Host-to-Device]", "[CUDA memset]", ...) the
// durations and, of the operations whose record carries them, the bytes.
struct MemoryOperations {
    SpilledRun durations, bytes;
    static void fields(auto& s, auto&& f) {
        f("durations", s.durations);
        f("bytes", s.bytes);
    }
};
using MemoryPartial = std::map<std::string, MemoryOperations>;

} // namespace gpueff::metrics
