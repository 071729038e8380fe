#pragma once
#include "engine/semantic/Window.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::semantic {

// Paraver's 2D histogram of a control window (columns from its values) over a data window (the statistic
// of its bursts), one row per control-window object.
struct HistogramTable {
    std::string name, statistic;
    bool horizontal = true;
    std::vector<std::string> rowLabels;
    std::vector<std::string> columnLabels;                 // of the printed columns
    std::vector<std::vector<std::optional<double>>> cells; // [row][printed column]; empty = no burst
    // Total, Average, Maximum, Minimum, StDev, Avg/Max over the cells with a value: per printed column
    // (printed under a horizontal table) and per row (under a vertical one).
    struct Totals {
        std::vector<double> total, average, maximum, minimum, stdev, avgDivMax;
    };
    Totals columnTotals, rowTotals;
    std::int64_t beginTime = 0, endTime = 0; // analysed range, trace units
    // A plane of a 3D histogram: its label (the 3D window's value) and how many planes the scale has (0
    // for a 2D histogram).
    std::string planeLabel;
    std::size_t planeCount = 0;
};

// Columns of a computed scale over a wide range of values: ParaverConfig's histoNumColumns default, which
// paramedir uses unless the user's ~/.paraver/paraver changes it.
inline constexpr std::size_t kDefaultColumns = 200;

// gpueff's cap on a histogram's cells (rows x columns, about 100 bytes each, allocated up front).
inline constexpr std::size_t kMaxHistogramCells = 10'000'000;

// Statistic names paramedir accepts for semantic histograms.
const std::vector<std::string>& histogramStatistics();

HistogramTable computeHistogram(const Cfg& cfg, const WindowSet& windows); // a 2D histogram
// Every plane with a value (one table for a 2D histogram), in plane order.
std::vector<HistogramTable> computeHistogramPlanes(const Cfg& cfg, const WindowSet& windows);

// Appends the totals of `values` (empty entries skipped) to `totals`.
void addTotals(HistogramTable::Totals& totals, const std::vector<std::optional<double>>& values);

// Fills `t`'s cells, column labels and column and row totals from every cell value ([row][column] of
// `columns`, empty: no burst); HideCols (`hideColumns`) leaves out the columns whose total is 0; `label(k)`
// names column k.
void fillColumns(HistogramTable& t, const std::vector<std::vector<std::optional<double>>>& values,
                 std::size_t columns, bool hideColumns, const std::function<std::string(std::size_t)>& label);

} // namespace gpueff::semantic
