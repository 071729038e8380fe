#include "reports/SvgPlot.h"

#include "reports/JsonAccess.h"
#include "reports/SvgFrame.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace gpueff::reports::svg {

using namespace detail;

namespace {

// Okabe-Ito, the palette every plot of the reports uses: distinguishable with the common colour-vision
// deficiencies and in grey print.
const auto& kPalette = kRunColours;
constexpr std::size_t kPaletteSize = kRunColourCount;

// Beyond this many devices per-device bars are unreadable; charts show the mean, minimum and maximum instead.
constexpr std::size_t kMaxSeries = 8;

std::string num(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f", v);
    return buffer;
}

std::string clip(const std::string& s, std::size_t max) {
    if (s.size() <= max) return s;
    std::size_t cut = max - 1;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut; // keep UTF-8 whole
    return s.substr(0, cut) + "\xE2\x80\xA6";
}

class Canvas {
public:
    // Wide enough for the title: a clipped title is worse than a wider image.
    Canvas(double width, double height, const std::string& title)
        : width_(std::max(width, 8.0 * static_cast<double>(title.size()) + 24)), height_(height) {
        width = width_;
        body_ += "<rect x=\"0\" y=\"0\" width=\"" + num(width) + "\" height=\"" + num(height) +
                 "\" fill=\"#ffffff\"/>\n";
        text(width / 2, 20, title, "middle", 14, "bold");
        title_ = title;
    }
    void rect(double x, double y, double w, double h, const std::string& fill) {
        body_ += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(std::max(w, 0.0)) +
                 "\" height=\"" + num(std::max(h, 0.0)) + "\" fill=\"" + fill + "\"/>\n";
    }
    void line(double x1, double y1, double x2, double y2, const std::string& stroke) {
        body_ += "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" +
                 num(y2) + "\" stroke=\"" + stroke + "\" stroke-width=\"1\"/>\n";
    }
    void polyline(const std::vector<std::pair<double, double>>& points, const std::string& stroke) {
        body_ += "<polyline fill=\"none\" stroke=\"" + stroke + "\" stroke-width=\"1\" points=\"";
        for (std::size_t i = 0; i < points.size(); ++i)
            body_ += (i ? " " : "") + num(points[i].first) + "," + num(points[i].second);
        body_ += "\"/>\n";
    }
    void text(double x, double y, const std::string& s, const char* anchor = "start", int size = 11,
              const char* weight = "normal") {
        body_ += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + anchor +
                 "\" font-size=\"" + std::to_string(size) + "\" font-weight=\"" + weight + "\">" +
                 escapeXml(s) + "</text>\n";
    }
    std::string str() const {
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width_) + "\" height=\"" +
               num(height_) + "\" viewBox=\"0 0 " + num(width_) + " " + num(height_) +
               "\" font-family=\"sans-serif\">\n<title>" + escapeXml(title_) + "</title>\n" + body_ +
               "</svg>\n";
    }

private:
    double width_, height_;
    std::string title_, body_;
};

double fraction(double v) {
    return std::isfinite(v) ? std::clamp(v, 0.0, 1.0) : 0.0;
}

// Per-device series, or their mean/min/max across devices when there are too many to tell apart.
std::vector<Series> condense(std::vector<Series> perDevice, std::size_t categories) {
    if (perDevice.size() <= kMaxSeries) return perDevice;
    Series mean{"Average (" + std::to_string(perDevice.size()) + " devices)", {}}, lo{"Minimum", {}},
        hi{"Maximum", {}};
    for (std::size_t c = 0; c < categories; ++c) {
        double sum = 0, mn = INFINITY, mx = -INFINITY;
        std::size_t n = 0;
        for (const auto& s : perDevice) {
            double v = s.values[c];
            if (!std::isfinite(v)) continue;
            sum += v, mn = std::min(mn, v), mx = std::max(mx, v), ++n;
        }
        mean.values.push_back(n ? sum / static_cast<double>(n) : NAN);
        lo.values.push_back(n ? mn : NAN);
        hi.values.push_back(n ? mx : NAN);
    }
    return {mean, lo, hi};
}

