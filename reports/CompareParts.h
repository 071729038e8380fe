#pragma once
// What the parts of `gpueff compare` share (Compare.cpp, CompareTables.cpp, CompareScaling.cpp,
// CompareLevels.cpp, SvgCompare.cpp): the two NCCL conventions, the scaling factors, the plots they write.
#include "reports/SvgFrame.h"

#include <cmath>
#include <concepts>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpueff::reports::compare {

using Value = std::optional<double>;

struct Convention {
    const char* key;
    const char* title;
};
inline constexpr Convention kConventions[] = {{"nccl_as_communication", "NCCL as communication"},
                                              {"nccl_as_useful", "NCCL as useful"}};
inline constexpr std::size_t kConventionCount = std::size(kConventions);

// The factors of the POP scaling table, in its order. `fraction`: bounded by 1 by definition (an
// extrapolation is clamped to [0, 1]); computational scalability and global efficiency pass 1 when the
// scaling is superlinear (or weak), so they are only kept non-negative.
struct ScalingFactor {
    const char* key;
    const char* label;
    bool fraction;
    const char* colour; // Okabe-Ito; the four device factors in svg::kFactorColours
};
inline constexpr ScalingFactor kScalingFactors[] = {
    {"parallel_efficiency", "Parallel efficiency", true, svg::kFactorColours[0]},
    {"load_balance", "Load balance", true, svg::kFactorColours[1]},
    {"communication_efficiency", "Communication efficiency", true, svg::kFactorColours[2]},
    {"orchestration_efficiency", "Orchestration efficiency", true, svg::kFactorColours[3]},
    {"computational_scalability", "Computational scalability", false, "#CC79A7"},
    {"global_efficiency", "Global efficiency", false, "#D55E00"}};
inline constexpr std::size_t kScalingFactorCount = std::size(kScalingFactors);
// The first four are the device model's factors, in the order of kEfficiencyFactors (ReportMarkdown.h).
inline constexpr std::size_t kDeviceFactorCount = 4;

// One run of a scaling study: its device count and the six factors under each convention.
struct ScalingRun {
    std::string label;
    double devices = 0;
    Value values[kConventionCount][kScalingFactorCount];
};

// A value of compare.json: the number, or null where there is none.
inline nlohmann::json orNull(Value v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}
// A yes or no of compare.json (a shift beyond the noise), or null where it cannot be told.
template <std::same_as<bool> B>
nlohmann::json orNull(const std::optional<B>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}
// Counts and nanoseconds are integers in report.json; sums and differences of them stay so in compare.json.
// A sum over devices can pass what int64 holds (validated reports keep each time below 2^63): it stays a
// floating-point number then.
inline nlohmann::json integerOrNull(Value v) {
    if (!v) return nullptr;
    if (*v >= -9.2e18 && *v <= 9.2e18) return std::llround(*v);
    return *v;
}

// A difference of times with its sign: "+2.192 ms", "-310 ns" (CompareTables.cpp).
std::string signedDuration(double ns);

// A table header: `first`, then one column per run label (runLabelCell; CompareTables.cpp).
std::vector<std::string> runHeader(const char* first, const std::vector<std::string>& labels);
// A run's label as a column title: escaped for Markdown, with a zero-width space after each _ - . / : and
// every 12 characters of a longer word, so that six runs named like their files ("mfu_2gpu_h100_nccl_after")
// wrap within a page 900 px wide instead of widening it.
std::string runLabelCell(const std::string& label);

// The plot files a comparison may write, relative to its output directory: the grouped bars of the device
// factors and the scaling chart per convention, the phases' chart. allPlotFiles() in Compare.h lists them.
inline std::string efficiencyPlotFile(std::size_t convention) {
    return std::string("plots/efficiency_") + kConventions[convention].key + ".svg";
}
inline std::string scalingPlotFile(std::size_t convention) {
    return std::string("plots/scaling_") + kConventions[convention].key + ".svg";
}
inline constexpr const char* kPhasesPlotFile = "plots/phases.svg";

// The SVG files of a comparison: relative path under the output directory and content.
using Files = std::vector<std::pair<std::string, std::string>>;

// Adds a plot: its file, its entry in compare.json "plots" (file, title, series) and its image link in the
// Markdown. Nothing when `svg` is empty (no data for the plot).
inline void addPlot(const std::string& file, const std::string& title, const std::vector<std::string>& series,
                    std::string svg, Files& files, nlohmann::json& comparison, std::string& markdown) {
    if (svg.empty()) return;
    files.emplace_back(file, std::move(svg));
    comparison["plots"].push_back({{"file", file}, {"title", title}, {"series", series}});
    markdown += "![" + title + "](" + file + ")\n\n";
}

} // namespace gpueff::reports::compare
