#include "engine/semantic/HistogramOutput.h"

#include "engine/semantic/RowGroup.h"

#include <charconv>
#include <cmath>

namespace gpueff::semantic {

std::string fixed(double v, int precision) {
    if (std::isnan(v)) return std::signbit(v) ? "-nan" : "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    char buffer[400];
    auto r = std::to_chars(buffer, buffer + sizeof buffer, v, std::chars_format::fixed, precision);
    return std::string(buffer, r.ptr);
}

void writeHistogramText(std::ostream& out, const HistogramTable& t, int precision) {
    auto cell = [&](const std::optional<double>& v) { return fixed(v ? *v : 0.0, precision); };
    using Totals = HistogramTable::Totals;
    const std::pair<const char*, std::vector<double> Totals::*> totals[] = {
        {"Total", &Totals::total},     {"Average", &Totals::average}, {"Maximum", &Totals::maximum},
        {"Minimum", &Totals::minimum}, {"StDev", &Totals::stdev},     {"Avg/Max", &Totals::avgDivMax}};
    // A 3D histogram prints each plane with values under its label, as paramedir does.
    if (t.planeCount > 1) out << t.planeLabel << '\n';
    out << '\t';
    if (t.horizontal) {
        for (const auto& label : t.columnLabels) out << label << '\t';
        out << '\n';
        for (std::size_t r = 0; r < t.rowLabels.size(); ++r) {
            out << t.rowLabels[r] << '\t';
            for (const auto& v : t.cells[r]) out << cell(v) << '\t';
            out << '\n';
        }
        out << '\n';
        for (const auto& [name, member] : totals) {
            out << name << '\t';
            for (auto v : t.columnTotals.*member) out << fixed(v, precision) << '\t';
            out << '\n';
        }
    } else {
        for (const auto& label : t.rowLabels) out << label << '\t';
        out << '\n';
        for (std::size_t k = 0; k < t.columnLabels.size(); ++k) {
            out << t.columnLabels[k] << '\t';
            for (std::size_t r = 0; r < t.rowLabels.size(); ++r) out << cell(t.cells[r][k]) << '\t';
            out << '\n';
        }
        out << '\n';
        for (const auto& [name, member] : totals) {
            out << name << '\t';
            for (auto v : t.rowTotals.*member) out << fixed(v, precision) << '\t';
            out << '\n';
        }
    }
    out << '\n';
}

nlohmann::json histogramJson(const HistogramTable& t) {
    auto number = [](double v) -> nlohmann::json {
        if (std::isfinite(v)) return v;
        return nullptr;
    };
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t r = 0; r < t.rowLabels.size(); ++r) {
        nlohmann::json values = nlohmann::json::array();
        for (const auto& v : t.cells[r]) values.push_back(v ? number(*v) : nlohmann::json(nullptr));
        rows.push_back({{"label", t.rowLabels[r]}, {"values", values}});
    }
    auto totals = [&](const HistogramTable::Totals& x) {
        auto list = [&](const std::vector<double>& v) {
            nlohmann::json a = nlohmann::json::array();
            for (auto d : v) a.push_back(number(d));
            return a;
        };
        return nlohmann::json{{"total", list(x.total)},     {"average", list(x.average)},
                              {"maximum", list(x.maximum)}, {"minimum", list(x.minimum)},
                              {"stdev", list(x.stdev)},     {"avg_div_max", list(x.avgDivMax)}};
    };
    nlohmann::json j = {{"name", t.name},
                        {"statistic", t.statistic},
                        {"begin_ns", t.beginTime},
                        {"end_ns", t.endTime},
                        {"columns", t.columnLabels},
                        {"rows", rows},
                        {"column_totals", totals(t.columnTotals)},
                        {"row_totals", totals(t.rowTotals)}};
    if (t.planeCount > 0) j["plane"] = t.planeLabel;
    return j;
}

void writeHistogramText(std::ostream& out, const std::vector<HistogramTable>& planes, int precision) {
    for (const auto& t : planes) writeHistogramText(out, t, precision);
}

nlohmann::json histogramJson(const std::vector<HistogramTable>& planes) {
    if (planes.size() == 1 && planes[0].planeCount == 0) return histogramJson(planes[0]);
    nlohmann::json list = nlohmann::json::array();
    for (const auto& t : planes) list.push_back(histogramJson(t));
    return {{"planes", list}};
}

void writeTimelineCsv(std::ostream& out, const WindowSet& windows, std::size_t w) {
    writeTimelineCsv(out, windows, w, RowGroup{});
}

void writeTimelineCsv(std::ostream& out, const WindowSet& windows, std::size_t w, const RowGroup& group) {
    windows.requireSomeEvents();
    const auto& ctx = windows.context();
    auto begin = windows.beginTime(w);
    auto end = std::min(windows.endTime(w), ctx.endTime);
    auto unit = ctx.trace.header.unit;
    std::string line;
    auto emit = [&](const std::string& label, const Interval& i) {
        line.clear();
        line += label;
        line += '\t';
        line += fixed(toWindowUnits(static_cast<double>(i.begin), unit, windows.unit(w)), 2);
        line += '\t';
        line += fixed(toWindowUnits(static_cast<double>(i.end - i.begin), unit, windows.unit(w)), 2);
        line += '\t';
        line += fixed(i.value, 2);
        line += '\n';
        out << line;
    };
    auto [first, last] = group.rows(ctx.objects, windows.level(w));
    for (std::size_t r = first; r < last; ++r) {
        auto label = windows.rowLabel(w, r, false, false);
        auto row = windows.makeRow(w, r);
        row->init();
        while (row->end <= begin && row->end < ctx.endTime) row->next();
        while (row->end < end) {
            emit(label, *row);
            row->next();
        }
        emit(label, *row);
    }
}

} // namespace gpueff::semantic
