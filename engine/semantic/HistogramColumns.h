#pragma once
#include "engine/semantic/Window.h"

#include <string>

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
// for an integral column of width 1, else the range "[a..b)" with thousands separators.
std::string columnLabel(const WindowSet& windows, std::size_t w, const Columns& c, std::size_t i);

} // namespace gpueff::semantic
