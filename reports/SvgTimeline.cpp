// Plots over the analysis window from report.json's "timeline": kernels in flight per device as lines, and
// a state strip per device (useful / communication / idle shares of each bin).
#include "reports/JsonAccess.h"
#include "reports/SvgFrame.h"
#include "reports/SvgPlot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace gpueff::reports::svg {

using namespace detail;

namespace {

constexpr double kWidth = 760, kLeft = 150, kRight = 40, kTop = 34;
constexpr std::size_t kMaxDevices = 16; // beyond this the strips are unreadable: the first ones are drawn
const auto& kLines = kRunColours;       // Okabe-Ito, as every plot

std::string header(double height, const std::string& title) {
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + coordinate(kWidth) + "\" height=\"" +
           coordinate(height) + "\" viewBox=\"0 0 " + coordinate(kWidth) + " " + coordinate(height) +
           "\" font-family=\"sans-serif\">\n<title>" + escapeXml(title) +
           "</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"" +
           coordinate(kWidth / 2) +
           "\" y=\"20\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\">" + escapeXml(title) +
           "</text>\n";
}

std::vector<double> series(const json& device, const char* key) {
    std::vector<double> out;
    if (const json* v = member(device, key); v && v->is_array())
        for (const auto& x : *v) out.push_back(x.is_number() ? x.get<double>() : 0.0);
    return out;
}

// The time axis under the strips: ticks at round milliseconds of the window, and its title.
std::string timeAxis(double y, const json& timeline, std::size_t bins) {
    auto bin = number(timeline, "bin_ns").value_or(0);
    const double plot = kWidth - kLeft - kRight, spanMs = bin * static_cast<double>(bins) / 1e6;
    std::string s = "<line x1=\"" + coordinate(kLeft) + "\" y1=\"" + coordinate(y) + "\" x2=\"" +
                    coordinate(kLeft + plot) + "\" y2=\"" + coordinate(y) + "\" stroke=\"black\"/>\n";
    if (spanMs > 0) {
        const double step = roundStep(spanMs, 5);
        for (double t = 0; t <= spanMs + step * 1e-9; t += step) {
            double x = kLeft + plot * t / spanMs;
            char label[32];
            std::snprintf(label, sizeof label, step < 1 ? "%.2g" : "%g", t);
            s += "<line x1=\"" + coordinate(x) + "\" y1=\"" + coordinate(y) + "\" x2=\"" + coordinate(x) +
                 "\" y2=\"" + coordinate(y + 4) + "\" stroke=\"black\"/>\n<text x=\"" + coordinate(x) +
                 "\" y=\"" + coordinate(y + 16) + "\" text-anchor=\"middle\" font-size=\"10\">" + label +
                 "</text>\n";
        }
    }
    s += "<text x=\"" + coordinate(kLeft + plot / 2) + "\" y=\"" + coordinate(y + 32) +
         "\" text-anchor=\"middle\" font-size=\"11\">Time from the start of the window (ms)</text>\n";
    return s;
}

} // namespace

// One strip per device (lines of several devices on one plot hide each other), each on the same scale.
std::string inFlightTimelineChart(const json& report) {
    const json* timeline = member(report, "timeline");
    if (!timeline) return "";
    const json& devices = array(*timeline, "devices");
    if (devices.empty()) return "";
    const std::size_t shown = std::min(devices.size(), kMaxDevices);
    double top = 1;
    std::size_t bins = 0;
    for (std::size_t i = 0; i < shown; ++i) {
        auto v = series(devices[i], "kernels_in_flight");
        bins = std::max(bins, v.size());
        for (double x : v) top = std::max(top, std::ceil(x));
    }
    if (bins == 0) return "";
    const double rowH = 48, plot = kWidth - kLeft - kRight;
    const double height = kTop + 14 + rowH * static_cast<double>(shown) + 56;
    std::string s = header(height, "Kernels in flight over the window (mean per bin, per device)");
    s += "<text x=\"" + coordinate(kLeft) + "\" y=\"" + coordinate(kTop + 4) +
         "\" font-size=\"10\">kernels running (0 to " + coordinate(top) + " per strip)</text>\n";
    for (std::size_t i = 0; i < shown; ++i) {
        auto v = series(devices[i], "kernels_in_flight");
        const double y0 = kTop + 14 + rowH * static_cast<double>(i), bottom = y0 + rowH - 8;
        s += "<rect x=\"" + coordinate(kLeft) + "\" y=\"" + coordinate(y0) + "\" width=\"" +
             coordinate(plot) + "\" height=\"" + coordinate(rowH - 8) + "\" fill=\"#f4f4f4\"/>\n";
        s += "<text x=\"" + coordinate(kLeft - 6) + "\" y=\"" + coordinate(y0 + rowH / 2) +
             "\" text-anchor=\"end\" font-size=\"10\">" + escapeXml(text(devices[i], "device")) + "</text>\n";
        std::string points;
        for (std::size_t b = 0; b < v.size(); ++b) {
            double x = kLeft + plot * (static_cast<double>(b) + 0.5) / static_cast<double>(bins);
            points += coordinate(x) + "," +
                      coordinate(bottom - (rowH - 8) * std::clamp(v[b] / top, 0.0, 1.0)) + " ";
        }
        s += "<polyline fill=\"none\" stroke-width=\"1.2\" stroke=\"" +
             std::string(kLines[i % std::size(kLines)]) + "\" points=\"" + points + "\"/>\n";
    }
    s += timeAxis(kTop + 14 + rowH * static_cast<double>(shown), *timeline, bins);
    if (shown < devices.size())
        s += "<text x=\"8\" y=\"" + coordinate(height - 6) + "\" font-size=\"10\">first " +
             std::to_string(shown) + " of " + std::to_string(devices.size()) + " devices</text>\n";
    return s + "</svg>\n";
}

