#pragma once
#include "engine/semantic/Window.h"

#include <optional>
#include <string>
#include <vector>

namespace gpueff::semantic {

// Column construction (Paraver's ColumnTranslator): fixed delta or a number of columns over [min, max].
struct Columns {
    double min = 0, max = 0, delta = 1;
    std::size_t count = 1;

    // The column of value `v`; false when it lies outside [min, max] (nan too).
    bool column(double v, std::size_t& out) const;
};

// Throws (naming `where`) when the range needs more columns than gpueff allocates.
Columns fixedDelta(double min, double max, double delta, const std::string& where);
Columns byCount(double min, double max, std::size_t count);

// Paraver's label of column `i` of window `w`'s scale: the .pcf's name (state, event type or value, object)
// for an integral column of width 1, else the range "[a..b)" with thousands separators. `shortLabels`
// (ShortHeaderLabels) drops an event value's name from its first '[' to its last ']'.
std::string columnLabel(const WindowSet& windows, std::size_t w, const Columns& c, std::size_t i,
                        bool shortLabels);

// LabelConstructor::transformToShort: `label` without the text from its first '[' to its last ']'.
std::string shortLabel(std::string label);

// The order paramedir prints a histogram's columns in (HistogramProxy's getSemanticRealColumn and
// getSemanticSortedColumn): the index of the value column printed k-th. `cells` are [row][column], empty
// where no burst fell; `sortCells` those of the plane whose column totals sort (Paraver's selected plane: the
// first with values). HideCols leaves out the columns whose total is 0; SortCols orders the columns by the
// criterion's total, largest first (a stable ascending sort read backwards, so ties come in reverse column
// order), SortReverse smallest first; SortReverse alone reverses the value order.
using CellColumns = std::vector<std::vector<std::optional<double>>>;
std::vector<std::size_t> printedColumns(const HistogramSpec& spec, const CellColumns& cells,
                                        const CellColumns& sortCells, std::size_t columns);

} // namespace gpueff::semantic
