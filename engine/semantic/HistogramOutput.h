#pragma once
#include "engine/semantic/Histogram.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace gpueff::semantic {

struct RowGroup;

// paramedir's tab-separated histogram text: column labels, one line per row, a blank line, then the six
// totals lines; values fixed-point with `precision` decimals (paramedir: 2, or 10 with -npr).
void writeHistogramText(std::ostream& out, const HistogramTable& table, int precision);

nlohmann::json histogramJson(const HistogramTable& table);
// The planes of computeHistogramPlanes: each plane's table (a 3D histogram's under its label); JSON
// {"planes": [...]} for a 3D histogram, the single table's object otherwise.
void writeHistogramText(std::ostream& out, const std::vector<HistogramTable>& planes, int precision);
nlohmann::json histogramJson(const std::vector<HistogramTable>& planes);

// paramedir's dump of a window without histogram: "object\tbegin\tduration\tvalue" per semantic interval
// of each row over the window's time range, in the window's units with 2 decimals.
void writeTimelineCsv(std::ostream& out, const WindowSet& windows, std::size_t window);
// The same for the rows of one group (gpueff histogram's passes: groups in ascending order write the
// whole dump).
void writeTimelineCsv(std::ostream& out, const WindowSet& windows, std::size_t window, const RowGroup& group);

// Fixed-point text of `v` with `precision` decimals (nan/inf spelled as iostream does).
std::string fixed(double v, int precision);

} // namespace gpueff::semantic
