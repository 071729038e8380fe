// The efficiency factors over iterations (report.json "iterations"): one line per factor with NCCL as
// communication, iterations that are not steady shaded, on the frame of SvgFrame.h.
#include "reports/SvgBars.h"
#include "reports/SvgPlot.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace gpueff::reports::svg {

std::string iterationEfficiencyChart(const std::vector<model::Iteration>& its) {
    if (its.size() < 2) return "";
    const double n = static_cast<double>(its.size());
    Figure f(640, 240, "Efficiency factors over iterations (NCCL as communication)",
             "Iteration (grey: warm-up or outlier)", "Efficiency");
    // Shaded first, so that the grid and the lines are drawn over it; a run of them as one rectangle (no
    // seams between neighbours).
    for (std::size_t i = 0; i < its.size();) {
        std::size_t end = i;
        while (end < its.size() && its[end].status != "steady") ++end;
        if (end > i)
            f.rect(f.left() + f.plotWidth() * static_cast<double>(i) / n, f.top(),
                   f.plotWidth() * static_cast<double>(end - i) / n, f.plotHeight(), "#dddddd");
        i = std::max(end, i + 1);
    }
    f.yTicks(0, 100, 25, percentTick);
    auto x = [&](double i) { return f.left() + f.plotWidth() * (i + 0.5) / n; };
    const double step = std::max(1.0, std::ceil(roundStep(n - 1, 8))); // whole iterations
    for (double i = 0; i < n; i += step) f.xTick(x(i), std::to_string(static_cast<long>(i)));
    const char* names[] = {"Parallel efficiency", "Load balance", "Communication efficiency",
                           "Orchestration efficiency"};
    std::vector<LegendEntry> legend;
    for (std::size_t k = 0; k < std::size(names); ++k) {
        std::vector<std::pair<double, double>> points;
        for (std::size_t i = 0; i < its.size(); ++i) {
            auto v = its[i].figures.efficiency.ncclAsCommunication.factor(k);
            if (v) points.emplace_back(x(static_cast<double>(i)), f.y(std::clamp(*v, 0.0, 1.0) * 100));
        }
        // Parallel efficiency, the product of the others, drawn heavier.
        f.polyline(points, kFactorColours[k], k == 0 ? 2.5 : 1.5, false);
        legend.push_back({names[k], kFactorColours[k], Mark::Line});
    }
    return f.str(legend);
}

} // namespace gpueff::reports::svg
