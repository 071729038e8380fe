#pragma once
// The "HTA's definitions" section of report.md (reports/HtaMarkdown.cpp).
#include <nlohmann/json.hpp>
#include <string>

namespace gpueff::reports {

void htaSection(std::string& md, const nlohmann::json& report);

} // namespace gpueff::reports
