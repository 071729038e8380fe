// The levels of detail side by side (gpueff compare): each run's iterations and focus, the phases of the
// runs matched by name, and the compute kernels' slowdown under overlap per run (docs/report.md), e.g. a run
// that overlaps communication against one that does not, phase by phase.
#include "reports/CompareLevels.h"

#include "reports/CompareParts.h"
#include "reports/JsonAccess.h"
#include "reports/MarkdownTable.h"
#include "reports/ReportMarkdown.h"
#include "reports/SvgCompare.h"

#include <algorithm>

namespace gpueff::reports {

using namespace detail;

namespace {

using Value = std::optional<double>;
constexpr std::size_t kPlottedPhases = 12;

Value parallel(const json& level) {
    return number(sub(sub(level, "efficiency"), "nccl_as_communication"), "parallel_efficiency");
}

json orNull(Value v) {
    return v ? json(*v) : json(nullptr);
}

// The entries of array `key` of every report, by their "name", in order of first appearance.
std::vector<std::string> namesIn(const std::vector<json>& reports, const char* key, std::size_t limit) {
    std::vector<std::string> names;
    for (const auto& r : reports)
        for (const auto& e : array(r, key)) {
            auto n = text(e, "name");
            if (std::find(names.begin(), names.end(), n) == names.end() && names.size() < limit)
                names.push_back(n);
        }
    return names;
}

const json* byName(const json& report, const char* key, const std::string& name) {
    for (const auto& e : array(report, key))
        if (text(e, "name") == name) return &e;
    return nullptr;
}

// The phases with the longest mean time in any run (a bar chart of 30 groups is unreadable), in the table's
// order.
void phasePlot(const std::vector<json>& reports, const std::vector<std::string>& labels,
               const std::vector<std::string>& phases, std::string& md, json& out, compare::Files& files) {
    std::vector<std::pair<double, std::size_t>> longest;
    for (std::size_t p = 0; p < phases.size(); ++p) {
        double most = 0;
        for (const auto& r : reports)
            if (const json* e = byName(r, "phases", phases[p]))
                most = std::max(most, number(*e, "mean_ns").value_or(0));
        longest.emplace_back(-most, p);
    }
    std::stable_sort(longest.begin(), longest.end());
    if (longest.size() > kPlottedPhases) longest.resize(kPlottedPhases);
    std::vector<std::size_t> shown;
    for (auto [m, p] : longest) shown.push_back(p);
    std::sort(shown.begin(), shown.end());
    std::vector<std::string> names;
    std::vector<std::vector<Value>> means;
    for (auto p : shown) {
        names.push_back(shortenKernelName(phases[p], 22));
        auto& row = means.emplace_back();
        for (const auto& r : reports) {
            const json* e = byName(r, "phases", phases[p]);
            row.push_back(e ? number(*e, "mean_ns") : std::nullopt);
        }
    }
    std::string title = "Mean phase time per run (steady iterations)";
    if (phases.size() > kPlottedPhases)
        md += "The plot shows the " + std::to_string(kPlottedPhases) +
              " phases with the longest mean time.\n\n";
    compare::addPlot(compare::kPhasesPlotFile, title, labels, svg::phaseTimesChart(names, labels, means),
                     files, out, md);
}

} // namespace

void compareLevels(const std::vector<json>& reports, const std::vector<std::string>& labels, std::string& md,
                   json& out, compare::Files& files) {
    bool any = false;
    for (const auto& r : reports) any = any || !array(r, "iterations").empty();
    if (!any) return;
    const std::string align(labels.size() + 1, 'r');
    md += "## Iterations and phases\n\nParallel efficiency with NCCL as communication; focus = first to last "
          "steady iteration.\n\n";
    MarkdownTable runs(compare::runHeader("", labels), "l" + align);
    std::vector<std::string> source{"Iterations found"}, steady{"Steady"}, mean{"Mean steady iteration"},
        focusPe{"Focus parallel efficiency"};
    json jruns = json::array();
    for (std::size_t i = 0; i < reports.size(); ++i) {
        const auto& r = reports[i];
        const json& det = sub(r, "iteration_detection");
        double sum = 0, n = 0;
        for (const auto& it : array(r, "iterations"))
            if (text(it, "status") == "steady") sum += number(it, "duration_ns").value_or(0), ++n;
        Value meanNs = n > 0 ? Value(sum / n) : std::nullopt;
        Value pe = parallel(sub(r, "focus"));
        source.push_back(formatCount(static_cast<double>(array(r, "iterations").size())) + " (" +
                         text(det, "source", "none") + ")");
        steady.push_back(formatCount(number(det, "steady")));
        mean.push_back(formatDuration(meanNs));
        focusPe.push_back(formatEfficiency(pe));
        jruns.push_back({{"label", labels[i]},
                         {"source", text(det, "source", "none")},
                         {"iterations", array(r, "iterations").size()},
                         {"steady", orNull(number(det, "steady"))},
                         {"mean_steady_iteration_ns", orNull(meanNs)},
                         {"focus_parallel_efficiency", orNull(pe)}});
    }
    for (auto* row : {&source, &steady, &mean, &focusPe}) runs.row(*row);
    md += runs.str() + "\n";
    json levels = {{"runs", jruns}, {"phases", json::array()}, {"kernel_overlap", json::array()}};

    auto phases = namesIn(reports, "phases", 30);
    if (!phases.empty()) {
        MarkdownTable t(compare::runHeader("Phase: mean time / PE", labels), "l" + align);
        for (const auto& name : phases) {
            std::vector<std::string> row{escapeMarkdown(shortenKernelName(name, 40))};
            json jp = {{"name", name}, {"runs", json::array()}};
            for (const auto& r : reports) {
                const json* p = byName(r, "phases", name);
                row.push_back(p ? formatDuration(number(*p, "mean_ns")) + " / " + formatPercent(parallel(*p))
                                : "n/a");
                jp["runs"].push_back(p ? json{{"mean_ns", orNull(number(*p, "mean_ns"))},
                                              {"parallel_efficiency", orNull(parallel(*p))}}
                                       : json(nullptr));
            }
            t.row(row);
            levels["phases"].push_back(std::move(jp));
        }
        md += "### Phases side by side\n\n" + t.str() + "\n";
        phasePlot(reports, labels, phases, md, out, files);
    }

    auto kernels = namesIn(reports, "kernel_overlap", 20);
    MarkdownTable t(compare::runHeader("Kernel: median alone / overlapped (slowdown)", labels), "l" + align);
    for (const auto& name : kernels) {
        std::vector<std::string> row{escapeMarkdown(shortenKernelName(name, 50))};
        json jk = {{"name", name}, {"runs", json::array()}};
        bool split = false;
        for (const auto& r : reports) {
            const json* k = byName(r, "kernel_overlap", name);
            Value alone = k ? number(sub(*k, "alone"), "med_ns") : std::nullopt;
            Value during = k ? number(sub(*k, "overlapped"), "med_ns") : std::nullopt;
            Value slowdown = k ? number(*k, "slowdown") : std::nullopt;
            split = split || slowdown;
            row.push_back(k ? formatDuration(alone) + " / " + formatDuration(during) +
                                  (slowdown ? " (" + formatFixed(slowdown, "%.2fx") + ")" : "")
                            : "n/a");
            jk["runs"].push_back(k ? json{{"alone_med_ns", orNull(alone)},
                                          {"overlapped_med_ns", orNull(during)},
                                          {"slowdown", orNull(slowdown)}}
                                   : json(nullptr));
        }
        levels["kernel_overlap"].push_back(std::move(jk));
        if (split) t.row(row);
    }
    if (!t.empty())
        md += "### Kernels alone and under communication\n\nMedian duration of the instances that ran alone "
              "and "
              "of those that ran while communication ran on their device: the GEMM slowdown that makes "
              "overlapping runs gain less than the overlap suggests.\n\n" +
              t.str() + "\n";
    out["levels"] = std::move(levels);
}

} // namespace gpueff::reports
