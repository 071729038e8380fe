#pragma once
// The iterations, phases and kernel slowdown of several reports side by side (reports/CompareLevels.cpp),
// a part of gpueff compare's output: appended to its Markdown, and as "levels" to its JSON.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gpueff::reports {

void compareLevels(const std::vector<nlohmann::json>& reports, const std::vector<std::string>& labels,
                   std::string& markdown, nlohmann::json& comparison);

} // namespace gpueff::reports
