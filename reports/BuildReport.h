#pragma once
// The report model (reports/model/Report.h, docs/report.md) of an analysis: the run families here
// (BuildReport.cpp), the others in a builder file each (BuildKernels, BuildConcurrency, BuildLevels,
// BuildNsysStats; the summary in ExecutiveSummary). report.json is model::writeReport of it.
#include "metrics/Analysis.h"
#include "reports/model/Report.h"

#include <optional>

namespace gpueff::reports {

struct ReportInput {
    std::string path, nsysVersion, host;
    std::int64_t offsetNs = 0;
    // How its clock was placed on the trace's (docs/events.md "Time"): "utc", "utc+MPI_Init", ...; empty when
    // the sidecar does not say (written before gpueff recorded it).
    std::string alignment, syncPoint;
    std::optional<std::int64_t> alignmentUncertaintyNs;
    std::size_t alignmentEvidence = 0;
    std::optional<std::int64_t> utcStartNs; // the session's start (UTC ns), when the input records it
};

struct ReportContextInfo {
    std::string prv;
    std::vector<ReportInput> inputs;
    std::size_t tasks = 0, threads = 0;
    // About the input data rather than the analysis (rows the translation skipped), listed before the
    // analysis' own notes.
    std::vector<std::string> dataNotes;
};

model::Report buildReport(const metrics::Analysis& analysis, const ReportContextInfo& info);

// The efficiency model of one NCCL convention as the report holds it.
model::Convention convention(const metrics::Efficiency& e, const metrics::Analysis& a);

// A row of the kernel summary's form (name, time_percent, total_ns, instances, avg/med/min/max/stddev_ns).
model::KernelRow kernelRow(const metrics::KernelRow& row);

// kernels_in_flight, kernels_queued, overlap, overlap_table, timeline and nccl_overlap
// (reports/BuildConcurrency.cpp).
void addConcurrencyFamilies(model::Report& report, const metrics::Analysis& a);

// tensor_core, kernel_summary, kernel_durations, gaps and kernel_categories (reports/BuildKernels.cpp).
void addKernelFamilies(model::Report& report, const metrics::Analysis& a);

// iteration_detection, iterations, focus, phases, collectives and kernel_overlap (reports/BuildLevels.cpp).
void addLevels(model::Report& report, const metrics::Analysis& a);

// nsys_stats: the nvtx_sum, cuda_api_sum and GPU memory summaries (reports/BuildNsysStats.cpp).
model::NsysStats nsysStats(const metrics::Analysis& a);

} // namespace gpueff::reports
