#pragma once
#include "engine/nsys/NsysExport.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>

namespace gpueff::nsys {

// How far rows read in storage order run behind the latest start seen before them (0: stored by start).
struct Lateness {
    std::int64_t worst = 0, latest = INT64_MIN;
    // Starts are validated times (0 .. kMaxTimeNs), so the difference cannot overflow.
    void see(std::int64_t start) {
        if (start < latest) worst = std::max(worst, latest - start);
        latest = std::max(latest, start);
    }
};

struct ScanSpan {
    std::int64_t first = INT64_MAX, last = INT64_MIN;
    std::int64_t lateness = 0; // how far (ns) a row's start lies before the latest start stored ahead of it
};

// The pre-pass of one table in a single sequential scan of the rows the translation reads (rowsRead, no GROUP
// BY, which would make SQLite sort): its time span, whether its rows are stored by start (then the
// translation reads them in rowid order, unsorted), and its objects: `onKey` sees the key columns whenever
// they differ from the previous row's. The rows it leaves out (RowValidity.h) are counted in the same scan
// when the table was not counted before (NsysExport::countsLeftOut), by the same rule evaluated on the row
// (RowCheck): a second reading of the table saved.
ScanSpan scanTable(const NsysExport& ex, const std::string& table, const std::string& keyColumns,
                   int keyCount, const std::function<void(const std::int64_t* keys)>& onKey,
                   const std::function<void(std::int64_t start, std::int64_t end)>& onRow = {});

} // namespace gpueff::nsys
