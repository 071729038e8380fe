#pragma once
#include "engine/paraver/Trace.h"
#include "engine/paraver/TraceLabels.h"
#include "engine/semantic/Cfg.h"
#include "engine/semantic/ObjectModel.h"

#include <string>
#include <vector>

namespace gpueff::semantic {

enum class FilterOp { All, None, Equal, NotEqual, Greater, Less, Range };

// A window's event and communication filter, as Paraver applies it: the type test, then (AND/OR) the
// value test; for communications logical/physical selection, from/to objects, tag/size, bandwidth.
class Filter {
public:
    // Event type labels are resolved through the .pcf; `where` names the cfg for errors.
    Filter(const FilterSpec& spec, const paraver::TraceLabels& labels, const std::string& where);

    bool passEvent(std::uint32_t type, std::int64_t value) const;
    // `recordType` is the RecordStream type bits of the record in the thread being walked; from/to filters
    // compare the sender's and receiver's objects at the window's `level`.
    bool passCommunication(const paraver::Trace& trace, std::uint32_t comm, std::uint16_t recordType,
                           const ObjectModel& objects, Level level, double unitsPerTraceUnit) const;

    bool logical() const { return spec_.logical; }
    bool physical() const { return spec_.physical; }
    const std::vector<double>& types() const { return types_; }
    // Of `loaded` (the trace's types, ascending), those the type test keeps; none when no type is listed.
    std::vector<double> validEventTypes(const std::vector<std::uint32_t>& loaded) const;

private:
    FilterSpec spec_;
    FilterOp fromOp_, toOp_, tagOp_, sizeOp_, bandwidthOp_, typeOp_, valueOp_;
    std::vector<double> types_, values_, from_, to_; // from/to 0-based like the window's objects
    bool hasTypes_ = false, hasValues_ = false;
    // Past the logical/physical test every line passes: from, to, tag, size and bandwidth are all All.
    bool everyLinePasses_ = false;
};

// Paraver's filter functions over a list: All, None, =, !=, >, <, [x,y].
bool filterList(FilterOp op, const std::vector<double>& list, bool listGiven, double data);
// The operator a cfg names; throws, naming `where`, for other names.
FilterOp filterOp(const std::string& name, const std::string& where);

} // namespace gpueff::semantic
