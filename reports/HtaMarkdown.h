#pragma once
// The "HTA's definitions" section of report.md (reports/HtaMarkdown.cpp).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gpueff::reports {

void htaSection(std::string& md, const nlohmann::json& report);
// The notes of report.json on HTA's own rules (docs/report.md "HTA's definitions"): per device and rule that
// changes a figure, what HTA would show instead, from report.json's hta.devices[].rules.
std::vector<std::string> htaNotes(const nlohmann::json& report);

} // namespace gpueff::reports
