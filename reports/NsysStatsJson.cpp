// report.json's nsys_stats (docs/report.md): the summaries of `nsys stats` with the kernel_summary row keys
// (times in ns, sizes in bytes: nsys prints MB = 10^6 bytes).
#include "reports/ReportJson.h"

namespace gpueff::reports {

using nlohmann::json;

namespace {

json leftOut(const metrics::RowsLeftOut& l) {
    return {{"rows", l.rows}, {"instances", l.instances}, {"total_ns", l.total}};
}

} // namespace

json nsysStatsJson(const metrics::Analysis& a) {
    const auto& s = a.nsysStats;
    json out{{"nvtx_sum", json::array()},
             {"cuda_api_sum", json::array()},
             {"gpu_mem_time_sum", json::array()},
             {"gpu_mem_size_sum", json::array()}};
    for (const auto& r : s.nvtx) {
        auto row = kernelRowJson(r);
        row["domain"] = r.domain;
        row["style"] = r.startEnd ? "StartEnd" : "PushPop";
        out["nvtx_sum"].push_back(std::move(row));
    }
    for (const auto& r : s.cudaApi) out["cuda_api_sum"].push_back(kernelRowJson(r));
    for (const auto& r : s.memoryTime) out["gpu_mem_time_sum"].push_back(kernelRowJson(r));
    for (const auto& r : s.memorySize)
        out["gpu_mem_size_sum"].push_back(
            {{"name", r.name},
             {"instances", r.count},
             {"total_bytes", r.total},
             {"avg_bytes", finiteOrNull(r.average)},
             {"med_bytes", finiteOrNull(r.median)},
             {"min_bytes", r.min},
             {"max_bytes", r.max},
             {"stddev_bytes", finiteOrNull(r.stddev)},
             {"bandwidth_gbps", r.bandwidth ? finiteOrNull(*r.bandwidth) : json(nullptr)}});
    // Only when a summary was cut (kMaxSummaryRows): what it does not list.
    json left = json::object();
    if (s.nvtxLeftOut.rows) left["nvtx_sum"] = leftOut(s.nvtxLeftOut);
    if (s.cudaApiLeftOut.rows) left["cuda_api_sum"] = leftOut(s.cudaApiLeftOut);
    if (!left.empty()) out["left_out"] = left;
    return out;
}

} // namespace gpueff::reports