// Per device: histogram normalised to fractions of its total; categories are the union of the keys.
std::string histogramChart(const json& entries, const char* histKey, const char* fractionKey,
                           const char* totalKey, const std::string& title, const std::string& xLabel) {
    std::set<long long> keys;
    std::vector<std::pair<std::string, std::map<long long, double>>> devices;
    for (const auto& e : entries) {
        std::map<long long, double> fractions;
        auto fromFraction = fractionKey ? histogram(member(e, fractionKey)) : decltype(histogram(nullptr)){};
        if (!fromFraction.empty()) {
            for (auto [k, v] : fromFraction) fractions[k] = v;
        } else {
            auto times = histogram(member(e, histKey));
            double total = 0;
            for (auto [k, v] : times) total += v;
            if (auto t = totalKey ? number(e, totalKey) : std::nullopt; t && *t > 0) total = *t;
            if (total <= 0) continue;
            for (auto [k, v] : times) fractions[k] = v / total;
        }
        if (fractions.empty()) continue;
        for (const auto& kv : fractions) keys.insert(kv.first);
        devices.emplace_back(text(e, "device", "device " + std::to_string(devices.size())), fractions);
    }
    if (devices.empty()) return "";
    std::vector<std::string> categories;
    for (auto k : keys) categories.push_back(std::to_string(k));
    std::vector<Series> series;
    for (const auto& [name, fractions] : devices) {
        Series s{name, {}};
        for (auto k : keys) {
            auto it = fractions.find(k);
            s.values.push_back(it == fractions.end() ? 0.0 : it->second);
        }
        series.push_back(std::move(s));
    }
    return groupedBars(title, xLabel, categories, condense(std::move(series), categories.size()));
}

} // namespace

std::string escapeXml(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '&':
            out += "&amp;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&apos;";
            break;
        default:
            // Control characters are not allowed in XML 1.0 at all.
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n')
                out += ' ';
            else
                out += c;
        }
    }
    return out;
}

std::string groupedBars(const std::string& title, const std::string& xLabel,
                        const std::vector<std::string>& categories, const std::vector<Series>& series) {
    const double left = 56, top = 36, plotHeight = 200, legendWidth = 190;
    const double barWidth = series.size() <= 4 ? 18 : 10;
    // Each group as wide as its label (about 6 px a character at 10 px), so labels never run into each other.
    std::size_t longest = 0;
    for (const auto& label : categories) longest = std::max(longest, label.size());
    const double groupWidth = std::max(std::max(1.0, static_cast<double>(series.size())) * barWidth + 16,
                                       6.0 * static_cast<double>(longest) + 10);
    const double plotWidth = std::max(240.0, groupWidth * static_cast<double>(categories.size()));
    const double width = left + plotWidth + 16 + legendWidth;
    const double height =
        std::max(top + plotHeight + 48, top + 16.0 * static_cast<double>(series.size()) + 24);
    const double bottom = top + plotHeight;
    Canvas c(width, height, title);
    for (int tick = 0; tick <= 4; ++tick) {
        double y = bottom - plotHeight * tick / 4.0;
        if (tick > 0) c.line(left, y, left + plotWidth, y, "#e0e0e0");
        c.text(left - 6, y + 4, std::to_string(tick * 25) + "%", "end", 10);
    }
    c.polyline({{left, top}, {left, bottom}, {left + plotWidth, bottom}}, "#333333");
    const double groupStart = (plotWidth - groupWidth * static_cast<double>(categories.size())) / 2;
    for (std::size_t g = 0; g < categories.size(); ++g) {
        double gx = left + groupStart + groupWidth * static_cast<double>(g) + 8;
        for (std::size_t s = 0; s < series.size(); ++s) {
            if (g >= series[s].values.size() || !std::isfinite(series[s].values[g])) continue;
            double h = plotHeight * fraction(series[s].values[g]);
            double bars = barWidth * static_cast<double>(series.size());
            c.rect(gx + (groupWidth - 16 - bars) / 2 + barWidth * static_cast<double>(s), bottom - h,
                   barWidth - 1, h, kPalette[s % kPaletteSize]);
        }
        c.text(gx + (groupWidth - 16) / 2, bottom + 14, categories[g], "middle", 10);
    }
    c.text(left + plotWidth / 2, bottom + 34, xLabel, "middle", 11);
    double lx = left + plotWidth + 16;
    for (std::size_t s = 0; s < series.size(); ++s) {
        double ly = top + 16.0 * static_cast<double>(s);
        c.rect(lx, ly, 10, 10, kPalette[s % kPaletteSize]);
        c.text(lx + 14, ly + 9, clip(series[s].label, 28), "start", 10);
    }
    return c.str();
}

