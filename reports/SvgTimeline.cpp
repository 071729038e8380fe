// Plots over the analysis window from report.json's "timeline", on the frame of SvgFrame.h: kernels in flight
// per device as lines, one strip each, and a state strip per device (useful / communication / idle shares of
// each bin).
#include "reports/JsonAccess.h"
#include "reports/SvgFrame.h"
#include "reports/SvgPlot.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace gpueff::reports::svg {

using namespace detail;

namespace {

constexpr double kPlotWidth = 560;
constexpr std::size_t kMaxDevices = 16; // beyond this the strips are unreadable: the first ones are drawn
constexpr std::size_t kLabelChars = 24;

std::vector<double> series(const json& device, const char* key) {
    std::vector<double> out;
    if (const json* v = member(device, key); v && v->is_array())
        for (const auto& x : *v) out.push_back(x.is_number() ? x.get<double>() : 0.0);
    return out;
}

struct Strips {
    const json* timeline = nullptr;
    std::size_t shown = 0, bins = 0; // devices drawn, bins of the longest
    std::string note;                // "" or ", first 16 of 40 devices"
    std::size_t labelChars = 0;
};

// The devices of the timeline to draw, and how many bins their `key` series has.
Strips strips(const json& report, const char* key) {
    Strips s;
    s.timeline = member(report, "timeline");
    if (!s.timeline) return s;
    const json& devices = array(*s.timeline, "devices");
    s.shown = std::min(devices.size(), kMaxDevices);
    for (std::size_t i = 0; i < s.shown; ++i) {
        s.bins = std::max(s.bins, series(devices[i], key).size());
        s.labelChars = std::max(s.labelChars, shortLabel(text(devices[i], "device"), kLabelChars).size());
    }
    if (s.shown < devices.size())
        s.note = ", first " + std::to_string(s.shown) + " of " + std::to_string(devices.size()) + " devices";
    return s;
}

// The time axis: ticks at round milliseconds of the window.
void timeAxis(Figure& f, const Strips& s) {
    const double spanMs = number(*s.timeline, "bin_ns").value_or(0) * static_cast<double>(s.bins) / 1e6;
    f.xTicks(0, spanMs, roundStep(spanMs, 5), tickText);
}

} // namespace

// One strip per device (lines of several devices on one plot hide each other), each on the same scale.
std::string inFlightTimelineChart(const json& report) {
    const Strips s = strips(report, "kernels_in_flight");
    if (s.shown == 0 || s.bins == 0) return "";
    const json& devices = array(*s.timeline, "devices");
    double top = 1;
    for (std::size_t i = 0; i < s.shown; ++i)
        for (double x : series(devices[i], "kernels_in_flight")) top = std::max(top, std::ceil(x));
    constexpr double kRow = 48, kGap = 8;
    Figure f(kPlotWidth, kRow * static_cast<double>(s.shown),
             "Kernels in flight over the window (mean per bin, 0 to " + tickText(top) + " per strip" +
                 s.note + ")",
             "Time from the start of the window (ms)", "Kernels", Figure::leftFor(s.labelChars));
    timeAxis(f, s);
    for (std::size_t i = 0; i < s.shown; ++i) {
        auto v = series(devices[i], "kernels_in_flight");
        const double y0 = f.top() + kRow * static_cast<double>(i) + kGap / 2, h = kRow - kGap;
        f.rect(f.left(), y0, f.plotWidth(), h, "#f4f4f4", 0.8);
        f.yTick(y0 + h / 2, shortLabel(text(devices[i], "device"), kLabelChars));
        std::vector<std::pair<double, double>> points;
        for (std::size_t b = 0; b < v.size(); ++b)
            points.emplace_back(f.left() + f.plotWidth() * (static_cast<double>(b) + 0.5) /
                                               static_cast<double>(s.bins),
                                y0 + h - h * std::clamp(v[b] / top, 0.0, 1.0));
        f.polyline(points, kRunColours[i % kRunColourCount], 1.2, false);
    }
    return f.str({});
}

std::string stateTimelineChart(const json& report) {
    const Strips s = strips(report, "useful");
    if (s.shown == 0 || s.bins == 0) return "";
    const json& devices = array(*s.timeline, "devices");
    constexpr double kRow = 22, kGap = 4;
    const std::string useful = kRunColours[0], communication = kRunColours[1], idle = "#d3d3d3";
    Figure f(kPlotWidth, kRow * static_cast<double>(s.shown),
             "Device state over the window" + (s.note.empty() ? "" : " (" + s.note.substr(2) + ")"),
             "Time from the start of the window (ms)", "Device", Figure::leftFor(s.labelChars));
    timeAxis(f, s);
    const double w = f.plotWidth() / static_cast<double>(s.bins);
    for (std::size_t i = 0; i < s.shown; ++i) {
        auto u = series(devices[i], "useful"), c = series(devices[i], "communication");
        const double y = f.top() + kRow * static_cast<double>(i) + kGap / 2, h = kRow - kGap;
        f.yTick(y + h / 2, shortLabel(text(devices[i], "device"), kLabelChars));
        f.rect(f.left(), y, f.plotWidth(), h, idle);
        // Stacked from the bottom of the strip: useful, then communication; the grey left over is idle.
        for (std::size_t b = 0; b < u.size(); ++b) {
            double x = f.left() + w * static_cast<double>(b);
            double hu = h * std::clamp(u[b], 0.0, 1.0);
            double hc = h * std::clamp(b < c.size() ? c[b] : 0.0, 0.0, 1.0 - std::clamp(u[b], 0.0, 1.0));
            if (hu > 0) f.rect(x, y + h - hu, w + 0.3, hu, useful); // + 0.3: no hairline between bins
            if (hc > 0) f.rect(x, y + h - hu - hc, w + 0.3, hc, communication);
        }
    }
    return f.str({{"useful", useful}, {"communication", communication}, {"idle", idle}});
}

} // namespace gpueff::reports::svg
