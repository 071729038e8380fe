#include "engine/semantic/Filter.h"

#include "engine/common/Error.h"

namespace gpueff::semantic {

using namespace paraver::RecordBits;

bool isFilterFunction(const std::string& f) {
    return f == "All" || f == "None" || f == "=" || f == "!=" || f == ">" || f == "<" || f == "[x,y]";
}

// The list is walked until the function says stop, keeping the last result; an absent list leaves the
// function's default (true only for All).
bool filterList(const std::string& f, const std::vector<double>& list, bool listGiven, double data) {
    bool result = f == "All";
    if (!listGiven) return result;
    for (std::size_t i = 0; i < list.size(); ++i) {
        double p = list[i];
        bool stop = true;
        if (f == "All")
            result = true;
        else if (f == "None")
            result = false;
        else if (f == "=")
            stop = result = data == p;
        else if (f == "!=") {
            result = data != p;
            stop = !result;
        } else if (f == ">") {
            result = data > p;
            stop = !result;
        } else if (f == "<") {
            result = data < p;
            stop = !result;
        } else if (f == "[x,y]") {
            if (i == 0) {
                result = data >= p;
                stop = !result;
            } else if (i == 1) {
                result = data <= p;
                stop = true;
            }
        } else
            throw Error("unknown filter function '" + f + "'");
        if (stop) break;
    }
    return result;
}

Filter::Filter(const FilterSpec& spec, const paraver::TraceLabels& labels, const std::string& where)
    : spec_(spec) {
    for (const auto* f : {&spec.fromFunction, &spec.toFunction, &spec.tagFunction, &spec.sizeFunction,
                          &spec.bandwidthFunction, &spec.typeFunction, &spec.valueFunction})
        if (!isFilterFunction(*f)) throw Error(where + ": unknown filter function '" + *f + "'");
    // Labels win over numbers when the .pcf knows them (Paraver's symbol picking); a label the .pcf lacks
    // keeps the number written beside it.
    if (!spec.typeLabels.empty() && spec.typeLabels.size() == spec.types.size()) {
        for (std::size_t i = 0; i < spec.types.size(); ++i) {
            auto found = labels.typesLabelled(spec.typeLabels[i]);
            if (found.empty()) types_.push_back(spec.types[i]);
            for (auto t : found) types_.push_back(t);
        }
    } else {
        for (auto t : spec.types) types_.push_back(t);
    }
    if (!spec.valueLabels.empty() && spec.valueLabels.size() == spec.values.size()) {
        for (std::size_t i = 0; i < spec.values.size(); ++i) {
            bool found = false;
            for (const auto& [type, values] : labels.eventValues)
                for (const auto& [value, label] : values)
                    if (label == spec.valueLabels[i]) {
                        values_.push_back(static_cast<double>(value));
                        found = true;
                    }
            if (!found) values_.push_back(spec.values[i]);
        }
    } else {
        values_ = spec.values;
    }
    for (auto v : spec.from) from_.push_back(v - 1);
    for (auto v : spec.to) to_.push_back(v - 1);
    hasTypes_ = !types_.empty();
    hasValues_ = !values_.empty();
}

bool Filter::passEvent(std::uint32_t type, std::int64_t value) const {
    bool result = filterList(spec_.typeFunction, types_, hasTypes_, static_cast<double>(type));
    if (spec_.typeValueAnd && !result) return false;
    if (!spec_.typeValueAnd && result) return true;
    if (hasValues_) result = filterList(spec_.valueFunction, values_, true, static_cast<double>(value));
    return result;
}

bool Filter::passCommunication(const paraver::Trace& trace, std::uint32_t comm, std::uint16_t type,
                               const std::function<double(std::uint32_t)>& objectOf,
                               double unitsPerTraceUnit) const {
    const auto& c = trace.communications[comm];
    if (!(spec_.logical && spec_.physical)) {
        if (!spec_.logical && !spec_.physical) return false;
        if (type & Logical) {
            if (!spec_.logical) return false;
        } else if (type & Physical) {
            // With only logical selected, a physical receive still counts when it happens after the logical
            // one.
            if (!spec_.physical &&
                !(spec_.logical && (type & (Recv | RemoteRecv)) && c.logicalRecv <= c.physicalRecv))
                return false;
        }
    }
    bool result = filterList(spec_.fromFunction, from_, !from_.empty(), objectOf(c.sendThread));
    if (spec_.fromToAnd && !result) return false;
    if (!spec_.fromToAnd && result) return true;
    result = filterList(spec_.toFunction, to_, !to_.empty(), objectOf(c.recvThread));
    if (!result) return false;
    result = filterList(spec_.tagFunction, spec_.tags, !spec_.tags.empty(), static_cast<double>(c.tag));
    if (spec_.tagSizeAnd && !result) return false;
    if (!spec_.tagSizeAnd && result) return true;
    result = filterList(spec_.sizeFunction, spec_.sizes, !spec_.sizes.empty(), static_cast<double>(c.size));
    if (!result) return false;
    if (spec_.bandwidths.empty()) return filterList(spec_.bandwidthFunction, {}, false, 0);
    double time = 0;
    if (spec_.logical && c.logicalRecv > c.physicalRecv)
        time = static_cast<double>(c.logicalRecv - c.logicalSend);
    else if (spec_.physical)
        time = static_cast<double>(c.physicalRecv - c.physicalSend);
    else
        time = static_cast<double>(c.physicalRecv - c.logicalSend);
    double bandwidth = static_cast<double>(c.size) / (time * unitsPerTraceUnit);
    return filterList(spec_.bandwidthFunction, spec_.bandwidths, true, bandwidth);
}

} // namespace gpueff::semantic
