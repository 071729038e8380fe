#pragma once
// Dependency-free SVG charts for the Markdown reports. The output is a plain <svg> element (width, height,
// viewBox; rect, line, polyline, text; no scripts, no CSS) so that GitHub renders it as an image.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace gpueff::reports::svg {

// Escapes text for XML content and attribute values (kernel names hold < > & and quotes).
std::string escapeXml(std::string_view text);

struct Series {
    std::string label;
    std::vector<double> values; // one per category; a non-finite value draws no bar
};

// Vertical grouped bars: one group per category (x axis), one bar per series inside each group. Values are
// fractions in [0, 1] drawn as percentages.
std::string groupedBars(const std::string& title, const std::string& xLabel,
                        const std::vector<std::string>& categories, const std::vector<Series>& series);

struct StackedRow {
    std::string label;
    std::vector<double> fractions; // one per segment, of the whole bar width
};

// Horizontal stacked bars, one row per object; segment i is drawn in colours[i] and listed in the legend.
std::string stackedBars(const std::string& title, const std::vector<std::string>& segments,
                        const std::vector<std::string>& colours, const std::vector<StackedRow>& rows);

// Charts of a report.json document (docs/report.md). Each returns "" when the report lacks the data.
std::string kernelsInFlightChart(const nlohmann::json& report); // time at each count, per device
std::string deviceStateChart(const nlohmann::json& report);     // useful/communication/idle per device
std::string overlapChart(const nlohmann::json& report);
// Over time, from report.json's "timeline" (SvgTimeline.cpp).
std::string inFlightTimelineChart(const nlohmann::json& report);
std::string stateTimelineChart(const nlohmann::json& report); // share of communication time per level
// Kernel time by category and idle gaps by duration (SvgBreakdown.cpp).
std::string kernelCategoryChart(const nlohmann::json& report);
std::string gapHistogramChart(const nlohmann::json& report);
// The four factors over the iterations (SvgLevels.cpp).
std::string iterationEfficiencyChart(const nlohmann::json& report);

} // namespace gpueff::reports::svg
