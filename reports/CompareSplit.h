#pragma once
// The comparative sections of `gpueff compare` below the verdict (docs/compare.md): the comparative POP
// factors of every run against the reference, where the time went (the POP split of n x the unit's time,
// differenced, as a table and a waterfall plot) and the figures that depend on the amount of work, per unit.
#include "reports/CompareParts.h"
#include "reports/CompareVerdict.h"

namespace gpueff::reports::compare {

inline constexpr const char* kTimeSplitPlotFile = "plots/time_split.svg";

void comparativeSection(const Comparing& c, std::string& markdown, nlohmann::json& comparison);
void timeSplitSection(const Comparing& c, std::string& markdown, nlohmann::json& comparison, Files& files);
void perUnitSection(const Comparing& c, std::string& markdown, nlohmann::json& comparison);

// A table of figures (rows) by run (columns): a cell's value and its change stacked in two lines (<br>) when
// there are more than kInlineRuns runs, so that 6 runs stay within a page 900 px wide.
inline constexpr std::size_t kInlineRuns = 3;
std::string
runColumns(const char* first, const std::vector<std::string>& labels,
           const std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>>& rows);

} // namespace gpueff::reports::compare