std::string stateTimelineChart(const json& report) {
    const json* timeline = member(report, "timeline");
    if (!timeline) return "";
    const json& devices = array(*timeline, "devices");
    if (devices.empty()) return "";
    std::size_t shown = std::min(devices.size(), kMaxDevices), bins = 0;
    for (std::size_t i = 0; i < shown; ++i) bins = std::max(bins, series(devices[i], "useful").size());
    if (bins == 0) return "";
    double rowH = 22, plot = kWidth - kLeft - kRight, height = kTop + rowH * static_cast<double>(shown) + 72;
    std::string s = header(height, "Device state over the window: useful, communication, idle");
    double w = plot / static_cast<double>(bins);
    for (std::size_t i = 0; i < shown; ++i) {
        auto useful = series(devices[i], "useful"), comm = series(devices[i], "communication");
        double y = kTop + rowH * static_cast<double>(i);
        s += "<text x=\"" + coordinate(kLeft - 6) + "\" y=\"" + coordinate(y + 14) +
             "\" text-anchor=\"end\" font-size=\"10\">" + escapeXml(text(devices[i], "device")) + "</text>\n";
        s += "<rect x=\"" + coordinate(kLeft) + "\" y=\"" + coordinate(y) + "\" width=\"" + coordinate(plot) +
             "\" height=\"" + coordinate(rowH - 4) + "\" fill=\"#d3d3d3\"/>\n";
        // Stacked from the bottom of the strip: useful, then communication; the grey left over is idle.
        for (std::size_t b = 0; b < useful.size(); ++b) {
            double x = kLeft + w * static_cast<double>(b), h = rowH - 4;
            double hu = h * std::clamp(useful[b], 0.0, 1.0);
            double hc =
                h * std::clamp(b < comm.size() ? comm[b] : 0.0, 0.0, 1.0 - std::clamp(useful[b], 0.0, 1.0));
            if (hu > 0)
                s += "<rect x=\"" + coordinate(x) + "\" y=\"" + coordinate(y + h - hu) + "\" width=\"" +
                     coordinate(w + 0.3) + "\" height=\"" + coordinate(hu) + "\" fill=\"" + kLines[0] +
                     "\"/>\n";
            if (hc > 0)
                s += "<rect x=\"" + coordinate(x) + "\" y=\"" + coordinate(y + h - hu - hc) + "\" width=\"" +
                     coordinate(w + 0.3) + "\" height=\"" + coordinate(hc) + "\" fill=\"" + kLines[1] +
                     "\"/>\n";
        }
    }
    double axis = kTop + rowH * static_cast<double>(shown);
    s += timeAxis(axis, *timeline, bins);
    double ly = axis + 50;
    s += "<rect x=\"" + coordinate(kLeft) + "\" y=\"" + coordinate(ly - 9) +
         "\" width=\"10\" height=\"10\" fill=\"" + std::string(kLines[0]) + "\"/><text x=\"" +
         coordinate(kLeft + 14) + "\" y=\"" + coordinate(ly) +
         "\" font-size=\"10\">useful</text>\n<rect x=\"" + coordinate(kLeft + 70) + "\" y=\"" +
         coordinate(ly - 9) + "\" width=\"10\" height=\"10\" fill=\"" + kLines[1] + "\"/><text x=\"" +
         coordinate(kLeft + 84) + "\" y=\"" + coordinate(ly) +
         "\" font-size=\"10\">communication</text>\n<rect x=\"" + coordinate(kLeft + 180) + "\" y=\"" +
         coordinate(ly - 9) + "\" width=\"10\" height=\"10\" fill=\"#d3d3d3\"/><text x=\"" +
         coordinate(kLeft + 194) + "\" y=\"" + coordinate(ly) + "\" font-size=\"10\">idle</text>\n";
    if (shown < devices.size())
        s += "<text x=\"8\" y=\"" + coordinate(height - 4) + "\" font-size=\"10\">first " +
             std::to_string(shown) + " of " + std::to_string(devices.size()) + " devices</text>\n";
    return s + "</svg>\n";
}

} // namespace gpueff::reports::svg
