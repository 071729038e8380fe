#pragma once
// The iterations, phases and kernel slowdown of several reports side by side (reports/CompareLevels.cpp),
// a part of gpueff compare's output: the iterations and phases appended to `markdown`, the kernels alone and
// under communication to `overlapMarkdown` (compare.md shows them below the kernels per iteration), both as
// "levels" in its JSON, and the phase times plotted (plots/phases.svg, listed in the JSON's "plots").
#include "reports/model/Report.h"

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace gpueff::reports {

void compareLevels(const std::vector<model::Report>& reports, const std::vector<std::string>& labels,
                   std::string& markdown, std::string& overlapMarkdown, nlohmann::json& comparison,
                   std::vector<std::pair<std::string, std::string>>& files);

} // namespace gpueff::reports
