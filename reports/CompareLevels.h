#pragma once
// The iterations, phases and kernel slowdown of several reports side by side (reports/CompareLevels.cpp),
// a part of gpueff compare's output: appended to its Markdown, as "levels" to its JSON, and the phase times
// plotted (plots/phases.svg, listed in the JSON's "plots").
#include "reports/model/Report.h"

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace gpueff::reports {

void compareLevels(const std::vector<model::Report>& reports, const std::vector<std::string>& labels,
                   std::string& markdown, nlohmann::json& comparison,
                   std::vector<std::pair<std::string, std::string>>& files);

} // namespace gpueff::reports
