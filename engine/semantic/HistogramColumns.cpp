#include "engine/semantic/HistogramColumns.h"

#include "engine/common/Error.h"
#include "engine/semantic/WholeNumber.h"

#include <algorithm>
#include <cmath>
#include <limits>
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
            if (auto label = it->second.find(*value)) return std::string(*label);
        }
        if (types.empty())
            for (const auto& [type, values] : labels.eventValues)
                if (auto label = values.find(*value)) return std::string(*label);
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

std::string columnLabel(const WindowSet& windows, std::size_t w, const Columns& c, std::size_t i,
                        bool shortLabels) {
    double intPart = 0;
    double from = static_cast<double>(i) * c.delta + c.min;
    if (std::modf(c.min, &intPart) != 0.0 || c.delta != 1.0) {
        double to = from + c.delta;
        if (to >= c.max) return "[" + grouped(from, 2) + ".." + grouped(c.max, 2) + "]";
        return "[" + grouped(from, 2) + ".." + grouped(to, 2) + ")";
    }
    auto label = semanticLabel(windows, w, from);
    return shortLabels && windows.infoType(w) == InfoType::EventValue ? shortLabel(std::move(label)) : label;
}

std::string shortLabel(std::string label) {
    auto open = label.find('[');
    auto close = label.rfind(']');
    if (open == std::string::npos || close == std::string::npos) return label;
    // Paraver erases (close - open + 1) characters as an unsigned count: a ']' before the first '[' erases
    // to the end of the label, unless it sits just before it (nothing erased).
    if (close + 1 == open) return label;
    label.erase(open, close > open ? close - open + 1 : std::string::npos);
    return label;
}

namespace {

// The value each column is sorted by: its total of the criterion over the cells with a value, as
// KHistogramTotals computes it (an empty column reads 0; Stdev as sqrt(|E[x^2] - E[x]^2|), Avg/Max 0 where
// the maximum is 0).
std::vector<double> sortKeys(SortCriterion criterion, const CellColumns& cells, std::size_t columns) {
    std::vector<double> keys(columns, 0.0);
    for (std::size_t k = 0; k < columns; ++k) {
        double n = 0, total = 0, squares = 0, maximum = -std::numeric_limits<double>::max(),
               minimum = std::numeric_limits<double>::max();
        for (const auto& row : cells) {
            if (k >= row.size() || !row[k]) continue;
            double v = *row[k];
            n += 1;
            total += v;
            squares += v * v;
            maximum = std::max(maximum, v);
            if (v != 0.0 && v < minimum) minimum = v;
        }
        if (n == 0) continue;
        double average = total / n;
        switch (criterion) {
        case SortCriterion::Total:
            keys[k] = total;
            break;
        case SortCriterion::Average:
            keys[k] = average;
            break;
        case SortCriterion::Maximum:
            keys[k] = maximum;
            break;
        case SortCriterion::Minimum:
            keys[k] = minimum == std::numeric_limits<double>::max() ? 0.0 : minimum;
            break;
        case SortCriterion::Stdev:
            keys[k] = std::sqrt(std::fabs((squares - n * average * average) / n));
            break;
        case SortCriterion::AvgDivMax:
            keys[k] = maximum != 0.0 ? average / maximum : 0.0;
            break;
        }
    }
    return keys;
}

} // namespace

std::vector<std::size_t> printedColumns(const HistogramSpec& spec, const CellColumns& cells,
                                        const CellColumns& sortCells, std::size_t columns) {
    bool hide = spec.hideColumns, sort = spec.sortColumns, reverse = spec.sortReverse;
    std::vector<std::size_t> withValues; // Paraver's noVoidSemRanges: columns whose total is not 0
    for (std::size_t k = 0; k < columns; ++k) {
        double total = 0;
        for (const auto& row : cells)
            if (k < row.size() && row[k]) total += *row[k];
        if (!hide || total != 0) withValues.push_back(k);
    }
    std::vector<std::size_t> sorted(columns);
    for (std::size_t k = 0; k < columns; ++k) sorted[k] = k;
    if (sort) {
        auto keys = sortKeys(spec.sortCriterion, sortCells, columns);
        std::stable_sort(sorted.begin(), sorted.end(),
                         [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
    }
    auto sortedColumn = [&](std::size_t c) {
        if (sort) return reverse ? sorted[c] : sorted[columns - c - 1];
        if (reverse && !hide) return columns - c - 1;
        return c;
    };
    std::size_t printed = hide ? withValues.size() : columns, n = withValues.size();
    std::vector<std::size_t> out;
    out.reserve(printed);
    for (std::size_t k = 0; k < printed; ++k) {
        std::size_t real = k;
        if (hide && sort && reverse)
            real = columns - n + k;
        else if (hide && !sort)
            real = reverse ? withValues[n - k - 1] : withValues[k];
        out.push_back(sortedColumn(real));
    }
    return out;
}

} // namespace gpueff::semantic
