#include "engine/semantic/HistogramColumns.h"

#include "engine/common/Error.h"
#include "engine/semantic/WholeNumber.h"

#include <cmath>
#include <sstream>

namespace gpueff::semantic {

bool Columns::column(double v, std::size_t& out) const {
    if (!(v >= min && v <= max)) return false; // nan too
    // (v - min) / delta is >= 0 here, or nan for a zero-width range: the last column, as for max.
    double c = std::floor((v - min) / delta);
    out = c < static_cast<double>(count - 1) ? static_cast<std::size_t>(c) : count - 1;
    return true;
}

Columns fixedDelta(double min, double max, double delta, const std::string& where) {
    Columns c{min, max, delta, 1};
    double n = std::ceil((max - min) / delta);
    if (delta == 1 && n * delta + min <= max) ++n;
    if (!(n <= static_cast<double>(kMaxHistogramColumns)))
        throw Error(where + ": " + std::to_string(max - min) + " / " + std::to_string(delta) +
                    " gives more columns than gpueff's limit of " + std::to_string(kMaxHistogramColumns));
    c.count = n >= 1 ? static_cast<std::size_t>(n) : 1;
    return c;
}

Columns byCount(double min, double max, std::size_t count) {
    return Columns{min, max, (max - min) / static_cast<double>(count), count};
}

namespace {

// A number with "," thousands groups and `precision` decimals, as Paraver's column labels print it.
std::string grouped(double v, int precision) {
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(precision);
    s << std::fabs(v);
    auto text = s.str();
    auto dot = text.find('.');
    std::string whole = text.substr(0, dot), frac = dot == std::string::npos ? "" : text.substr(dot);
    std::string out;
    for (std::size_t i = 0; i < whole.size(); ++i) {
        if (i > 0 && (whole.size() - i) % 3 == 0) out += ',';
        out += whole[i];
    }
    return (v < 0 ? "-" : "") + out + frac;
}

// Paraver's semanticLabel for an integral column value.
std::string semanticLabel(const WindowSet& windows, std::size_t w, double v) {
    const auto& labels = windows.context().labels;
    double intPart = 0;
    std::string number = grouped(v, std::modf(v, &intPart) != 0.0 ? 2 : 0);
    switch (windows.infoType(w)) {
    case InfoType::State: {
        auto state = wholeAs<std::uint32_t>(v);
        auto it = state ? labels.states.find(*state) : labels.states.end();
        return it == labels.states.end() ? "Unknown state " + number : it->second;
    }
    case InfoType::EventType: {
        auto type = wholeAs<std::uint32_t>(v);
        auto it = type ? labels.eventTypes.find(*type) : labels.eventTypes.end();
        return it == labels.eventTypes.end() ? "type " + number : it->second;
    }
    case InfoType::EventValue: {
        auto value = wholeAs<std::int64_t>(v);
        if (!value) return "value " + number;
        auto types = windows.filterTypes(w);
        for (auto t : types) {
            auto type = wholeAs<std::uint32_t>(t);
            auto it = type ? labels.eventValues.find(*type) : labels.eventValues.end();
            if (it == labels.eventValues.end()) continue;
            auto vit = it->second.find(*value);
            if (vit != it->second.end()) return vit->second;
        }
        if (types.empty())
            for (const auto& [type, values] : labels.eventValues) {
                auto vit = values.find(*value);
                if (vit != values.end()) return vit->second;
            }
        return "value " + number;
    }
    case InfoType::CommSize:
        return number + " bytes";
    case InfoType::Application:
    case InfoType::Task:
    case InfoType::Thread:
    case InfoType::Object: {
        Level l = windows.infoType(w) == InfoType::Application ? Level::Application
                  : windows.infoType(w) == InfoType::Task      ? Level::Task
                  : windows.infoType(w) == InfoType::Thread    ? Level::Thread
                                                               : windows.level(w);
        auto object = wholeAs<std::size_t>(v);
        if (!object || *object < 1 || *object > windows.context().objects.count(l)) return number;
        auto name = labels.rowName(levelName(l), *object - 1);
        return name.empty() ? windows.context().objects.label(l, *object - 1, true) : name;
    }
    default:
        return number;
    }
}

} // namespace

std::string columnLabel(const WindowSet& windows, std::size_t w, const Columns& c, std::size_t i) {
    double intPart = 0;
    double from = static_cast<double>(i) * c.delta + c.min;
    if (std::modf(c.min, &intPart) != 0.0 || c.delta != 1.0) {
        double to = from + c.delta;
        if (to >= c.max) return "[" + grouped(from, 2) + ".." + grouped(c.max, 2) + "]";
        return "[" + grouped(from, 2) + ".." + grouped(to, 2) + ")";
    }
    return semanticLabel(windows, w, from);
}

} // namespace gpueff::semantic
