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

} // namespace gpueff::nsys
