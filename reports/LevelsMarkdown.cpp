// The "Iterations and phases" section of report.md (docs/report.md): how iterations were found, the focus
// of analysis against the whole window, the steady iterations, the factors over iterations as a plot, the
// phases side by side, stragglers at collectives, and the compute kernels split by overlap.
#include "reports/LevelsMarkdown.h"

#include "metrics/Levels.h"
#include "reports/MarkdownCells.h"
#include "reports/MarkdownTable.h"
#include "reports/SvgPlot.h"

#include <cstdio>
#include <map>

namespace gpueff::reports {

using cells::value;
using detail::MarkdownTable;

namespace {

constexpr std::size_t kFoldRows = 12; // longer tables go in a folded section

const model::Convention& commEfficiency(const model::LevelFigures& level) {
    return level.efficiency.ncclAsCommunication;
}

std::string plural(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string folded(const std::string& summary, const std::string& table, std::size_t rows) {
    if (rows <= kFoldRows) return table + "\n";
    return "<details><summary>" + summary + "</summary>\n\n" + table + "\n</details>\n\n";
}

// The four factors of one convention and the overlap share, as percentages (n/a where null).
std::vector<std::string> factorCells(const model::LevelFigures& level) {
    const auto& e = commEfficiency(level);
    return {formatPercent(e.parallel), formatPercent(e.loadBalance), formatPercent(e.communication),
            formatPercent(e.orchestration), formatPercent(level.overlapShare)};
}

void detection(std::string& md, const model::Report& m, const std::vector<model::Iteration>& its) {
    const auto& det = *m.iterationDetection;
    std::map<std::string, std::size_t> status;
    for (const auto& it : its) ++status[it.status];
    if (det.source == "markers")
        md += "Iterations: " + plural(its.size(), "NVTX range", "NVTX ranges") + " matching " +
              (det.pattern.value_or("") == metrics::kDefaultIterationPattern
                   ? std::string("the default iteration pattern (PyTorch, NeMo/Megatron, \"Step N to M\"; "
                                 "`--iterations REGEX` names others)")
                   : codeSpan(det.pattern.value_or(""))) +
              ", " +
              (det.placement.value_or("") == "gpu-projection"
                   ? "placed on the GPU where the work launched inside them ran (each iteration runs "
                     "from its first work to the next one's)"
                   : "at their host times (the trace has no launch lines)") +
              ". ";
    else if (det.source == "detected")
        md += "Iterations: " + plural(its.size(), "repetition", "repetitions") +
              " of the kernel sequence of the first GPU, each beginning with " +
              codeSpan(shortenKernelName(det.anchor.value_or(""), 60)) + ". ";
    else if (det.source == "off")
        md += "Iterations were not looked for (`--iterations-from off`). ";
    else
        md += "No iterations found (`--iterations REGEX` names the NVTX ranges that mark them). ";
    if (!its.empty())
        md += std::to_string(status["steady"]) + " steady, " + std::to_string(status["warm-up"]) +
              " warm-up, " + std::to_string(status["outlier"]) +
              " outlier (further from the median duration than 3 robust deviations and 5 %).";
    md += "\n\n";
    for (const auto& n : det.notes) md += "- " + escapeMarkdown(n) + "\n";
    if (!det.notes.empty()) md += "\n";
}

void focus(std::string& md, const model::Report& m) {
    if (!m.focus || !*m.focus) return;
    const model::Focus& f = **m.focus;
    md += "### Focus of analysis: iterations " + formatCount(value(f.first)) + " to " +
          formatCount(value(f.last)) + ", the first to the last steady one (" +
          formatDuration(value(f.durationNs)) + ")\n\n";
    const auto& whole = m.efficiency.ncclAsCommunication;
    MarkdownTable t({"Factor (NCCL as communication)", "Whole window", "Focus"}, "lrr");
    for (std::size_t k = 0; k < std::size(kEfficiencyFactors); ++k)
        t.row({kEfficiencyFactors[k].label, formatEfficiency(whole.factor(k)),
               formatEfficiency(commEfficiency(f.figures).factor(k))});
    t.row({"Overlap share", "", formatPercent(f.figures.overlapShare)});
    md += t.str() + "\n";
}

std::string stragglerCell(const model::Report& m, const model::Iteration& it) {
    if (!it.straggler) return "n/a";
    return escapeMarkdown(m.deviceLabel(it.straggler->device)) + " +" +
           formatDuration(value(it.straggler->lagNs));
}

void iterationTable(std::string& md, const model::Report& m, const std::vector<model::Iteration>& its,
                    RenderedReport& out) {
    if (its.empty()) return;
    bool stragglers = false;
    for (const auto& it : its) stragglers = stragglers || it.straggler;
    std::vector<std::string> head = {"#", "Duration", "PE", "LB", "CommE", "OrchE", "Overlap"};
    if (stragglers) head.push_back("Last device (lag)");
    MarkdownTable t(head, "rrrrrrrl");
    std::size_t rows = 0;
    std::string others;
    for (const auto& it : its) {
        if (it.status != "steady") {
            others += (others.empty() ? "" : ", ") + formatCount(value(it.index)) + " (" + it.status + ", " +
                      formatDuration(value(it.durationNs)) + ")";
            continue;
        }
        std::vector<std::string> row = {formatCount(value(it.index)), formatDuration(value(it.durationNs))};
        for (auto& cell : factorCells(it.figures)) row.push_back(std::move(cell));
        row.push_back(stragglers ? stragglerCell(m, it) : "");
        t.row(row);
        ++rows;
    }
    md += std::string("### Steady iterations\n\nFactors with NCCL as communication") +
          (stragglers ? "; the last device is the one whose useful work ended last, with how much later than "
                        "the first"
                      : "") +
          ".\n\n";
    md += folded("Steady iterations (" + std::to_string(rows) + " rows)", t.str(), rows);
    if (!others.empty()) md += "Not steady: " + others + ".\n\n";
    // Which device the steady iterations waited for.
    std::map<std::string, std::pair<std::size_t, double>> last; // device label -> (iterations, lag summed)
    for (const auto& it : its)
        if (it.straggler && it.status == "steady") {
            auto& l = last[m.deviceLabel(it.straggler->device)];
            ++l.first;
            l.second += static_cast<double>(it.straggler->lagNs);
        }
    for (const auto& [device, l] : last)
        md += "- " + escapeMarkdown(device) + " ended its useful work last in " + std::to_string(l.first) +
              " of the " + std::to_string(rows) + " steady iterations, " +
              formatDuration(l.second / static_cast<double>(l.first)) +
              " after the first device on average.\n";
    if (!last.empty()) md += "\n";
    std::string chart = svg::iterationEfficiencyChart(its);
    if (!chart.empty()) {
        out.files.emplace_back("plots/iteration_efficiency.svg", chart);
        md += "![Efficiency factors over iterations](plots/iteration_efficiency.svg)\n\n";
    }
}

void phases(std::string& md, const model::Report& m) {
    if (!m.phases || m.phases->empty()) return;
    const auto& list = *m.phases;
    md +=
        "### Phases\n\nNVTX ranges one level inside the iteration ranges, matched by name (digits masked as "
        "#) over the steady iterations; times summed over them.\n\n";
    MarkdownTable t({"Phase", "Iterations", "Mean", "PE", "LB", "CommE", "OrchE", "Overlap"}, "lrrrrrrr");
    for (const auto& p : list) {
        // Seven columns of figures leave a phase's name 16 characters a word (a cell wraps at spaces only).
        std::vector<std::string> row = {escapeMarkdown(shortenForTable(p.name, 40, 16)),
                                        formatCount(value(p.iterations)),
                                        formatDuration(model::finite(p.meanNs))};
        for (auto& cell : factorCells(p.figures)) row.push_back(std::move(cell));
        t.row(row);
    }
    md += folded("Phases (" + std::to_string(list.size()) + " rows)", t.str(), list.size());
}

void collectives(std::string& md, const model::Report& m) {
    if (!m.collectives || m.collectives->matched <= 0) return;
    const auto& c = *m.collectives;
    md += "### Stragglers at collectives\n\nThe k-th instance of an NCCL kernel on each device is one "
          "collective; it waits for the last device to arrive (kernel start).\n\n";
    for (const auto& d : c.devices) {
        if (d.lastCount <= 0) continue;
        md += "- " + escapeMarkdown(m.deviceLabel(d.device)) + " arrived last in " +
              formatPercent(d.lastPercent.value_or(0) / 100) + " of the " + formatCount(value(c.matched)) +
              " collectives, making the others wait " + formatDuration(value(d.waitCausedNs)) +
              " in total.\n";
    }
    md += "\n";
    MarkdownTable t({"Collective", "#", "Skew", "Last device"}, "lrrl");
    std::size_t rows = 0;
    for (const auto& in : c.instances) {
        if (rows++ == 5) break;
        t.row({escapeMarkdown(shortenForTable(in.kernel, 50, 28)), formatCount(value(in.sequence)),
               formatDuration(value(in.skewNs)), escapeMarkdown(m.deviceLabel(in.lastDevice))});
    }
    md += "Largest arrival skews:\n\n" + t.str() + "\n";
}

std::string groupCell(const std::optional<model::DurationGroup>& g) {
    if (!g) return "none";
    auto tensor = g->tensorActivePercent ? *g->tensorActivePercent : std::nullopt;
    return formatCount(value(g->instances)) + " x " + formatDuration(g->medNs) +
           (tensor ? ", tensor active " + formatPercent(*tensor / 100) : "");
}

void kernelOverlap(std::string& md, const model::Report& m) {
    if (!m.kernelOverlap) return;
    const auto& list = *m.kernelOverlap;
    bool split = false;
    for (const auto& k : list) split = split || k.slowdown;
    if (!split) return; // no kernel ran both during and outside communication: nothing to compare
    md += "### Are all kernels born equal? Overlapped with communication or not\n\nInstances (median "
          "duration) of the top compute kernels, split by whether they ran while communication ran on the "
          "same device; slowdown = median overlapped / median alone.\n\n";
    MarkdownTable t({"Kernel", "Alone", "Overlapped", "Slowdown"}, "lrrr");
    for (const auto& k : list) {
        if (!k.slowdown) continue;
        t.row({escapeMarkdown(shortenForTable(k.name, 50, 28)), groupCell(k.alone), groupCell(k.overlapped),
               formatFixed(k.slowdown, "%.2fx")});
    }
    md += t.str() + "\n";
}

} // namespace

void levelsSection(std::string& md, const model::Report& m, RenderedReport& out) {
    if (!m.iterationDetection) return; // a report from before the levels of detail
    static const std::vector<model::Iteration> none;
    const auto& its = m.iterations ? *m.iterations : none;
    md += "## Iterations and phases\n\n";
    detection(md, m, its);
    focus(md, m);
    iterationTable(md, m, its, out);
    phases(md, m);
    collectives(md, m);
    kernelOverlap(md, m);
}

} // namespace gpueff::reports
