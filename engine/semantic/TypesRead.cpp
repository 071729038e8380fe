#include "engine/semantic/TypesRead.h"

#include "engine/paraver/RecordStream.h"
#include "engine/semantic/Filter.h"
#include "engine/semantic/ThreadFunctions.h"

#include <cmath>

namespace gpueff::semantic {

namespace {
// A type written in a cfg as a number (the parser checked it is whole and in range); anything else makes
// the caller keep every type.
bool asType(double t, std::uint32_t& out) {
    if (!(t >= 0) || t > static_cast<double>(UINT32_MAX) || std::floor(t) != t) return false;
    out = static_cast<std::uint32_t>(t);
    return true;
}

// Whether a window reads event records at all: its thread function's record mask has them. Windows over
// CPUs walk Paraver's CPU lists (CpuRecords) and are counted as readers.
bool readsEvents(const WindowSpec& w, const std::string& where) {
    if (w.level == Level::System || w.level == Level::Node || w.level == Level::Cpu) return true;
    auto f = w.functions.find("thread");
    const std::string name = f == w.functions.end() ? "State As Is" : f->second.name;
    return (threadFunction(name, where).mask & paraver::RecordBits::Event) != 0;
}

std::optional<TypeRanges> typesOf(const std::vector<Cfg>& cfgs, const paraver::TraceLabels& labels,
                                  bool walkedOnly) {
    TypeRanges ranges;
    for (const auto& cfg : cfgs)
        for (const auto& w : cfg.windows) {
            if (w.derived) continue; // a derived window sees what its parents' filters keep
            if (walkedOnly && !readsEvents(w, cfg.path)) continue;
            const auto& f = w.filter;
            // With OR, an event of any type may pass by its value.
            if (!f.typeValueAnd) return std::nullopt;
            Filter filter(f, labels, cfg.path);
            const auto& types = filter.types();
            std::uint32_t a = 0, b = 0;
            if (f.typeFunction == "=") {
                for (auto t : types) {
                    if (!asType(t, a)) return std::nullopt;
                    ranges.emplace_back(a, a);
                }
            } else if (f.typeFunction == "[x,y]" && types.size() >= 2) {
                if (!asType(types[0], a) || !asType(types[1], b)) return std::nullopt;
                if (a <= b) ranges.emplace_back(a, b);
            } else {
                return std::nullopt;
            }
        }
    return ranges;
}

} // namespace

std::optional<TypeRanges> eventTypesSeen(const std::vector<Cfg>& cfgs, const paraver::TraceLabels& labels) {
    return typesOf(cfgs, labels, false);
}

std::optional<TypeRanges> eventTypesWalked(const std::vector<Cfg>& cfgs, const paraver::TraceLabels& labels) {
    return typesOf(cfgs, labels, true);
}

} // namespace gpueff::semantic
