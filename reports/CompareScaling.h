#pragma once
// The scaling fits of `gpueff compare` (reports/CompareScaling.cpp): with runs at three or more distinct
// device counts, each POP factor fitted against the device count n as factor = a + b log2(n) and
// extrapolated to 2x and 4x the largest count (docs/compare.md says why this model).
#include "reports/CompareParts.h"
#include "reports/ScalingFit.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::reports::compare {

inline constexpr double kExtrapolationFactors[] = {2, 4};
inline constexpr std::size_t kExtrapolations = std::size(kExtrapolationFactors);
inline constexpr std::size_t kMinimumDistinctCounts = 3;

struct FactorFit {
    LineFit line; // x = log2(devices), y = the factor as a fraction
    // At kExtrapolationFactors x the largest count: the line's value, and that value clamped to the
    // factor's bounds ([0, 1] for fractions, >= 0 otherwise).
    double fitted[kExtrapolations] = {}, value[kExtrapolations] = {};
    bool clamped[kExtrapolations] = {};
};

struct ScalingFits {
    std::vector<double> counts; // the distinct device counts, ascending
    double targets[kExtrapolations] = {};
    // Absent for a factor known at fewer than kMinimumDistinctCounts distinct counts.
    std::optional<FactorFit> fits[kConventionCount][kScalingFactorCount];
};

// Absent when the runs have fewer than kMinimumDistinctCounts distinct device counts (or a count < 1).
std::optional<ScalingFits> fitScaling(const std::vector<ScalingRun>& runs);

// The fit of one factor: a factor is clamped to its bounds.
double clampFactor(std::size_t factor, double value);

// Appends the fits' Markdown (tables and plots) and sets scaling["fits"] (null without fits).
void appendScalingFits(const std::vector<ScalingRun>& runs, std::string& markdown, nlohmann::json& comparison,
                       Files& files);

} // namespace gpueff::reports::compare
