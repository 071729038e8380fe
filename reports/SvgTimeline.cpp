// Plots over the analysis window from report.json's "timeline": kernels in flight per device as lines, and
// a state strip per device (useful / communication / idle shares of each bin).
#include "reports/JsonAccess.h"
#include "reports/SvgPlot.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace gpueff::reports::svg {

using namespace detail;

namespace {

constexpr double kWidth = 760, kLeft = 150, kRight = 40, kTop = 34;
constexpr std::size_t kMaxDevices = 16; // beyond this the strips are unreadable: the first ones are drawn
const char* const kLines[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                              "#56B4E9", "#D55E00", "#F0E442", "#000000"}; // Okabe-Ito, as SvgPlot.cpp

std::string fmt(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", v);
    return b;
}

std::string header(double height, const std::string& title) {
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fmt(kWidth) + "\" height=\"" + fmt(height) +
           "\" viewBox=\"0 0 " + fmt(kWidth) + " " + fmt(height) +
           "\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text "
           "x=\"" +
           fmt(kWidth / 2) + "\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">" + escapeXml(title) +
           "</text>\n";
}

std::vector<double> series(const json& device, const char* key) {
    std::vector<double> out;
    if (const json* v = member(device, key); v && v->is_array())
        for (const auto& x : *v) out.push_back(x.is_number() ? x.get<double>() : 0.0);
    return out;
}

std::string timeAxis(double y, const json& timeline, std::size_t bins) {
    auto bin = number(timeline, "bin_ns").value_or(0);
    double plot = kWidth - kLeft - kRight;
    std::string s = "<line x1=\"" + fmt(kLeft) + "\" y1=\"" + fmt(y) + "\" x2=\"" + fmt(kLeft + plot) +
                    "\" y2=\"" + fmt(y) + "\" stroke=\"black\"/>\n";
    for (int k = 0; k <= 4; ++k) {
        double x = kLeft + plot * k / 4;
        s += "<text x=\"" + fmt(x) + "\" y=\"" + fmt(y + 14) + "\" text-anchor=\"middle\" font-size=\"10\">" +
             fmt(bin * static_cast<double>(bins) * k / 4 / 1e6) + " ms</text>\n";
    }
    return s;
}

} // namespace

