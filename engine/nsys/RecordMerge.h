#pragma once
#include "engine/nsys/Distribution.h"
#include "engine/nsys/RecordSource.h"
#include "engine/nsys/Translator.h"
#include "engine/paraver/EventCatalog.h"
#include "engine/pipeline/RecordSink.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace gpueff::nsys {

// Where a distributed translation (Distribution.h) sends merged records besides the sink: sources
// [0, localSources) are read by this process, the others relay records other processes read.
struct MergeTaps {
    std::size_t localSources = SIZE_MAX;
    pipeline::RecordSink* local = nullptr; // the records of the local sources only
    Distribution* relay = nullptr;         // each local record with its merge key
    // Every record (`all`), or those of source `laneSource` (`lane`), also go to these sinks.
    pipeline::RecordSink* all = nullptr;
    std::size_t laneSource = SIZE_MAX;
    pipeline::RecordSink* lane = nullptr;
};

// Streams every source into the sink in the trace's total order (time, Paraver's order at equal times,
// row, then each source's own order): a k-way merge over a heap of sources, one record per source held.
// Counts what was written into `summary` and marks the event types used in `catalog`; `progress` shows a
// line on standard error every 2^20 records.
void mergeSources(std::vector<std::unique_ptr<RecordSource>>& sources, pipeline::RecordSink& sink,
                  paraver::EventCatalog& catalog, TranslateSummary& summary, bool progress,
                  const MergeTaps& taps = {});

// The event types one worker's records used, marked in the shared catalog once the worker is done.
class UsedTypes {
public:
    void markUsed(std::uint32_t type) {
        if (type == last_) return;
        last_ = type;
        if (std::find(types_.begin(), types_.end(), type) == types_.end()) types_.push_back(type);
    }
    void markIn(paraver::EventCatalog& catalog) const {
        for (auto t : types_) catalog.markUsed(t);
    }

private:
    std::uint32_t last_ = UINT32_MAX;
    std::vector<std::uint32_t> types_;
};

// mergeSources on a worker: the types used go to `used`, no progress line. For the reports read in turn
// into lanes of the sink (pipeline::RecordSink::openLane), one report per worker at a time.
void mergeSources(std::vector<std::unique_ptr<RecordSource>>& sources, pipeline::RecordSink& sink,
                  UsedTypes& used, TranslateSummary& summary);

// Adds the counts of a part of the stream (mergeSources into another summary) to `summary`.
void addCounts(TranslateSummary& summary, const TranslateSummary& part);

} // namespace gpueff::nsys
