#pragma once
// The executive summary (reports/ExecutiveSummary.cpp): the summary family of the report model (report.json
// "summary") from an analysis, and its section at the top of report.md from the model.
#include "metrics/Analysis.h"
#include "reports/model/Report.h"

#include <string>

namespace gpueff::reports {

model::Summary executiveSummary(const metrics::Analysis& analysis);
void summarySection(std::string& markdown, const model::Report& report);

} // namespace gpueff::reports
