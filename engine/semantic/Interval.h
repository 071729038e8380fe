#pragma once
#include "engine/paraver/Trace.h"
#include "engine/paraver/TraceLabels.h"
#include "engine/semantic/Cfg.h"
#include "engine/semantic/ObjectModel.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace gpueff::semantic {

// What a window's values mean; decides how a histogram labels its columns (Paraver's SemanticInfoType).
enum class InfoType {
    Same,
    None,
    State,
    EventType,
    EventValue,
    Time,
    CommSize,
    CommTag,
    Object,
    Application,
    Task,
    Thread,
    Node,
    Cpu,
    Bandwidth
};

// The trace a window is evaluated on, with its labels.
struct TraceContext {
    const paraver::Trace& trace;
    const paraver::TraceLabels& labels;
    const ObjectModel& objects;
    std::int64_t endTime;                  // effective end: max(header, last record)
    std::vector<std::uint32_t> eventTypes; // sorted, distinct: the event types the trace has
};

// Converts a duration in trace units to a window's units, with Paraver's double arithmetic.
double toWindowUnits(double traceTime, paraver::TimeUnit traceUnit, Unit windowUnit);

// One row of a window: a cursor over its semantic intervals [begin, end) with their values, from the
// trace start. Paraver's rule: an interval runs from one valid record to the next; after the last one the
// cursor stays at the trace end with zero-length intervals.
class Interval {
public:
    virtual ~Interval() = default;
    virtual void init() = 0;
    virtual void next() = 0;

    std::int64_t begin = 0, end = 0;
    double value = 0.0;
};

using IntervalPtr = std::unique_ptr<Interval>;

} // namespace gpueff::semantic
