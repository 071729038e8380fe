#pragma once
// report.md's sections of the kernel families (KernelsMarkdown.cpp), with their plots: tensor cores per
// GEMM; kernel time by kind, the top kernels and their duration modes; the GPUs' idle gaps.
#include "reports/ReportMarkdown.h"

#include <string>

namespace gpueff::reports {

void tensorCoreSection(std::string& md, const model::Report& report);
void kernelSections(std::string& md, const model::Report& report, RenderedReport& out);
void gapSection(std::string& md, const model::Report& report, RenderedReport& out);

} // namespace gpueff::reports
