// The least-squares part of the POP scaling table: each factor against log2 of the device count. Counts
// double from run to run in scaling studies, so log2(n) spaces them evenly (the largest run does not
// dominate the fit as it would against n), and the efficiency lost per doubling, b, is the figure an analyst
// reads; extrapolating to 2x and 4x is then one and two more steps of the same size.
#include "reports/CompareScaling.h"

#include "reports/MarkdownTable.h"
#include "reports/ReportMarkdown.h"
#include "reports/SvgCompare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace gpueff::reports::compare {

using nlohmann::json;
using reports::detail::MarkdownTable;

namespace {

std::string printf1(const char* format, double v) {
    char b[64];
    std::snprintf(b, sizeof b, format, v);
    return b;
}

std::vector<double> distinct(std::vector<double> counts) {
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    return counts;
}

std::optional<FactorFit> fitFactor(const std::vector<ScalingRun>& runs, std::size_t c, std::size_t f,
                                   const double (&targets)[kExtrapolations]) {
    std::vector<double> counts, x, y;
    for (const auto& r : runs)
        if (r.values[c][f])
            counts.push_back(r.devices), x.push_back(std::log2(r.devices)), y.push_back(*r.values[c][f]);
    // A factor unknown in some runs is fitted over the others, under the same rule as the whole table.
    if (distinct(counts).size() < kMinimumDistinctCounts) return std::nullopt;
    auto line = fitLine(x, y);
    if (!line) return std::nullopt;
    FactorFit fit{*line};
    for (std::size_t e = 0; e < kExtrapolations; ++e) {
        fit.fitted[e] = line->at(std::log2(targets[e]));
        fit.value[e] = clampFactor(f, fit.fitted[e]);
        fit.clamped[e] = fit.value[e] != fit.fitted[e];
    }
    return fit;
}

json fitJson(const std::optional<FactorFit>& fit, const ScalingFits& fits, std::size_t f) {
    if (!fit) return nullptr;
    json extrapolation = json::array();
    for (std::size_t e = 0; e < kExtrapolations; ++e)
        extrapolation.push_back({{"devices", std::llround(fits.targets[e])},
                                 {"value", fit->value[e]},
                                 {"fitted", fit->fitted[e]},
                                 {"clamped", fit->clamped[e]}});
    return {{"a", fit->line.intercept},
            {"b", fit->line.slope},
            {"rms_residual", fit->line.rmsResidual},
            {"points", fit->line.points},
            {"bounds", kScalingFactors[f].fraction ? json::array({0, 1}) : json::array({0, nullptr})},
            {"extrapolation", std::move(extrapolation)}};
}

std::string extrapolationCell(const std::optional<FactorFit>& fit, std::size_t e) {
    if (!fit) return "n/a";
    return formatEfficiency(fit->value[e]) + (fit->clamped[e] ? " *" : "");
}

} // namespace

double clampFactor(std::size_t factor, double value) {
    return kScalingFactors[factor].fraction ? std::clamp(value, 0.0, 1.0) : std::max(value, 0.0);
}

std::optional<ScalingFits> fitScaling(const std::vector<ScalingRun>& runs) {
    for (const auto& r : runs)
        if (!(r.devices >= 1) || !std::isfinite(r.devices)) return std::nullopt;
    ScalingFits fits;
    for (const auto& r : runs) fits.counts.push_back(r.devices);
    fits.counts = distinct(std::move(fits.counts));
    if (fits.counts.size() < kMinimumDistinctCounts) return std::nullopt;
    for (std::size_t e = 0; e < kExtrapolations; ++e)
        fits.targets[e] = kExtrapolationFactors[e] * fits.counts.back();
    for (std::size_t c = 0; c < kConventionCount; ++c)
        for (std::size_t f = 0; f < kScalingFactorCount; ++f)
            fits.fits[c][f] = fitFactor(runs, c, f, fits.targets);
    return fits;
}

void appendScalingFits(const std::vector<ScalingRun>& runs, std::string& md, json& comparison, Files& files) {
    json& scaling = comparison["scaling"];
    auto fits = fitScaling(runs);
    if (!fits) {
        scaling["fits"] = nullptr;
        md += "No scaling fit: it needs runs at " + std::to_string(kMinimumDistinctCounts) +
              " or more distinct device counts.\n\n";
        return;
    }
    // Columns by device count (a stable sort keeps the given order of runs with equal counts).
    std::vector<std::size_t> order(runs.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return runs[a].devices < runs[b].devices; });
    std::vector<std::string> header{"Factor"};
    for (auto i : order)
        header.push_back(escapeMarkdown(runs[i].label) + " (n=" + printf1("%.0f", runs[i].devices) + ")");
    for (const char* h : {"a", "b (per doubling)", "RMS residual"}) header.emplace_back(h);
    for (double t : fits->targets) header.push_back("n=" + printf1("%.0f", t) + " (fit)");

    json jfits = {{"model", "a + b * log2(n)"},
                  {"variable", "n = devices of the run"},
                  {"devices", json::array()},
                  {"extrapolated_to", json::array()}};
    for (double n : fits->counts) jfits["devices"].push_back(std::llround(n));
    for (double t : fits->targets) jfits["extrapolated_to"].push_back(std::llround(t));
    md += "### Scaling fits\n\nEach factor fitted by least squares against the device count n as "
          "factor = a + b log2(n) over all " +
          std::to_string(runs.size()) +
          " runs: b is the change per doubling of the devices. RMS residual = root mean square distance of "
          "the runs from the line. Extrapolated to 2x and 4x the largest count; fractions (parallel "
          "efficiency and its factors) are clamped to [0, 100 %], computational scalability and global "
          "efficiency (which pass 100 % when scaling is superlinear) at 0 only; * marks a clamped value.\n\n";
    for (std::size_t c = 0; c < kConventionCount; ++c) {
        MarkdownTable t(header, "l" + std::string(header.size() - 1, 'r'));
        json jc = json::object();
        for (std::size_t f = 0; f < kScalingFactorCount; ++f) {
            const auto& fit = fits->fits[c][f];
            std::vector<std::string> row{kScalingFactors[f].label};
            for (auto i : order) row.push_back(formatEfficiency(runs[i].values[c][f]));
            row.push_back(fit ? formatPercent(fit->line.intercept) : "n/a");
            row.push_back(fit ? printf1("%+.2f pp", 100 * fit->line.slope) : "n/a");
            row.push_back(fit ? printf1("%.2f pp", 100 * fit->line.rmsResidual) : "n/a");
            for (std::size_t e = 0; e < kExtrapolations; ++e) row.push_back(extrapolationCell(fit, e));
            t.row(row);
            jc[kScalingFactors[f].key] = fitJson(fit, *fits, f);
        }
        jfits[kConventions[c].key] = std::move(jc);
        md += std::string("#### ") + kConventions[c].title + "\n\n" + t.str() + "\n";
        std::vector<std::string> series;
        for (const auto& f : kScalingFactors) series.emplace_back(f.label);
        addPlot(scalingPlotFile(c),
                std::string("Efficiency factors against the device count (") + kConventions[c].title + ")",
                series, svg::scalingChart(runs, *fits, c), files, comparison, md);
    }
    scaling["fits"] = std::move(jfits);
}

} // namespace gpueff::reports::compare
