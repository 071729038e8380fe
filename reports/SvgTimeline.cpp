// Plots over the analysis window from the report's timeline, on the frame of SvgFrame.h: kernels in flight
// per device as lines, one strip each, and a state strip per device (useful / communication / idle shares of
// each bin).
#include "reports/SvgFrame.h"
#include "reports/SvgPlot.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace gpueff::reports::svg {

namespace {

constexpr double kPlotWidth = 560;
constexpr std::size_t kMaxDevices = 16; // beyond this the strips are unreadable: the first ones are drawn
constexpr std::size_t kLabelChars = 24;

using SeriesKey = std::vector<double> model::TimelineDevice::*;

// A device's series, a value that is not a number (null in report.json) read as 0.
std::vector<double> series(const model::TimelineDevice& device, SeriesKey key) {
    std::vector<double> out;
    for (double x : device.*key) out.push_back(std::isfinite(x) ? x : 0.0);
    return out;
}

struct Strips {
    const model::Timeline* timeline = nullptr;
    std::size_t shown = 0, bins = 0; // devices drawn, bins of the longest
    std::string note;                // "" or ", first 16 of 40 devices"
    std::size_t labelChars = 0;
    std::vector<std::string> labels; // of the devices drawn
};

// The devices of the timeline to draw, and how many bins their `key` series has.
Strips strips(const model::Report& report, SeriesKey key) {
    Strips s;
    if (!report.timeline) return s;
    s.timeline = &*report.timeline;
    const auto& devices = s.timeline->devices;
    s.shown = std::min(devices.size(), kMaxDevices);
    for (std::size_t i = 0; i < s.shown; ++i) {
        s.bins = std::max(s.bins, (devices[i].*key).size());
        s.labels.push_back(shortLabel(report.deviceLabel(devices[i].device), kLabelChars));
        s.labelChars = std::max(s.labelChars, s.labels.back().size());
    }
    if (s.shown < devices.size())
        s.note = ", first " + std::to_string(s.shown) + " of " + std::to_string(devices.size()) + " devices";
    return s;
}

// The time axis: ticks at round milliseconds of the window.
void timeAxis(Figure& f, const Strips& s) {
    const double binNs = std::isfinite(s.timeline->binNs) ? s.timeline->binNs : 0.0;
    const double spanMs = binNs * static_cast<double>(s.bins) / 1e6;
    f.xTicks(0, spanMs, roundStep(spanMs, 5), tickText);
}

} // namespace

// One strip per device (lines of several devices on one plot hide each other), each on the same scale.
std::string inFlightTimelineChart(const model::Report& report) {
    const Strips s = strips(report, &model::TimelineDevice::kernelsInFlight);
    if (s.shown == 0 || s.bins == 0) return "";
    const auto& devices = s.timeline->devices;
    double top = 1;
    for (std::size_t i = 0; i < s.shown; ++i)
        for (double x : series(devices[i], &model::TimelineDevice::kernelsInFlight))
            top = std::max(top, std::ceil(x));
    constexpr double kRow = 48, kGap = 8;
    Figure f(kPlotWidth, kRow * static_cast<double>(s.shown),
             "Kernels in flight over the window (mean per bin, 0 to " + tickText(top) + " per strip" +
                 s.note + ")",
             "Time from the start of the window (ms)", "Kernels", Figure::leftFor(s.labelChars));
    timeAxis(f, s);
    for (std::size_t i = 0; i < s.shown; ++i) {
        auto v = series(devices[i], &model::TimelineDevice::kernelsInFlight);
        const double y0 = f.top() + kRow * static_cast<double>(i) + kGap / 2, h = kRow - kGap;
        f.rect(f.left(), y0, f.plotWidth(), h, "#f4f4f4", 0.8);
        f.yTick(y0 + h / 2, s.labels[i]);
        std::vector<std::pair<double, double>> points;
        for (std::size_t b = 0; b < v.size(); ++b)
            points.emplace_back(f.left() + f.plotWidth() * (static_cast<double>(b) + 0.5) /
                                               static_cast<double>(s.bins),
                                y0 + h - h * std::clamp(v[b] / top, 0.0, 1.0));
        f.polyline(points, kRunColours[i % kRunColourCount], 1.2, false);
    }
    return f.str({});
}

std::string stateTimelineChart(const model::Report& report) {
    const Strips s = strips(report, &model::TimelineDevice::useful);
    if (s.shown == 0 || s.bins == 0) return "";
    const auto& devices = s.timeline->devices;
    constexpr double kRow = 22, kGap = 4;
    const std::string useful = kRunColours[0], communication = kRunColours[1], idle = "#d3d3d3";
    Figure f(kPlotWidth, kRow * static_cast<double>(s.shown),
             "Device state over the window" + (s.note.empty() ? "" : " (" + s.note.substr(2) + ")"),
             "Time from the start of the window (ms)", "Device", Figure::leftFor(s.labelChars));
    timeAxis(f, s);
    const double w = f.plotWidth() / static_cast<double>(s.bins);
    for (std::size_t i = 0; i < s.shown; ++i) {
        auto u = series(devices[i], &model::TimelineDevice::useful),
             c = series(devices[i], &model::TimelineDevice::communication);
        const double y = f.top() + kRow * static_cast<double>(i) + kGap / 2, h = kRow - kGap;
        f.yTick(y + h / 2, s.labels[i]);
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
