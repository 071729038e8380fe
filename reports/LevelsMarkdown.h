#pragma once
// The "Iterations and phases" section of report.md (reports/LevelsMarkdown.cpp).
#include "reports/ReportMarkdown.h"

namespace gpueff::reports {

void levelsSection(std::string& md, const model::Report& report, RenderedReport& out);

} // namespace gpueff::reports
