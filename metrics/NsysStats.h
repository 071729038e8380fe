#pragma once
// The summaries of `nsys stats` that analysts compare against (docs/report.md, "nsys_stats"): NVTX ranges
// (nvtx_sum), CUDA API calls (cuda_api_sum) and GPU memory operations by time and by size
// (cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum), computed from the trace's records: the NVTX range and
// CUDA API events of the tasks' host rows and the memory operations of the devices' stream rows. Like the
// kernel summary, over the whole trace, not the analysis window.
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

// A task's ranges of one nvtx_sum group (domain, value, style), as the partial keeps them: in
// HostCallsPartial::nvtxTimes, group after group, `closed` durations then `open` begins (ranges the trace
// never ends, timed by the reduction against the whole trace's last NVTX event). 8 bytes a range and 24 a
// group, where the ranges themselves took 24 each.
struct NvtxGroup {
    std::uint32_t type = 0; // the smallest type of its ranges (the domain's category that names the row)
    bool startEnd = false;
    std::int64_t value = 0;
    std::uint32_t closed = 0, open = 0;
    static void fields(auto& s, auto&& f) {
        f("type", s.type);
        f("startEnd", s.startEnd);
        f("value", s.value);
        f("closed", s.closed);
        f("open", s.open);
    }
};

// Of one task's host rows, for the NVTX and API summaries.
struct HostCallsPartial {
    std::vector<NvtxGroup> nvtx;         // in group order
    std::vector<std::int64_t> nvtxTimes; // the groups' ranges (NvtxGroup)
    std::int64_t lastNvtxEvent = -1;     // latest NVTX event (marks too), -1 none
    std::uint64_t startEndNested =
        0; // ranges begun inside another range of their type, one of them start/end
    std::map<std::int64_t, std::vector<std::int64_t>> api; // value of 63000000 -> durations
    static void fields(auto& s, auto&& f) {
        f("nvtx", s.nvtx);
        f("nvtxTimes", s.nvtxTimes);
        f("lastNvtxEvent", s.lastNvtxEvent);
        f("startEndNested", s.startEndNested);
        f("api", s.api);
    }
};

// Of one device's stream rows: per operation ("[CUDA memcpy Host-to-Device]", "[CUDA memset]", ...) the
// durations and, of the operations whose record carries them, the bytes.
struct MemoryOperations {
    std::vector<std::int64_t> durations, bytes;
    static void fields(auto& s, auto&& f) {
        f("durations", s.durations);
        f("bytes", s.bytes);
    }
};
using MemoryPartial = std::map<std::string, MemoryOperations>;

} // namespace gpueff::metrics
