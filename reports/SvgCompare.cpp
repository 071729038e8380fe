// The comparison's plots, on the frame of SvgFrame.h. Bars are grouped so that the eye compares within a
// group: factors within a run (is this run's loss in balance or in communication?), runs within a phase
// (which run spends longer there?).
#include "reports/SvgCompare.h"

#include "reports/SvgBars.h"
#include "reports/SvgFrame.h"

#include <algorithm>
#include <cmath>

namespace gpueff::reports::svg {

using compare::Value;

std::string efficiencyByRunChart(const std::string& conventionTitle, const std::vector<std::string>& runs,
                                 const std::vector<std::array<Value, 4>>& factors) {
    BarChart b;
    b.title = "Device efficiency factors per run (" + conventionTitle + ")";
    b.xTitle = "Run";
    b.yTitle = "Efficiency";
    bool any = false;
    for (std::size_t f = 0; f < compare::kDeviceFactorCount; ++f) {
        b.series.emplace_back(compare::kScalingFactors[f].label);
        b.colours.emplace_back(compare::kScalingFactors[f].colour);
    }
    for (std::size_t r = 0; r < runs.size() && r < factors.size(); ++r) {
        b.categories.push_back(runs[r]);
        std::vector<Value> v;
        for (auto x : factors[r]) {
            v.push_back(x ? Value(*x * 100) : std::nullopt);
            any = any || x;
        }
        b.values.push_back(std::move(v));
    }
    if (!any) return "";
    b.hi = 100, b.step = 25, b.tick = percentTick, b.markUnknown = true;
    return barChart(b);
}

std::string phaseTimesChart(const std::vector<std::string>& phases, const std::vector<std::string>& runs,
                            const std::vector<std::vector<Value>>& meanNs) {
    double max = 0;
    for (const auto& p : meanNs)
        for (auto v : p)
            if (v && std::isfinite(*v)) max = std::max(max, *v);
    if (phases.empty() || !(max > 0)) return "";
    // One unit for the whole axis, the one that keeps its largest tick between 1 and 1000.
    const char* unit = "ns";
    double scale = 1;
    for (auto [u, s] : {std::pair{"\xC2\xB5s", 1e3}, std::pair{"ms", 1e6}, std::pair{"s", 1e9}})
        if (max >= s) unit = u, scale = s;
    BarChart b;
    b.title = "Mean phase time per run (steady iterations)";
    b.xTitle = "Phase";
    b.yTitle = std::string("Mean time per iteration (") + unit + ")";
    b.categories = phases;
    b.series = runs;
    b.colours.assign(std::begin(kRunColours), std::end(kRunColours));
    for (const auto& p : meanNs) {
        std::vector<Value> v;
        for (auto x : p) v.push_back(x ? Value(*x / scale) : std::nullopt);
        b.values.push_back(std::move(v));
    }
    b.step = roundStep(max / scale, 5);
    b.hi = std::ceil(max / scale / b.step - 1e-9) * b.step;
    b.tick = tickText;
    return barChart(b);
}

std::string scalingChart(const std::vector<compare::ScalingRun>& runs, const compare::ScalingFits& fits,
                         std::size_t c) {
    using compare::kScalingFactors;
    if (fits.counts.empty()) return "";
    const double xLo = std::log2(fits.counts.front()),
                 xHi = std::log2(fits.targets[compare::kExtrapolations - 1]);
    const double measuredHi = std::log2(fits.counts.back());
    // The y axis reaches 100 % at least, and every point and line end above it (superlinear scalability).
    double top = 1;
    for (std::size_t f = 0; f < compare::kScalingFactorCount; ++f) {
        for (const auto& r : runs)
            if (auto v = r.values[c][f]) top = std::max(top, *v);
        if (const auto& fit = fits.fits[c][f])
            for (double x : {xLo, xHi}) top = std::max(top, compare::clampFactor(f, fit->line.at(x)));
    }
    const double step = top <= 1 ? 0.25 : roundStep(top, 5);
    const double hi = std::ceil(top / step - 1e-9) * step;
    Figure g(520, 280,
             std::string("Efficiency factors against the device count (") + compare::kConventions[c].title +
                 ")",
             "Devices (log2 scale; dashed: extrapolated by the fit)", "Efficiency");
    g.yTicks(0, hi * 100, step * 100, [](double v) { return tickText(v) + " %"; });
    const double pad = 0.04 * (xHi - xLo);
    auto x = [&](double log2n) {
        return g.left() + g.plotWidth() * (log2n - xLo + pad) / (xHi - xLo + 2 * pad);
    };
    auto y = [&](double fraction) { return g.y(fraction * 100); };
    // Ticks at powers of 2, every one while there are at most 12, else every other.
    const double tickStep = xHi - xLo > 12 ? 2 : 1;
    for (double k = std::ceil(xLo); k <= xHi + 1e-9; k += tickStep)
        g.xTick(x(k), tickText(std::exp2(k)), true);
    g.line(x(measuredHi), g.top(), x(measuredHi), g.bottom(), "#999999", 1, true);
    std::vector<LegendEntry> legend;
    for (std::size_t f = 0; f < compare::kScalingFactorCount; ++f) {
        const auto& fit = fits.fits[c][f];
        const std::string colour = kScalingFactors[f].colour;
        const int shape = static_cast<int>(f);
        if (fit) {
            // Sampled, so that a clamp shows as the kink it is.
            std::vector<std::pair<double, double>> measured, extrapolated;
            constexpr int kSamples = 48;
            for (int i = 0; i <= kSamples; ++i) {
                double at = xLo + (xHi - xLo) * i / kSamples;
                auto point = std::pair{x(at), y(compare::clampFactor(f, fit->line.at(at)))};
                if (at <= measuredHi + 1e-9) measured.push_back(point);
                if (at >= measuredHi - (xHi - xLo) / kSamples) extrapolated.push_back(point);
            }
            g.polyline(measured, colour, 2, false);
            g.polyline(extrapolated, colour, 2, true);
            for (std::size_t e = 0; e < compare::kExtrapolations; ++e)
                g.marker(x(std::log2(fits.targets[e])), y(fit->value[e]), shape, colour, false);
        }
        bool any = false;
        for (const auto& r : runs)
            if (auto v = r.values[c][f]) g.marker(x(std::log2(r.devices)), y(*v), shape, colour), any = true;
        if (fit || any)
            legend.push_back({kScalingFactors[f].label, colour, fit ? Mark::Line : Mark::Point, shape, 1.0});
    }
    if (legend.empty()) return "";
    return g.str(legend);
}

std::string timeSplitWaterfall(const std::vector<std::string>& runs,
                               const std::vector<std::array<double, 5>>& bars, std::size_t reference,
                               const std::string& per) {
    if (runs.size() < 2 || bars.size() != runs.size()) return "";
    constexpr const char* kMore = "#D55E00";
    constexpr const char* kLess = "#009E73";
    const char* steps[] = {"useful", "balance", "comm.", "orch."};
    const auto& ref = bars[reference];
    double max = 0;
    for (std::size_t r = 0; r < runs.size(); ++r) {
        double level = ref[0];
        max = std::max(max, level);
        for (std::size_t p = 1; p < 5; ++p) max = std::max(max, level += bars[r][p] - ref[p]);
    }
    if (!(max > 0)) return "";
    const char* unit = "ns";
    double scale = 1;
    for (auto [u, s] : {std::pair{"\xC2\xB5s", 1e3}, std::pair{"ms", 1e6}, std::pair{"s", 1e9}})
        if (max >= s) unit = u, scale = s;
    const std::size_t groups = runs.size() - 1, slots = groups * 7 - 1; // 6 bars and a gap per run
    Figure g(std::max(400.0, 30.0 * static_cast<double>(slots)), 240, "Where the time went, " + per,
             "ref: \"" + shortLabel(runs[reference], 20) + "\"; then the change of each part",
             std::string("Device time ") + per + " (" + unit + ")");
    const double step = roundStep(max / scale, 5), hi = std::ceil(max / scale / step - 1e-9) * step;
    g.yTicks(0, hi, step, tickText);
    const double slot = g.plotWidth() / static_cast<double>(slots), width = slot * 0.7;
    std::size_t at = 0;
    auto bar = [&](double from, double to, const std::string& colour, const std::string& label) {
        double x = g.left() + slot * (static_cast<double>(at) + 0.15);
        double top = g.y(std::max(from, to) / scale), bottom = g.y(std::min(from, to) / scale);
        g.rect(x, top, width, std::max(bottom - top, 0.5), colour);
        g.xTick(x + width / 2, label);
        ++at;
    };
    for (std::size_t r = 0; r < runs.size(); ++r) {
        if (r == reference) continue;
        bar(0, ref[0], "#999999", "ref");
        double level = ref[0];
        for (std::size_t p = 1; p < 5; ++p) {
            double next = level + bars[r][p] - ref[p];
            bar(level, next, next > level ? kMore : kLess, steps[p - 1]);
            level = next;
        }
        bar(0, bars[r][0], kRunColours[r % kRunColourCount], shortLabel(runs[r], 10));
        ++at; // the gap before the next run
    }
    return g.str({{"reference's device time", "#999999"}, {"more time", kMore}, {"less time", kLess}});
}

} // namespace gpueff::reports::svg