std::string stackedBars(const std::string& title, const std::vector<std::string>& segments,
                        const std::vector<std::string>& colours, const std::vector<StackedRow>& rows) {
    const double labelWidth = 190, barWidth = 460, top = 36, rowHeight = 22;
    const double width = labelWidth + barWidth + 24;
    const double bottom = top + rowHeight * static_cast<double>(rows.size());
    const double height = bottom + 52;
    Canvas c(width, height, title);
    for (int tick = 0; tick <= 4; ++tick) {
        double x = labelWidth + barWidth * tick / 4.0;
        c.line(x, top - 2, x, bottom + 2, "#e0e0e0");
        c.text(x, bottom + 14, std::to_string(tick * 25) + "%", "middle", 10);
    }
    for (std::size_t r = 0; r < rows.size(); ++r) {
        double y = top + rowHeight * static_cast<double>(r);
        c.text(labelWidth - 6, y + 14, clip(rows[r].label, 30), "end", 10);
        double x = labelWidth;
        for (std::size_t s = 0; s < rows[r].fractions.size() && s < colours.size(); ++s) {
            double w = barWidth * fraction(rows[r].fractions[s]);
            w = std::min(w, labelWidth + barWidth - x); // rounding in the input must not overflow the bar
            c.rect(x, y + 2, w, rowHeight - 4, colours[s]);
            if (w >= 36)
                c.text(x + w / 2, y + 15, num(100 * fraction(rows[r].fractions[s])) + "%", "middle", 9);
            x += w;
        }
    }
    double lx = labelWidth;
    for (std::size_t s = 0; s < segments.size() && s < colours.size(); ++s) {
        c.rect(lx, bottom + 28, 10, 10, colours[s]);
        c.text(lx + 14, bottom + 37, segments[s], "start", 10);
        lx += 24 + 7.0 * static_cast<double>(segments[s].size());
    }
    return c.str();
}

std::string kernelsInFlightChart(const json& report) {
    return histogramChart(array(report, "kernels_in_flight"), "time_ns_by_count", nullptr, nullptr,
                          "Kernels in flight: share of the window at each count",
                          "kernels executing at once");
}

std::string deviceStateChart(const json& report) {
    // devices[] follows nccl_as_communication; the efficiency block repeats the same three times.
    const json* devicesPtr = &array(report, "devices");
    if (devicesPtr->empty())
        if (const json* eff = member(report, "efficiency"))
            if (const json* conv = member(*eff, "nccl_as_communication"))
                devicesPtr = &array(*conv, "devices");
    const json& devices = *devicesPtr;
    auto window = member(report, "window") ? number(*member(report, "window"), "duration_ns") : std::nullopt;
    std::vector<StackedRow> rows;
    for (const auto& d : devices) {
        auto u = number(d, "useful_ns"), m = number(d, "communication_ns"), i = number(d, "idle_ns");
        if (!u || !m) continue;
        double idle = i ? *i : (window ? *window - *u - *m : 0.0);
        double total = window && *window > 0 ? *window : *u + *m + idle;
        if (total <= 0) continue;
        rows.push_back({text(d, "id", "device " + std::to_string(rows.size())),
                        {*u / total, *m / total, std::max(idle, 0.0) / total}});
    }
    if (rows.empty()) return "";
    return stackedBars("Device time (NCCL as communication), share of the window",
                       {"useful", "communication", "idle"}, {"#4e79a7", "#f28e2b", "#d3d3d3"}, rows);
}

std::string overlapChart(const json& report) {
    return histogramChart(array(report, "overlap"), "time_ns_by_concurrency", "fraction_of_communication",
                          "communication_ns", "Overlap: share of communication time at each concurrency",
                          "activities running at once (1 = communication alone)");
}

} // namespace gpueff::reports::svg
