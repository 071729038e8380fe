// Bar charts of where the GPU time went: kernel time by category (report.json "kernel_categories") and the
// idle gaps by duration per device ("gaps[].by_duration").
#include "reports/JsonAccess.h"
#include "reports/SvgBars.h"
#include "reports/SvgPlot.h"

#include <cstdio>

namespace gpueff::reports::svg {

using namespace detail;

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

std::string kernelCategoryChart(const json& report) {
    const json& list = array(report, "kernel_categories");
    double total = 0;
    for (const auto& c : list) total += number(c, "time_ns").value_or(0);
    if (list.empty() || total <= 0) return "";
    BarChart b{"GPU time by kind of work",
               "Kind of work (kernel name patterns, docs/report.md)",
               "Share of the GPU time",
               {},
               {""}, // one series, named by the y axis: no legend
               {kRunColours[0]},
               {}};
    for (const auto& c : list) {
        b.categories.push_back(text(c, "category"));
        b.values.push_back({number(c, "time_ns").value_or(0) / total * 100});
    }
    return barChart(b);
}

std::string gapHistogramChart(const json& report) {
    std::vector<std::string> bins;
    std::vector<Series> series;
    for (const auto& g : array(report, "gaps")) {
        const json& byDuration = array(g, "by_duration");
        double total = number(g, "total_ns").value_or(0);
        if (byDuration.empty() || total <= 0) continue;
        if (bins.empty())
            for (const auto& b : byDuration) {
                auto upper = number(b, "upper_ns");
                bins.push_back(upper ? "< " + compact(*upper)
                                     : "\xE2\x89\xA5 " + compact(number(b, "lower_ns").value_or(0)));
            }
        Series s{text(g, "device"), {}};
        for (const auto& b : byDuration) s.values.push_back(number(b, "time_ns").value_or(0) / total);
        series.push_back(std::move(s));
    }
    if (series.empty()) return "";
    auto n = bins.size();
    return barChart(percentBars("GPU idle time by gap duration", "Gap duration",
                                "Share of the device's idle time", std::move(bins),
                                condense(std::move(series), n)));
}

} // namespace gpueff::reports::svg
