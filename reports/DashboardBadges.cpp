#include "reports/DashboardBadges.h"

#include "reports/ReportMarkdown.h"
#include "reports/SvgFrame.h"

#include <cmath>
#include <cstddef>

namespace gpueff::reports::dashboard {

namespace {

// The POP colour scale of report.md's squares (ReportMarkdown.h efficiencyColour), as badge colours.
std::string popColour(compare::Value fraction) {
    if (!fraction || !std::isfinite(*fraction)) return "#9f9f9f";
    if (*fraction >= 0.8) return "#2e7d32";
    if (*fraction >= 0.7) return "#b59a00";
    if (*fraction >= 0.6) return "#e67e22";
    return "#c62828";
}

// Text width at 11 px in a sans-serif face: an estimate (no font metrics offline), wide enough for digits
// and lower-case letters, which badges hold.
double textWidth(const std::string& text) {
    return 6.5 * static_cast<double>(text.size()) + 10;
}

} // namespace

std::string badgeSvg(const std::string& label, const std::string& value, const std::string& colour) {
    const double left = textWidth(label), right = textWidth(value), width = left + right;
    auto n = [](double v) { return std::to_string(static_cast<long>(std::lround(v))); };
    auto l = svg::escapeXml(label), v = svg::escapeXml(value);
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + n(width) +
           "\" height=\"20\" role=\"img\" aria-label=\"" + l + ": " + v + "\"><title>" + l + ": " + v +
           "</title><rect width=\"" + n(left) + "\" height=\"20\" rx=\"3\" fill=\"#555\"/><rect x=\"" +
           n(left) + "\" width=\"" + n(right) + "\" height=\"20\" rx=\"3\" fill=\"" + colour +
           "\"/><g fill=\"#fff\" font-family=\"DejaVu Sans,Verdana,Geneva,sans-serif\" font-size=\"11\" "
           "text-anchor=\"middle\"><text x=\"" +
           n(left / 2) + "\" y=\"14\">" + l + "</text><text x=\"" + n(left + right / 2) + "\" y=\"14\">" + v +
           "</text></g></svg>\n";
}

std::vector<std::pair<std::string, std::string>> runBadges(const RunFigures& run) {
    static constexpr const char* kFiles[] = {"parallel_efficiency", "load_balance",
                                             "communication_efficiency", "orchestration_efficiency"};
    static constexpr const char* kLabels[] = {"parallel efficiency", "load balance", "communication",
                                              "orchestration"};
    std::vector<std::pair<std::string, std::string>> out;
    for (std::size_t f = 0; f < std::size(kFiles); ++f) {
        auto value = run.unit.factors[0][f];
        out.emplace_back(std::string("badges/") + kFiles[f] + ".svg",
                         badgeSvg(kLabels[f], formatPercent(value), popColour(value)));
    }
    out.emplace_back("badges/iteration_time.svg",
                     badgeSvg(run.unit.perIteration ? "iteration time" : "window",
                              formatDuration(run.unit.timeNs), "#1565c0"));
    return out;
}

} // namespace gpueff::reports::dashboard
