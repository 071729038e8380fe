#pragma once
// The "nsys stats summaries" section of report.md (reports/NsysStatsMarkdown.cpp).
#include <nlohmann/json.hpp>
#include <string>

namespace gpueff::reports {

void nsysStatsSection(std::string& md, const nlohmann::json& report);

} // namespace gpueff::reports
