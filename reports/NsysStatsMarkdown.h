#pragma once
// The "nsys stats summaries" section of report.md (reports/NsysStatsMarkdown.cpp).
#include "reports/model/Report.h"

#include <string>

namespace gpueff::reports {

void nsysStatsSection(std::string& md, const model::Report& report);

} // namespace gpueff::reports
