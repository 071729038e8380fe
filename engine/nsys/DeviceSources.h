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

// Event type of a GPU metric: 9400 + its index in a fixed catalogue of nsys metric names, so one metric
// keeps its type whatever metricId a given nsys version gave it; unknown names get 9450.. in name order.
std::uint32_t gpuMetricType(std::string_view metricName);

} // namespace gpueff::nsys
