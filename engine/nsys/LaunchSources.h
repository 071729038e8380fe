#pragma once
#include "engine/nsys/ReportContext.h"

#include <memory>
#include <vector>

namespace gpueff::nsys {

// Communication records from each launching CUDA API call to the GPU activity it started, joined on
// (process, correlation id): tag 55001 for kernels and graph launches, 55002 for memory operations with the
// bytes as size. Messages in transit on tag 55001 are the kernels queued on the GPU.
void discoverLaunches(const NsysExport&, ReportObjects&);
void openLaunches(ReportContext&, std::vector<std::unique_ptr<RecordSource>>&);

} // namespace gpueff::nsys
