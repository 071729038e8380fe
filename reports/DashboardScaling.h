#pragma once
// The scaling page of a dashboard (docs/dashboard.md "Scaling"): the runs grouped into studies by a tag (or,
// without one, all runs when their device counts differ), each study compared as `gpueff compare` compares
// runs of different device counts (the POP scaling table and, with three or more counts, the fitted
// curves), and the compare.json files given as inputs.
#include "reports/DashboardRuns.h"

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace gpueff::reports::dashboard {

struct ScalingStudy {
    std::string name;              // the tag's value, or "all runs"
    std::vector<std::size_t> runs; // indexes into the runs, in their order
};

// Runs whose attribute `tag` (a free tag, or branch, commit, date, gpus) has one value form a study; runs
// without it are in none. An empty tag: one study of all runs when they have two or more device counts.
std::vector<ScalingStudy> scalingStudies(const std::vector<DashboardRun>& runs, const std::string& tag);

// The largest study compared (compare's tables grow with the runs); a larger one is listed with a note.
inline constexpr std::size_t kMaxStudyRuns = 64;

struct ScalingData {
    std::vector<ScalingStudy> studies;
    nlohmann::json json; // data/scaling.js: {"tag", "studies": [...], "comparisons": [...]}
    std::vector<std::pair<std::string, std::string>> plots; // "scaling/N/plots/NAME.svg", SVG
};

ScalingData scalingData(const std::vector<DashboardRun>& runs, std::vector<ScalingStudy> studies,
                        const std::vector<ComparisonInput>& comparisons, const std::string& tag);

} // namespace gpueff::reports::dashboard
