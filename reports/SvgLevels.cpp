// The efficiency factors over iterations (report.json "iterations"): one line per factor with NCCL as
// communication, iterations that are not steady shaded, axes titled and ticked at round values.
#include "reports/JsonAccess.h"
#include "reports/SvgFrame.h"
#include "reports/SvgPlot.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace gpueff::reports::svg {

using namespace detail;

namespace {

constexpr double kWidth = 760, kHeight = 340, kLeft = 70, kRight = 20, kTop = 40, kBottom = 60;
// Okabe-Ito: distinguishable with the common colour-vision deficiencies.
const auto& kColours = kFactorColours;

std::string label(double x, double y, const std::string& s, const char* anchor, int size = 11) {
    return "<text x=\"" + coordinate(x) + "\" y=\"" + coordinate(y) + "\" text-anchor=\"" + anchor +
           "\" font-size=\"" + std::to_string(size) + "\">" + escapeXml(s) + "</text>\n";
}

} // namespace

std::string iterationEfficiencyChart(const json& report) {
    const json& its = array(report, "iterations");
    if (its.size() < 2) return "";
    const double plotW = kWidth - kLeft - kRight, plotH = kHeight - kTop - kBottom;
    const double n = static_cast<double>(its.size());
    auto x = [&](double i) { return kLeft + plotW * (i + 0.5) / n; };
    auto y = [&](double f) { return kTop + plotH * (1 - f); };
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + coordinate(kWidth) +
                    "\" height=\"" + coordinate(kHeight) + "\" viewBox=\"0 0 " + coordinate(kWidth) + " " +
                    coordinate(kHeight) +
                    "\" font-family=\"sans-serif\">\n<title>Efficiency factors over iterations</title>\n"
                    "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    s += label(kWidth / 2, 22, "Efficiency factors over iterations (NCCL as communication)", "middle", 14);
    // Iterations that are not steady, shaded.
    for (std::size_t i = 0; i < its.size(); ++i)
        if (text(its[i], "status") != "steady")
            s += "<rect x=\"" + coordinate(kLeft + plotW * static_cast<double>(i) / n) + "\" y=\"" +
                 coordinate(kTop) + "\" width=\"" + coordinate(plotW / n) + "\" height=\"" +
                 coordinate(plotH) + "\" fill=\"#dddddd\"/>\n";
    for (int p = 0; p <= 100; p += 25) {
        s += "<line x1=\"" + coordinate(kLeft) + "\" y1=\"" + coordinate(y(p / 100.0)) + "\" x2=\"" +
             coordinate(kLeft + plotW) + "\" y2=\"" + coordinate(y(p / 100.0)) + "\" stroke=\"#cccccc\"/>\n";
        s += label(kLeft - 6, y(p / 100.0) + 4, std::to_string(p) + " %", "end");
    }
    double step = std::max(1.0, std::ceil(roundStep(n - 1, 8))); // whole iterations
    for (double i = 0; i < n; i += step)
        s += label(x(i), kTop + plotH + 16, std::to_string(static_cast<long>(i)), "middle");
    s += label(kLeft + plotW / 2, kHeight - 30, "Iteration (grey: warm-up or outlier)", "middle", 12);
    s += "<text x=\"16\" y=\"" + coordinate(kTop + plotH / 2) +
         "\" text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 16 " +
         coordinate(kTop + plotH / 2) + ")\">Efficiency</text>\n";
    const char* keys[] = {"parallel_efficiency", "load_balance", "communication_efficiency",
                          "orchestration_efficiency"};
    const char* names[] = {"Parallel efficiency", "Load balance", "Communication eff.", "Orchestration eff."};
    for (std::size_t k = 0; k < 4; ++k) {
        std::string points;
        for (std::size_t i = 0; i < its.size(); ++i) {
            const json* eff = member(its[i], "efficiency");
            const json* comm = eff ? member(*eff, "nccl_as_communication") : nullptr;
            auto v = comm ? number(*comm, keys[k]) : std::nullopt;
            if (!v) continue;
            points +=
                coordinate(x(static_cast<double>(i))) + "," + coordinate(y(std::clamp(*v, 0.0, 1.0))) + " ";
        }
        s += "<polyline fill=\"none\" stroke=\"" + std::string(kColours[k]) + "\" stroke-width=\"" +
             (k == 0 ? "2.5" : "1.5") + "\" points=\"" + points + "\"/>\n";
        double lx = kLeft + 10 + static_cast<double>(k) * plotW / 4, ly = kHeight - 10;
        s += "<line x1=\"" + coordinate(lx) + "\" y1=\"" + coordinate(ly - 4) + "\" x2=\"" +
             coordinate(lx + 18) + "\" y2=\"" + coordinate(ly - 4) + "\" stroke=\"" + kColours[k] +
             "\" stroke-width=\"2.5\"/>\n";
        s += label(lx + 22, ly, names[k], "start");
    }
    s += "<rect x=\"" + coordinate(kLeft) + "\" y=\"" + coordinate(kTop) + "\" width=\"" + coordinate(plotW) +
         "\" height=\"" + coordinate(plotH) + "\" fill=\"none\" stroke=\"black\"/>\n</svg>\n";
    return s;
}

} // namespace gpueff::reports::svg
