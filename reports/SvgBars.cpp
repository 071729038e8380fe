// Grouped and stacked bars on SvgFrame's Figure. Bars are grouped so that the eye compares within a group
// (the devices at one count of kernels in flight, the factors of one run); stacked rows so that the parts of
// one device's time add up to its window.
#include "reports/SvgBars.h"

#include "reports/SvgFrame.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpueff::reports::svg {

namespace {

constexpr double kPlotHeight = 240;
constexpr std::size_t kCategoryChars = 22, kRowLabelChars = 30;
// Plots this wide or less show at their size in a GitHub page 900 px wide (836 px of content, less the
// frame's margins); wider ones are scaled down there, their text with them.
constexpr double kMaxPlotWidth = 720;

std::vector<std::string> lines(const std::string& label) {
    std::vector<std::string> out;
    for (std::size_t from = 0; from <= label.size();) {
        std::size_t end = std::min(label.find('\n', from), label.size());
        out.push_back(shortLabel(label.substr(from, end - from), kCategoryChars));
        from = end + 1;
    }
    return out;
}

// Text on a bar: white on dark colours, black on light ones (relative luminance of "#RRGGBB").
std::string textOn(const std::string& colour) {
    unsigned r = 0, g = 0, b = 0;
    if (colour.size() != 7 || std::sscanf(colour.c_str(), "#%2x%2x%2x", &r, &g, &b) != 3) return "#000000";
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 140 ? "#ffffff" : "#000000";
}

} // namespace

std::string percentTick(double v) {
    return tickText(v) + " %";
}

std::string barChart(const BarChart& b) {
    const double bars = static_cast<double>(std::max<std::size_t>(b.series.size(), 1));
    const double groups = static_cast<double>(b.categories.size());
    std::size_t longest = 0;
    std::vector<std::string> labels;
    for (const auto& c : b.categories) {
        std::string label;
        for (const auto& l : lines(c)) {
            longest = std::max(longest, l.size());
            label += (label.empty() ? "" : "\n") + l;
        }
        labels.push_back(label);
    }
    // Each group as wide as its label, so that labels never overlap, and its bars as wide as fits the page
    // (at least 4 px).
    const double labelWidth = 6.2 * static_cast<double>(longest) + 12;
    double barWidth = bars <= 4 ? 18 : bars <= 8 ? 12 : 8;
    if (groups * (bars * barWidth + 16) > kMaxPlotWidth)
        barWidth = std::max(4.0, std::floor((kMaxPlotWidth / std::max(groups, 1.0) - 16) / bars));
    double groupWidth = std::max(bars * barWidth + 16, labelWidth);
    const double plotWidth = std::max(480.0, groupWidth * groups);
    // Few groups spread over the whole axis, their bars wider (up to 28 px), as a band scale would.
    if (groups > 0 && groupWidth * groups < plotWidth) {
        groupWidth = plotWidth / groups;
        barWidth = std::clamp(std::floor(0.6 * (groupWidth - 16) / bars), barWidth, 28.0);
    }
    Figure f(plotWidth, kPlotHeight, b.title, b.xTitle, b.yTitle);
    f.yTicks(0, b.hi, b.step, b.tick);
    const double first = f.left() + (f.plotWidth() - groupWidth * groups) / 2;
    const auto colour = [&](std::size_t s) {
        return b.colours.empty() ? "#000000" : b.colours[s % b.colours.size()];
    };
    // Series beyond the palette repeat its colours, lighter.
    const auto opacity = [&](std::size_t s) { return s >= b.colours.size() ? 0.5 : 1.0; };
    for (std::size_t g = 0; g < b.categories.size(); ++g) {
        double gx = first + groupWidth * static_cast<double>(g);
        double bx = gx + (groupWidth - bars * barWidth) / 2;
        for (std::size_t s = 0; s < b.series.size(); ++s) {
            auto v = g < b.values.size() && s < b.values[g].size() ? b.values[g][s] : std::nullopt;
            double x = bx + barWidth * static_cast<double>(s);
            if (!v || !std::isfinite(*v)) {
                // Unknown is not zero: say so where the bar would stand.
                if (b.markUnknown) f.text(x + barWidth / 2, f.bottom() - 4, "n/a", "middle", 7);
                continue;
            }
            double top = f.y(std::clamp(*v, 0.0, b.hi));
            f.rect(x, top, std::max(barWidth - 1, 1.0), f.bottom() - top, colour(s), opacity(s));
        }
        f.xTick(gx + groupWidth / 2, labels[g]);
    }
    std::vector<LegendEntry> legend; // a series without a name (the only one) needs no key
    for (std::size_t s = 0; s < b.series.size(); ++s)
        if (!b.series[s].empty()) legend.push_back({b.series[s], colour(s), Mark::Bar, -1, opacity(s)});
    return f.str(legend);
}

