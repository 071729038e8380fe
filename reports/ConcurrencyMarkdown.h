#pragma once
// report.md's sections of the concurrency families: kernels in flight and queued, overlap tables, overlap
// per NCCL kernel (ConcurrencyMarkdown.cpp), with their plots.
#include "reports/ReportMarkdown.h"

#include <string>

namespace gpueff::reports {

void concurrencySections(std::string& md, const model::Report& report, RenderedReport& out);

} // namespace gpueff::reports
