#include "engine/semantic/TypesRead.h"

#include "engine/semantic/Filter.h"

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
} // namespace

std::optional<TypeRanges> eventTypesSeen(const std::vector<Cfg>& cfgs, const paraver::TraceLabels& labels) {
    TypeRanges ranges;
    for (const auto& cfg : cfgs)
        for (const auto& w : cfg.windows) {
            if (w.derived) continue; // a derived window sees what its parents' filters keep
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

} // namespace gpueff::semantic
