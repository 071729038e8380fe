// Bar charts of where the GPU time went: kernel time by category (report.json "kernel_categories") and the
// idle gaps by duration per device ("gaps[].by_duration").
#include "reports/SvgBars.h"
#include "reports/SvgPlot.h"

#include <cstdio>

namespace gpueff::reports::svg {

namespace {

// "4 µs", "1 ms", "16.4 ms": bin bounds short enough to sit under a bar.
std::string compact(double ns) {
    char b[32];
    if (ns < 1e6)
        std::snprintf(b, sizeof b, "%g \xC2\xB5s", ns / 1e3);
    else
        std::snprintf(b, sizeof b, "%.3g ms", ns / 1e6);
    return b;
}

} // namespace

std::string kernelCategoryChart(const model::Report& report) {
    static const std::vector<model::KernelCategory> none;
    const auto& list = report.kernelCategories ? *report.kernelCategories : none;
    double total = 0;
    for (const auto& c : list) total += static_cast<double>(c.timeNs);
    if (list.empty() || total <= 0) return "";
    BarChart b{"GPU time by kind of work",
               "Kind of work (kernel name patterns, docs/report.md)",
               "Share of the GPU time",
               {},
               {""}, // one series, named by the y axis: no legend
               {kRunColours[0]},
               {}};
    for (const auto& c : list) {
        b.categories.push_back(c.category);
        b.values.push_back({static_cast<double>(c.timeNs) / total * 100});
    }
    return barChart(b);
}

std::string gapHistogramChart(const model::Report& report) {
    std::vector<std::string> bins;
    std::vector<Series> series;
    for (const auto& g : report.gaps) {
        if (!g.byDuration) continue;
        const auto& byDuration = *g.byDuration;
        auto total = static_cast<double>(g.totalNs);
        if (byDuration.empty() || total <= 0) continue;
        if (bins.empty())
            for (const auto& b : byDuration)
                bins.push_back(b.upperNs ? "< " + compact(static_cast<double>(*b.upperNs))
                                         : "\xE2\x89\xA5 " + compact(static_cast<double>(b.lowerNs)));
        Series s{report.deviceLabel(g.device), {}};
        for (const auto& b : byDuration) s.values.push_back(static_cast<double>(b.timeNs) / total);
        series.push_back(std::move(s));
    }
    if (series.empty()) return "";
    auto n = bins.size();
    return barChart(percentBars("GPU idle time by gap duration", "Gap duration",
                                "Share of the device's idle time", std::move(bins),
                                condense(std::move(series), n)));
}

} // namespace gpueff::reports::svg
