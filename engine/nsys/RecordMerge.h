#pragma once
#include "engine/nsys/Distribution.h"
#include "engine/nsys/RecordSource.h"
#include "engine/nsys/Translator.h"
#include "engine/paraver/EventCatalog.h"
#include "engine/pipeline/RecordSink.h"

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
// line on standard error every 2^20 records. Several threads may merge at once into summaries of their own.
void mergeSources(std::vector<std::unique_ptr<RecordSource>>& sources, pipeline::RecordSink& sink,
                  paraver::EventCatalog& catalog, TranslateSummary& summary, bool progress,
                  const MergeTaps& taps = {});

// Adds the counts of a part of the stream (mergeSources into another summary) to `summary`.
void addCounts(TranslateSummary& summary, const TranslateSummary& part);

} // namespace gpueff::nsys
