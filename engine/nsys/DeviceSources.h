#pragma once
#include "engine/nsys/ReportContext.h"

#include <memory>
#include <vector>

namespace gpueff::nsys {

// Per-GPU sampled data: GPU metrics (one row per GPU, metrics matched by name) and device memory in use.
void discoverGpuMetrics(const NsysExport&, ReportObjects&);
void openGpuMetrics(ReportContext&, std::vector<std::unique_ptr<RecordSource>>&);
void discoverGpuMemory(const NsysExport&, ReportObjects&);
void openGpuMemory(ReportContext&, std::vector<std::unique_ptr<RecordSource>>&);

// gpueff's event type of a GPU metric: 63000300 + its index in a fixed catalogue of nsys metric names, so one
// metric keeps its type whatever metricId a given GPU or nsys version gave it (nsys2prv's 9400 + metricId is
// written beside it); unknown names get 63000350.. in order of appearance. 0 for an unknown name.
std::uint32_t gpuMetricType(std::string_view metricName);

} // namespace gpueff::nsys
