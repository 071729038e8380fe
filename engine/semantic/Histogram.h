#pragma once
#include "engine/semantic/Window.h"

#include <functional>
#include <memory>
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

HistogramTable computeHistogram(const Cfg& cfg, const WindowSet& windows); // a 2D histogram
// Every plane with a value (one table for a 2D histogram), in plane order.
std::vector<HistogramTable> computeHistogramPlanes(const Cfg& cfg, const WindowSet& windows);

struct RowGroup;

// A histogram evaluated a group of rows at a time, each group on its own load of the trace (gpueff
// histogram's passes over a trace larger than memory), with the numbers of computeHistogramPlanes: a row's
// cells read only its own rows' records (and those of its children and of the coarser rows a derived window
// reads, which a RowGroup cut at the right level holds). Groups are given in ascending row order, each
// group's WindowSet compiled from the same cfg on a trace with the same header, labels and event types
// (LoadedTrace::load's eventTypes).
class HistogramByRows {
public:
    HistogramByRows(const Cfg& cfg, const WindowSet& windows); // validates as computeHistogramPlanes does
    ~HistogramByRows();
    HistogramByRows(const HistogramByRows&) = delete;
    HistogramByRows& operator=(const HistogramByRows&) = delete;

    // Whether the columns come from the values of every row (ComputeYScale): then every group goes to
    // scale() before any goes to add(), which means a second round of passes. Otherwise scale() does
    // nothing and add() may follow it in the same pass.
    bool scaleFirst() const;
    void scale(const WindowSet& windows, const RowGroup& group);
    void add(const WindowSet& windows, const RowGroup& group);
    // After every group was added: computeHistogramPlanes' tables.
    std::vector<HistogramTable> tables(const WindowSet& windows);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Appends the totals of `values` (empty entries skipped) to `totals`.
void addTotals(HistogramTable::Totals& totals, const std::vector<std::optional<double>>& values);

// Fills `t`'s cells, column labels and column and row totals from every cell value ([row][column], empty: no
// burst): the columns printed are `printed`, in that order (printedColumns), `label(k)` names column k. Row
// totals are over every column, printed or not, as Paraver's.
void fillColumns(HistogramTable& t, const std::vector<std::vector<std::optional<double>>>& values,
                 const std::vector<std::size_t>& printed, const std::function<std::string(std::size_t)>& label);

} // namespace gpueff::semantic
