#pragma once
// report.json (docs/report.md, schema docs/report.schema.json) from an analysis.
#include "metrics/Analysis.h"
#include "reports/model/Report.h"

#include <nlohmann/json.hpp>
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
};

struct ReportContextInfo {
    std::string prv;
    std::vector<ReportInput> inputs;
    std::size_t tasks = 0, threads = 0;
    // About the input data rather than the analysis (rows the translation skipped), listed before the
    // analysis' own notes.
    std::vector<std::string> dataNotes;
};

// The report model of an analysis (reports/model/Report.h), and it written as report.json.
model::Report buildReport(const metrics::Analysis& analysis, const ReportContextInfo& info);
nlohmann::json reportJson(const metrics::Analysis& analysis, const ReportContextInfo& info);

// The efficiency model of one NCCL convention as the report holds it.
model::Convention convention(const metrics::Efficiency& e, const metrics::Analysis& a);

// A fraction that is not a finite number becomes null: report.json never holds NaN.
nlohmann::json finiteOrNull(double value);

// A row of the kernel summary's form (name, time_percent, total_ns, instances, avg/med/min/max/stddev_ns).
model::KernelRow kernelRow(const metrics::KernelRow& row);

// kernels_in_flight, kernels_queued, overlap, overlap_table, timeline and nccl_overlap
// (reports/ConcurrencyJson.cpp).
void addConcurrencyFamilies(model::Report& report, const metrics::Analysis& a);

// tensor_core, kernel_summary, kernel_durations, gaps and kernel_categories (reports/KernelsJson.cpp).
void addKernelFamilies(model::Report& report, const metrics::Analysis& a);

// iteration_detection, iterations, focus, phases, collectives and kernel_overlap (reports/LevelsJson.cpp).
void addLevels(model::Report& report, const metrics::Analysis& a);

// nsys_stats: the nvtx_sum, cuda_api_sum and GPU memory summaries (reports/NsysStatsJson.cpp).
model::NsysStats nsysStats(const metrics::Analysis& a);

} // namespace gpueff::reports
