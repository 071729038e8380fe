#pragma once
#include "engine/semantic/Histogram.h"

namespace gpueff::semantic {

// Paraver's communication statistics, in the order of its list.
const std::vector<std::string>& communicationStatistics();
bool isCommunicationStatistic(const std::string& name);

// A communication histogram: one row per control-window object (Analyzer2D.Objects applied by the caller's
// `rows`), one column per partner object at the same level; each cell folds the row's communication records
// (logical and physical sends and receives that pass the control window's filter, timed within
// [begin, end]) whose partner is that column's object; a CPU, node or system row reads the records on its
// CPUs, partners being the other end's CPU.
HistogramTable computeCommunicationHistogram(const HistogramSpec& spec, const WindowSet& windows,
                                             const std::vector<std::size_t>& rows, std::int64_t begin,
                                             std::int64_t end, const std::string& where);

} // namespace gpueff::semantic