std::vector<Series> condense(std::vector<Series> perDevice, std::size_t categories) {
    if (perDevice.size() <= kMaxDeviceSeries) return perDevice;
    Series mean{"Average (" + std::to_string(perDevice.size()) + " devices)", {}}, lo{"Minimum", {}},
        hi{"Maximum", {}};
    for (std::size_t c = 0; c < categories; ++c) {
        double sum = 0, mn = INFINITY, mx = -INFINITY;
        std::size_t n = 0;
        for (const auto& s : perDevice) {
            double v = c < s.values.size() ? s.values[c] : NAN;
            if (!std::isfinite(v)) continue;
            sum += v, mn = std::min(mn, v), mx = std::max(mx, v), ++n;
        }
        mean.values.push_back(n ? sum / static_cast<double>(n) : NAN);
        lo.values.push_back(n ? mn : NAN);
        hi.values.push_back(n ? mx : NAN);
    }
    return {mean, lo, hi};
}

BarChart percentBars(std::string title, std::string xTitle, std::string yTitle,
                     std::vector<std::string> categories, const std::vector<Series>& series) {
    BarChart b{std::move(title), std::move(xTitle), std::move(yTitle), std::move(categories), {}, {}, {}};
    b.colours.assign(std::begin(kRunColours), std::end(kRunColours));
    b.values.assign(b.categories.size(), {});
    for (const auto& s : series) {
        b.series.push_back(s.label);
        for (std::size_t c = 0; c < b.categories.size(); ++c) {
            double v = c < s.values.size() ? s.values[c] : NAN;
            b.values[c].push_back(std::isfinite(v) ? std::optional(v * 100) : std::nullopt);
        }
    }
    return b;
}

std::string stackedBarChart(const StackedBarChart& c) {
    constexpr double kRowHeight = 22, kPlotWidth = 460;
    std::size_t longest = 0;
    for (const auto& r : c.rows) longest = std::max(longest, shortLabel(r.label, kRowLabelChars).size());
    Figure f(kPlotWidth, kRowHeight * static_cast<double>(c.rows.size()), c.title, c.xTitle, c.yTitle,
             Figure::leftFor(longest));
    f.xTicks(0, 100, 25, percentTick);
    for (std::size_t r = 0; r < c.rows.size(); ++r) {
        const double y = f.top() + kRowHeight * static_cast<double>(r);
        f.yTick(y + kRowHeight / 2, shortLabel(c.rows[r].label, kRowLabelChars));
        double at = 0; // percent of the row drawn so far
        for (std::size_t s = 0; s < c.rows[r].fractions.size() && s < c.colours.size(); ++s) {
            double v = c.rows[r].fractions[s];
            // Rounding in the input must not run a row past 100 %.
            double share = std::min(std::isfinite(v) ? std::clamp(v, 0.0, 1.0) * 100 : 0.0, 100 - at);
            double x = f.x(at), w = f.x(at + share) - x;
            f.rect(x, y + 3, w, kRowHeight - 6, c.colours[s]);
            if (w >= 36) {
                char label[32];
                std::snprintf(label, sizeof label, "%.1f %%", share);
                f.text(x + w / 2, y + kRowHeight / 2 + 3.5, label, "middle", 9, textOn(c.colours[s]));
            }
            at += share;
        }
    }
    std::vector<LegendEntry> legend;
    for (std::size_t s = 0; s < c.segments.size() && s < c.colours.size(); ++s)
        legend.push_back({c.segments[s], c.colours[s]});
    return f.str(legend);
}

} // namespace gpueff::reports::svg
