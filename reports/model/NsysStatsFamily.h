#pragma once
// report.json's nsys_stats (docs/report.md "nsys stats summaries"): the summaries `nsys stats` prints as
// nvtx_sum, cuda_api_sum, cuda_gpu_mem_time_sum and cuda_gpu_mem_size_sum, over the whole trace, rows by
// total time (bytes for sizes), largest first; times in ns, sizes in bytes (nsys prints MB = 10^6 bytes).
#include "reports/model/Fields.h"
#include "reports/model/KernelRow.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::reports::model {

// An NVTX range of nvtx_sum: a duration row of its name within its domain.
struct NvtxRow : KernelRow {
    std::string domain;
    std::string style; // "PushPop" or "StartEnd" (nvtxRangeStart/End)
    static void fields(auto& s, auto&& f) {
        KernelRow::fields(s, f);
        f("domain", s.domain);
        f("style", s.style);
    }
};

// A kind of memory operation of cuda_gpu_mem_size_sum, in bytes.
struct MemorySizeRow {
    std::string name;
    std::int64_t instances = 0, totalBytes = 0;
    double avgBytes = 0, medBytes = 0;
    std::int64_t minBytes = 0, maxBytes = 0;
    double stddevBytes = 0;
    std::optional<double> bandwidthGbps; // bytes over time, both summed; null when they took no time
    static void fields(auto& s, auto&& f) {
        f("name", s.name);
        f("instances", s.instances);
        f("total_bytes", s.totalBytes);
        f("avg_bytes", s.avgBytes);
        f("med_bytes", s.medBytes);
        f("min_bytes", s.minBytes);
        f("max_bytes", s.maxBytes);
        f("stddev_bytes", s.stddevBytes);
        f("bandwidth_gbps", s.bandwidthGbps);
    }
};

// The rows a summary leaves out past its 1000 with the most time, with their instances and time.
struct RowsLeftOut {
    std::int64_t rows = 0, instances = 0, totalNs = 0;
    static void fields(auto& s, auto&& f) {
        f("rows", s.rows);
        f("instances", s.instances);
        f("total_ns", s.totalNs);
    }
};

struct NsysStats {
    // Only the summaries that were cut.
    struct LeftOut {
        Omitted<RowsLeftOut> nvtxSum, cudaApiSum;
        static void fields(auto& s, auto&& f) {
            f("nvtx_sum", s.nvtxSum);
            f("cuda_api_sum", s.cudaApiSum);
        }
    };
    std::vector<NvtxRow> nvtxSum;
    std::vector<KernelRow> cudaApiSum, gpuMemTimeSum;
    std::vector<MemorySizeRow> gpuMemSizeSum;
    Omitted<LeftOut> leftOut; // left out when no summary was cut
    static void fields(auto& s, auto&& f) {
        f("nvtx_sum", s.nvtxSum);
        f("cuda_api_sum", s.cudaApiSum);
        f("gpu_mem_time_sum", s.gpuMemTimeSum);
        f("gpu_mem_size_sum", s.gpuMemSizeSum);
        f("left_out", s.leftOut);
    }
};

} // namespace gpueff::reports::model
