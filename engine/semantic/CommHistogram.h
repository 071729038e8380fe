#pragma once
#include "engine/semantic/Histogram.h"
#include "engine/semantic/HistogramCells.h"

namespace gpueff::semantic {

struct RowGroup;

// A communication histogram: one row per control-window object (Analyzer2D.Objects applied by the caller's
// `rows`), one column per partner object at the same level; each cell folds the row's communication records
// (logical and physical sends and receives that pass the control window's filter, timed within
// [begin, end]) whose partner is that column's object; a CPU, node or system row reads the records on its
// CPUs, partners being the other end's CPU. Its cells are filled a group of rows at a time (HistogramByRows):
// a row reads its own threads' (or CPUs') communication records, whatever group the partner is in.
class CommunicationCells {
public:
    CommunicationCells(const HistogramSpec& spec, const WindowSet& windows, std::vector<std::size_t> rows,
                       std::int64_t begin, std::int64_t end);
    void add(const WindowSet& windows, const RowGroup& group);
    HistogramTable table(const WindowSet& windows) const;

private:
    const HistogramSpec& spec_;
    std::vector<std::size_t> rows_;
    std::int64_t begin_, end_;
    std::size_t partners_ = 0;
    std::vector<std::vector<CommCell>> cells_; // [row][partner]
};

} // namespace gpueff::semantic
