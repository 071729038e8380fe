// The nsys_stats family of the report model (reports/model/NsysStatsFamily.h, docs/report.md): the summaries of `nsys stats` with the kernel_summary row keys
// (times in ns, sizes in bytes: nsys prints MB = 10^6 bytes).
#include "reports/BuildReport.h"

namespace gpueff::reports {

namespace {

model::Omitted<model::RowsLeftOut> leftOut(const metrics::RowsLeftOut& l) {
    if (!l.rows) return {};
    return model::RowsLeftOut{static_cast<std::int64_t>(l.rows), static_cast<std::int64_t>(l.instances),
                              l.total};
}

} // namespace

model::NsysStats nsysStats(const metrics::Analysis& a) {
    const auto& s = a.nsysStats;
    model::NsysStats out;
    for (const auto& r : s.nvtx) {
        model::NvtxRow row;
        static_cast<model::KernelRow&>(row) = kernelRow(r);
        row.domain = r.domain;
        row.style = r.startEnd ? "StartEnd" : "PushPop";
        out.nvtxSum.push_back(std::move(row));
    }
    for (const auto& r : s.cudaApi) out.cudaApiSum.push_back(kernelRow(r));
    for (const auto& r : s.memoryTime) out.gpuMemTimeSum.push_back(kernelRow(r));
    for (const auto& r : s.memorySize)
        out.gpuMemSizeSum.push_back({r.name, static_cast<std::int64_t>(r.count), r.total, r.average, r.median,
                                     r.min, r.max, r.stddev,
                                     model::finite(r.bandwidth)});
    // Only when a summary was cut (kMaxSummaryRows): what it does not list.
    model::NsysStats::LeftOut left{leftOut(s.nvtxLeftOut), leftOut(s.cudaApiLeftOut)};
    if (left.nvtxSum || left.cudaApiSum) out.leftOut = std::move(left);
    return out;
}

} // namespace gpueff::reports
