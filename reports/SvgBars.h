#pragma once
// Bar charts on the frame of SvgFrame.h, for report.md (SvgPlot.cpp, SvgBreakdown.cpp) and compare.md
// (SvgCompare.cpp): one drawing of grouped bars and one of stacked rows, so that every bar chart looks alike.
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::reports::svg {

// "25 %": the tick label of a percentage axis.
std::string percentTick(double v);

// Vertical grouped bars: one group per category along x, one bar per series inside each group.
struct BarChart {
    std::string title, xTitle, yTitle;
    // A category label is shortened to 22 characters per line; '\n' breaks it into lines.
    std::vector<std::string> categories, series, colours;   // a series named "" has no legend entry
    std::vector<std::vector<std::optional<double>>> values; // [category][series], in axis units
    double hi = 100, step = 25;                             // the y axis: [0, hi], a tick every step
    bool markUnknown = false; // "n/a" where a value is missing (not for a phase a run does not have)
    std::function<std::string(double)> tick = percentTick;
};
std::string barChart(const BarChart& chart);

// Values of one bar per category, as fractions (a non-finite value draws no bar): a device's, in the charts
// of report.md.
struct Series {
    std::string label;
    std::vector<double> values;
};
// Beyond this many devices per-device bars cannot be told apart.
inline constexpr std::size_t kMaxDeviceSeries = 8;
// The series, or beyond kMaxDeviceSeries three: their mean ("Average (N devices)"), minimum and maximum per
// category.
std::vector<Series> condense(std::vector<Series> perDevice, std::size_t categories);
// Fractions as bars of percentages (0 to 100 %): one group per category, one bar per series, in the run
// colours.
BarChart percentBars(std::string title, std::string xTitle, std::string yTitle,
                     std::vector<std::string> categories, const std::vector<Series>& series);

// Horizontal stacked bars, one row per object (its label left of the plot), each segment a share of the row
// in [0, 1], drawn on a percentage axis and labelled inside the bar where it is wide enough.
struct StackedBarChart {
    std::string title, xTitle, yTitle;
    std::vector<std::string> segments, colours; // the legend, in stacking order
    struct Row {
        std::string label;
        std::vector<double> fractions; // one per segment
    };
    std::vector<Row> rows;
};
std::string stackedBarChart(const StackedBarChart& chart);

} // namespace gpueff::reports::svg
