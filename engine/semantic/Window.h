#pragma once
#include "engine/semantic/AggregateFunctions.h"
#include "engine/semantic/ComposeFunctions.h"
#include "engine/semantic/CpuInterval.h"
#include "engine/semantic/DerivedFunctions.h"
#include "engine/semantic/Filter.h"
#include "engine/semantic/Interval.h"
#include "engine/semantic/ThreadFunctions.h"

#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace gpueff::semantic {

// The windows of one cfg resolved against one trace: every function name looked up (errors name the cfg,
// window and function), filters compiled with the trace's labels. Rows are built on demand as interval
// cursors, so a histogram holds only the current interval of each row.
class WindowSet {
public:
    WindowSet(const Cfg& cfg, const TraceContext& context);

    std::size_t size() const { return windows_.size(); }
    std::size_t rows(std::size_t w) const;
    // The rows window `w` bounds a histogram to, [first, last] (window_zoom_objects, each end past the last
    // row read as the last; all rows without it). Empty (first > last) when the zoom starts after its end or
    // the level has no row.
    std::pair<std::size_t, std::size_t> zoomedRows(std::size_t w) const;
    Level level(std::size_t w) const { return windows_[w].spec->level; }
    Unit unit(std::size_t w) const { return windows_[w].spec->unit; }
    const std::string& name(std::size_t w) const { return windows_[w].spec->name; }
    InfoType infoType(std::size_t w) const;
    bool codeColor(std::size_t w) const { return windows_[w].spec->codeColor; }
    // The trace's event types the window's filter keeps, ascending (KFilter::getValidEvents: none when the
    // filter lists no type), for labelling event values.
    std::vector<double> filterTypes(std::size_t w) const;
    std::int64_t beginTime(std::size_t w) const;
    std::int64_t endTime(std::size_t w) const;
    std::string rowLabel(std::size_t w, std::size_t row, bool withLevel, bool fromRowFile) const;

    IntervalPtr makeRow(std::size_t w, std::size_t row) const;
    // Whether window `w`'s filter keeps a communication record (`type`: RecordBits of the walked thread's
    // record), for communication statistics.
    bool passesCommunication(std::size_t w, std::uint32_t comm, std::uint16_t type) const;
    // (logical, physical): the communication records window `w` selects.
    std::pair<bool, bool> filterSelection(std::size_t w) const;
    // The CPUs' record lists (set when a window is at CPU, node or system level).
    const CpuRecords* cpuRecords() const { return cpuRecords_.get(); }

    // Throws when window `w` itself filters only on event types the trace lacks (it reads 0 everywhere):
    // for the model's own cfgs, which must not turn an absent kind of activity into a zero. Cfgs evaluated
    // as paramedir does are refused only when no window's types exist (the constructor); otherwise
    // warnings() lists the absent types.
    void requireEvents(std::size_t w) const;
    // paramedir's rule for a cfg evaluated as it does (histograms, timeline dumps): refused when no window
    // filters on an event type the trace has ("None of the events specified in the filter appear in the
    // trace"); some types absent is a warning (warnings()).
    void requireSomeEvents() const;
    std::vector<std::string> warnings() const;
    const TraceContext& context() const { return context_; }

private:
    struct Bound {
        const AggregateFunction* aggregate = nullptr;
        const ComposeFunction* compose = nullptr;
        std::vector<std::vector<double>> params;
    };
    struct Compiled {
        const WindowSpec* spec = nullptr;
        const ThreadFunction* thread = nullptr;
        std::vector<std::vector<double>> threadParams;
        std::map<std::string, Bound> levels; // "task", "compose_task", "topcompose1", ...
        std::vector<Bound> extraTop;         // extratopcompose1 entries, innermost first
        const DerivedFunction* derived = nullptr;
        std::unique_ptr<Filter> filter;
        Level baseLevel = Level::Thread; // derived: the finest parent level
        std::string missingEvents;       // set when the filter's event types are all absent from the trace
        bool eventsExist = false;        // Paraver's "some events exist" for this window's filter
        std::vector<double> absentTypes; // filter types the trace has no event of
        std::string absentRange;         // "x to y": a [x,y] filter none of whose types the trace has
    };
    void checkEventTypes();
    void checkObjects();

    void compile(std::size_t w);
    IntervalPtr compose(std::size_t w, const std::string& key, IntervalPtr child) const;
    IntervalPtr compose(std::size_t w, const Bound& b, IntervalPtr child) const;
    IntervalPtr levelRow(std::size_t w, Level level, std::size_t row) const;
    IntervalPtr baseRow(std::size_t w, Level level, std::size_t row) const;
    IntervalPtr derivedRow(std::size_t w, std::size_t row) const;
    std::size_t ownerRow(Level from, std::size_t row, Level to) const;

    const Cfg& cfg_;
    const TraceContext& context_;
    std::vector<Compiled> windows_;
    std::vector<std::string> warnings_;
    std::string noEvents_;                   // paramedir's abort message, when it applies
    std::unique_ptr<CpuRecords> cpuRecords_; // built when a window is at CPU, node or system level
};

bool sameTree(Level a, Level b);
bool finerOrEqual(Level a, Level b); // a is b or below it

} // namespace gpueff::semantic
