#include "engine/semantic/Filter.h"

#include "engine/common/Error.h"

namespace gpueff::semantic {

using namespace paraver::RecordBits;

FilterOp filterOp(const std::string& name, const std::string& where) {
    static const std::pair<const char*, FilterOp> ops[] = {
        {"All", FilterOp::All},     {"None", FilterOp::None}, {"=", FilterOp::Equal},
        {"!=", FilterOp::NotEqual}, {">", FilterOp::Greater}, {"<", FilterOp::Less},
        {"[x,y]", FilterOp::Range}};
    for (const auto& [text, op] : ops)
        if (name == text) return op;
    throw Error(where + ": unknown filter function '" + name + "'");
}

// The list is walked until the function says stop, keeping the last result; an absent list leaves the
// function's default (true only for All).
bool filterList(FilterOp op, const std::vector<double>& list, bool listGiven, double data) {
    bool result = op == FilterOp::All;
    if (!listGiven) return result;
    for (std::size_t i = 0; i < list.size(); ++i) {
        double p = list[i];
        bool stop = true;
        switch (op) {
        case FilterOp::All:
            result = true;
            break;
        case FilterOp::None:
            result = false;
            break;
        case FilterOp::Equal:
            stop = result = data == p;
            break;
        case FilterOp::NotEqual:
            result = data != p;
            stop = !result;
            break;
        case FilterOp::Greater:
            result = data > p;
            stop = !result;
            break;
        case FilterOp::Less:
            result = data < p;
            stop = !result;
            break;
        case FilterOp::Range:
            if (i == 0) {
                result = data >= p;
                stop = !result;
            } else if (i == 1) {
                result = data <= p;
            }
            break;
        }
        if (stop) break;
    }
    return result;
}

Filter::Filter(const FilterSpec& spec, const paraver::TraceLabels& labels, const std::string& where)
    : spec_(spec), fromOp_(filterOp(spec.fromFunction, where)), toOp_(filterOp(spec.toFunction, where)),
      tagOp_(filterOp(spec.tagFunction, where)), sizeOp_(filterOp(spec.sizeFunction, where)),
      bandwidthOp_(filterOp(spec.bandwidthFunction, where)), typeOp_(filterOp(spec.typeFunction, where)),
      valueOp_(filterOp(spec.valueFunction, where)) {
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
    everyLinePasses_ = fromOp_ == FilterOp::All && toOp_ == FilterOp::All && tagOp_ == FilterOp::All &&
                       sizeOp_ == FilterOp::All && bandwidthOp_ == FilterOp::All;
}

bool Filter::passEvent(std::uint32_t type, std::int64_t value) const {
    bool result = filterList(typeOp_, types_, hasTypes_, static_cast<double>(type));
    if (spec_.typeValueAnd && !result) return false;
    if (!spec_.typeValueAnd && result) return true;
    if (hasValues_) result = filterList(valueOp_, values_, true, static_cast<double>(value));
    return result;
}

std::vector<double> Filter::validEventTypes(const std::vector<std::uint32_t>& loaded) const {
    std::vector<double> out;
    if (types_.empty()) return out;
    for (auto t : loaded)
        if (filterList(typeOp_, types_, true, static_cast<double>(t))) out.push_back(t);
    return out;
}

bool Filter::passCommunication(const paraver::Trace& trace, std::uint32_t comm, std::uint16_t type,
                               const ObjectModel& objects, Level level, double unitsPerTraceUnit) const {
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
    // Every remaining test passes whatever its list when its function is All (filterList): the common case,
    // and the one the analysis' cfgs ask for on every launch line.
    if (everyLinePasses_) return true;
    bool result = filterList(fromOp_, from_, !from_.empty(),
                             static_cast<double>(objects.ownerOfThread(level, c.sendThread)));
    if (spec_.fromToAnd && !result) return false;
    if (!spec_.fromToAnd && result) return true;
    result =
        filterList(toOp_, to_, !to_.empty(), static_cast<double>(objects.ownerOfThread(level, c.recvThread)));
    if (!result) return false;
    result = filterList(tagOp_, spec_.tags, !spec_.tags.empty(), static_cast<double>(c.tag));
    if (spec_.tagSizeAnd && !result) return false;
    if (!spec_.tagSizeAnd && result) return true;
    result = filterList(sizeOp_, spec_.sizes, !spec_.sizes.empty(), static_cast<double>(c.size));
    if (!result) return false;
    if (spec_.bandwidths.empty()) return filterList(bandwidthOp_, {}, false, 0);
    double time = 0;
    if (spec_.logical && c.logicalRecv > c.physicalRecv)
        time = static_cast<double>(c.logicalRecv - c.logicalSend);
    else if (spec_.physical)
        time = static_cast<double>(c.physicalRecv - c.physicalSend);
    else
        time = static_cast<double>(c.physicalRecv - c.logicalSend);
    double bandwidth = static_cast<double>(c.size) / (time * unitsPerTraceUnit);
    return filterList(bandwidthOp_, spec_.bandwidths, true, bandwidth);
}

} // namespace gpueff::semantic
