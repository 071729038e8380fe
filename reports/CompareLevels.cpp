// The levels of detail side by side (gpueff compare): each run's iterations and focus, the phases of the
// runs matched by name, and the compute kernels' slowdown under overlap per run (docs/report.md), e.g. a run
// that overlaps communication against one that does not, phase by phase.
#include "reports/CompareLevels.h"

#include "reports/CompareParts.h"
#include "reports/MarkdownTable.h"
#include "reports/ReportMarkdown.h"
#include "reports/SvgCompare.h"

#include <algorithm>

namespace gpueff::reports {

using detail::MarkdownTable;
using nlohmann::json;

namespace {

using Value = std::optional<double>;
constexpr std::size_t kPlottedPhases = 12;

Value parallel(const model::LevelFigures& level) {
    return level.efficiency.ncclAsCommunication.parallel;
}

// A list of the report that older reports leave out, empty then.
template <class T>
const std::vector<T>& listOf(const model::Omitted<std::vector<T>>& list) {
    static const std::vector<T> none;
    return list ? *list : none;
}
const std::vector<model::Phase>& phasesOf(const model::Report& r) {
    return listOf(r.phases);
}
const std::vector<model::KernelOverlap>& overlapOf(const model::Report& r) {
    return listOf(r.kernelOverlap);
}

// The entries of a list of every report (`of`), by their name, in order of first appearance.
template <class List>
std::vector<std::string> namesIn(const std::vector<model::Report>& reports, List of, std::size_t limit) {
    std::vector<std::string> names;
    for (const auto& r : reports)
        for (const auto& e : of(r))
            if (std::find(names.begin(), names.end(), e.name) == names.end() && names.size() < limit)
                names.push_back(e.name);
    return names;
}

template <class T>
const T* byName(const std::vector<T>& list, const std::string& name) {
    for (const auto& e : list)
        if (e.name == name) return &e;
    return nullptr;
}

// The phases with the longest mean time in any run (a bar chart of 30 groups is unreadable), in the table's
// order.
void phasePlot(const std::vector<model::Report>& reports, const std::vector<std::string>& labels,
               const std::vector<std::string>& phases, std::string& md, json& out, compare::Files& files) {
    std::vector<std::pair<double, std::size_t>> longest;
    for (std::size_t p = 0; p < phases.size(); ++p) {
        double most = 0;
        for (const auto& r : reports)
            if (const auto* e = byName(phasesOf(r), phases[p])) most = std::max(most, e->meanNs);
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
            const auto* e = byName(phasesOf(r), phases[p]);
            row.push_back(e ? Value(e->meanNs) : std::nullopt);
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

void compareLevels(const std::vector<model::Report>& reports, const std::vector<std::string>& labels,
                   std::string& md, std::string& overlapMd, json& out, compare::Files& files) {
    bool any = false;
    for (const auto& r : reports) any = any || !listOf(r.iterations).empty();
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
        const auto& iterations = listOf(r.iterations);
        std::string detection = r.iterationDetection ? r.iterationDetection->source : "none";
        Value steadyCount =
            r.iterationDetection ? Value(static_cast<double>(r.iterationDetection->steady)) : std::nullopt;
        double sum = 0, n = 0;
        for (const auto& it : iterations)
            if (it.status == "steady") sum += static_cast<double>(it.durationNs), ++n;
        Value meanNs = n > 0 ? Value(sum / n) : std::nullopt;
        Value pe = r.focus && *r.focus ? parallel((*r.focus)->figures) : std::nullopt;
        source.push_back(formatCount(static_cast<double>(iterations.size())) + " (" + detection + ")");
        steady.push_back(formatCount(steadyCount));
        mean.push_back(formatDuration(meanNs));
        focusPe.push_back(formatEfficiency(pe));
        jruns.push_back({{"label", labels[i]},
                         {"source", detection},
                         {"iterations", iterations.size()},
                         {"steady", compare::orNull(steadyCount)},
                         {"mean_steady_iteration_ns", compare::orNull(meanNs)},
                         {"focus_parallel_efficiency", compare::orNull(pe)}});
    }
    for (auto* row : {&source, &steady, &mean, &focusPe}) runs.row(*row);
    md += runs.str() + "\n";
    json levels = {{"runs", jruns}, {"phases", json::array()}, {"kernel_overlap", json::array()}};

    auto phases = namesIn(reports, phasesOf, 30);
    if (!phases.empty()) {
        MarkdownTable t(compare::runHeader("Phase: mean time / PE", labels), "l" + align);
        for (const auto& name : phases) {
            std::vector<std::string> row{escapeMarkdown(shortenKernelName(name, 40))};
            json jp = {{"name", name}, {"runs", json::array()}};
            for (const auto& r : reports) {
                const auto* p = byName(phasesOf(r), name);
                row.push_back(p ? formatDuration(p->meanNs) + " / " + formatPercent(parallel(p->figures))
                                : "n/a");
                jp["runs"].push_back(p ? json{{"mean_ns", compare::orNull(p->meanNs)},
                                              {"parallel_efficiency", compare::orNull(parallel(p->figures))}}
                                       : json(nullptr));
            }
            t.row(row);
            levels["phases"].push_back(std::move(jp));
        }
        md += "### Phases side by side\n\n" + t.str() + "\n";
        phasePlot(reports, labels, phases, md, out, files);
    }

    auto kernels = namesIn(reports, overlapOf, 20);
    MarkdownTable t(compare::runHeader("Kernel: median alone / overlapped (slowdown)", labels), "l" + align);
    for (const auto& name : kernels) {
        std::vector<std::string> row{escapeMarkdown(shortenKernelName(name, 50))};
        json jk = {{"name", name}, {"runs", json::array()}};
        bool split = false;
        for (const auto& r : reports) {
            const auto* k = byName(overlapOf(r), name);
            Value alone = k && k->alone ? k->alone->medNs : std::nullopt;
            Value during = k && k->overlapped ? k->overlapped->medNs : std::nullopt;
            Value slowdown = k ? k->slowdown : std::nullopt;
            split = split || slowdown;
            row.push_back(k ? formatDuration(alone) + " / " + formatDuration(during) +
                                  (slowdown ? " (" + formatFixed(slowdown, "%.2fx") + ")" : "")
                            : "n/a");
            jk["runs"].push_back(k ? json{{"alone_med_ns", compare::orNull(alone)},
                                          {"overlapped_med_ns", compare::orNull(during)},
                                          {"slowdown", compare::orNull(slowdown)}}
                                   : json(nullptr));
        }
        levels["kernel_overlap"].push_back(std::move(jk));
        if (split) t.row(row);
    }
    if (!t.empty())
        overlapMd +=
            "## Kernels alone and under communication\n\nMedian duration of the instances that ran "
            "alone and of those that ran while communication ran on their device: the GEMM slowdown that "
            "makes overlapping runs gain less than the overlap suggests (what computational efficiency "
            "loses).\n\n" +
            t.str() + "\n";
    out["levels"] = std::move(levels);
}

} // namespace gpueff::reports
