#pragma once
// The executive summary (reports/ExecutiveSummary.cpp): report.json "summary" from an analysis, and its
// section at the top of report.md from report.json.
#include "metrics/Analysis.h"

#include <nlohmann/json.hpp>
#include <string>

namespace gpueff::reports {

nlohmann::json executiveSummary(const metrics::Analysis& analysis);
void summarySection(std::string& markdown, const nlohmann::json& report);

} // namespace gpueff::reports