std::string inFlightTimelineChart(const json& report) {
    const json* timeline = member(report, "timeline");
    if (!timeline) return "";
    const json& devices = array(*timeline, "devices");
    if (devices.empty()) return "";
    double top = 1;
    std::size_t bins = 0;
    for (const auto& d : devices) {
        auto v = series(d, "kernels_in_flight");
        bins = std::max(bins, v.size());
        for (double x : v) top = std::max(top, x);
    }
    if (bins == 0) return "";
    double plotH = 220, plot = kWidth - kLeft - kRight, height = kTop + plotH + 60;
    std::string s = header(height, "Kernels in flight over the window (mean per bin)");
    double bottom = kTop + plotH;
    s += "<text x=\"" + fmt(kLeft - 8) + "\" y=\"" + fmt(kTop + 8) +
         "\" text-anchor=\"end\" font-size=\"10\">" + fmt(top) + "</text>\n<text x=\"" + fmt(kLeft - 8) +
         "\" y=\"" + fmt(bottom) + "\" text-anchor=\"end\" font-size=\"10\">0</text>\n";
    std::size_t shown = std::min(devices.size(), std::size(kLines));
    for (std::size_t i = 0; i < shown; ++i) {
        auto v = series(devices[i], "kernels_in_flight");
        std::string points;
        for (std::size_t b = 0; b < v.size(); ++b) {
            double x = kLeft + plot * (static_cast<double>(b) + 0.5) / static_cast<double>(bins);
            points += fmt(x) + "," + fmt(bottom - plotH * v[b] / top) + " ";
        }
        s += "<polyline fill=\"none\" stroke-width=\"1.2\" stroke=\"" + std::string(kLines[i]) +
             "\" points=\"" + points + "\"/>\n";
        s += "<text x=\"8\" y=\"" + fmt(kTop + 14.0 * static_cast<double>(i) + 10) +
             "\" font-size=\"10\" fill=\"" + kLines[i] + "\">" + escapeXml(text(devices[i], "device")) +
             "</text>\n";
    }
    s += timeAxis(bottom, *timeline, bins);
    if (shown < devices.size())
        s += "<text x=\"8\" y=\"" + fmt(height - 8) + "\" font-size=\"10\">first " + std::to_string(shown) +
             " of " + std::to_string(devices.size()) + " devices</text>\n";
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
    double rowH = 22, plot = kWidth - kLeft - kRight, height = kTop + rowH * static_cast<double>(shown) + 56;
    std::string s = header(height, "Device state over the window: useful, communication, idle");
    double w = plot / static_cast<double>(bins);
    for (std::size_t i = 0; i < shown; ++i) {
        auto useful = series(devices[i], "useful"), comm = series(devices[i], "communication");
        double y = kTop + rowH * static_cast<double>(i);
        s += "<text x=\"" + fmt(kLeft - 6) + "\" y=\"" + fmt(y + 14) +
             "\" text-anchor=\"end\" font-size=\"10\">" + escapeXml(text(devices[i], "device")) + "</text>\n";
        s += "<rect x=\"" + fmt(kLeft) + "\" y=\"" + fmt(y) + "\" width=\"" + fmt(plot) + "\" height=\"" +
             fmt(rowH - 4) + "\" fill=\"#d3d3d3\"/>\n";
        // Stacked from the bottom of the strip: useful, then communication; the grey left over is idle.
        for (std::size_t b = 0; b < useful.size(); ++b) {
            double x = kLeft + w * static_cast<double>(b), h = rowH - 4;
            double hu = h * std::clamp(useful[b], 0.0, 1.0);
            double hc =
                h * std::clamp(b < comm.size() ? comm[b] : 0.0, 0.0, 1.0 - std::clamp(useful[b], 0.0, 1.0));
            if (hu > 0)
                s += "<rect x=\"" + fmt(x) + "\" y=\"" + fmt(y + h - hu) + "\" width=\"" + fmt(w + 0.3) +
                     "\" height=\"" + fmt(hu) + "\" fill=\"#4e79a7\"/>\n";
            if (hc > 0)
                s += "<rect x=\"" + fmt(x) + "\" y=\"" + fmt(y + h - hu - hc) + "\" width=\"" + fmt(w + 0.3) +
                     "\" height=\"" + fmt(hc) + "\" fill=\"#f28e2b\"/>\n";
        }
    }
    double axis = kTop + rowH * static_cast<double>(shown);
    s += timeAxis(axis, *timeline, bins);
    double ly = axis + 34;
    s += "<rect x=\"" + fmt(kLeft) + "\" y=\"" + fmt(ly - 9) +
         "\" width=\"10\" height=\"10\" fill=\"#4e79a7\"/><text x=\"" + fmt(kLeft + 14) + "\" y=\"" +
         fmt(ly) + "\" font-size=\"10\">useful</text>\n<rect x=\"" + fmt(kLeft + 70) + "\" y=\"" +
         fmt(ly - 9) + "\" width=\"10\" height=\"10\" fill=\"#f28e2b\"/><text x=\"" + fmt(kLeft + 84) +
         "\" y=\"" + fmt(ly) + "\" font-size=\"10\">communication</text>\n<rect x=\"" + fmt(kLeft + 180) +
         "\" y=\"" + fmt(ly - 9) + "\" width=\"10\" height=\"10\" fill=\"#d3d3d3\"/><text x=\"" +
         fmt(kLeft + 194) + "\" y=\"" + fmt(ly) + "\" font-size=\"10\">idle</text>\n";
    if (shown < devices.size())
        s += "<text x=\"8\" y=\"" + fmt(height - 4) + "\" font-size=\"10\">first " + std::to_string(shown) +
             " of " + std::to_string(devices.size()) + " devices</text>\n";
    return s + "</svg>\n";
}

} // namespace gpueff::reports::svg
