// The "Iterations and phases" section of report.md (docs/report.md): how iterations were found, the focus
// of analysis against the whole window, the steady iterations, the factors over iterations as a plot, the
// phases side by side, stragglers at collectives, and the compute kernels split by overlap.
#include "reports/LevelsMarkdown.h"

#include "metrics/Levels.h"
#include "reports/JsonAccess.h"
#include "reports/MarkdownTable.h"
#include "reports/SvgPlot.h"

#include <cstdio>
#include <map>

namespace gpueff::reports {

using namespace detail;

namespace {

constexpr std::size_t kFoldRows = 12; // longer tables go in a folded section

const json& commEfficiency(const json& level) {
    return sub(sub(level, "efficiency"), "nccl_as_communication");
}

std::string percentOrNa(std::optional<double> v) {
    return formatPercent(v);
}

std::string plural(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string folded(const std::string& summary, const std::string& table, std::size_t rows) {
    if (rows <= kFoldRows) return table + "\n";
    return "<details><summary>" + summary + "</summary>\n\n" + table + "\n</details>\n\n";
}

void detection(std::string& md, const json& report) {
    const json& det = sub(report, "iteration_detection");
    const json& its = array(report, "iterations");
    std::string source = text(det, "source", "none");
    std::map<std::string, std::size_t> status;
    for (const auto& it : its) ++status[text(it, "status")];
    if (source == "markers")
        md += "Iterations: " + plural(its.size(), "NVTX range", "NVTX ranges") + " matching " +
              (text(det, "pattern") == metrics::kDefaultIterationPattern
                   ? std::string("the default iteration pattern (PyTorch, NeMo/Megatron, \"Step N to M\"; "
                                 "`--iterations REGEX` names others)")
                   : codeSpan(text(det, "pattern"))) +
              ", " +
              (text(det, "placement") == "gpu-projection"
                   ? "placed on the GPU where the work launched inside them ran (each iteration runs "
                     "from its first work to the next one's)"
                   : "at their host times (the trace has no launch lines)") +
              ". ";
    else if (source == "detected")
        md += "Iterations: " + plural(its.size(), "repetition", "repetitions") +
              " of the kernel sequence of the first GPU, each beginning with " +
              codeSpan(shortenKernelName(text(det, "anchor"), 60)) + ". ";
    else if (source == "off")
        md += "Iterations were not looked for (`--iterations-from off`). ";
    else
        md += "No iterations found (`--iterations REGEX` names the NVTX ranges that mark them). ";
    if (!its.empty())
        md += std::to_string(status["steady"]) + " steady, " + std::to_string(status["warm-up"]) +
              " warm-up, " + std::to_string(status["outlier"]) +
              " outlier (further from the median duration than 3 robust deviations and 5 %).";
    md += "\n\n";
    for (const auto& n : array(det, "notes")) md += "- " + escapeMarkdown(n.get<std::string>()) + "\n";
    if (!array(det, "notes").empty()) md += "\n";
}

void focus(std::string& md, const json& report) {
    const json& f = sub(report, "focus");
    if (!f.is_object()) return;
    md += "### Focus of analysis: iterations " + formatCount(number(f, "first")) + " to " +
          formatCount(number(f, "last")) + ", the first to the last steady one (" +
          formatDuration(number(f, "duration_ns")) + ")\n\n";
    const json& whole = sub(sub(report, "efficiency"), "nccl_as_communication");
    MarkdownTable t({"Factor (NCCL as communication)", "Whole window", "Focus"}, "lrr");
    for (const auto& k : kEfficiencyFactors)
        t.row({k.label, formatEfficiency(number(whole, k.key)),
               formatEfficiency(number(commEfficiency(f), k.key))});
    t.row({"Overlap share", "", percentOrNa(number(f, "overlap_share"))});
    md += t.str() + "\n";
}

std::string stragglerCell(const json& it) {
    const json& s = sub(it, "straggler");
    if (!s.is_object()) return "n/a";
    return escapeMarkdown(text(s, "device")) + " +" + formatDuration(number(s, "lag_ns"));
}

void iterationTable(std::string& md, const json& report, RenderedReport& out) {
    const json& its = array(report, "iterations");
    if (its.empty()) return;
    bool stragglers = false;
    for (const auto& it : its) stragglers = stragglers || sub(it, "straggler").is_object();
    std::vector<std::string> head = {"#", "Duration", "PE", "LB", "CommE", "OrchE", "Overlap"};
    if (stragglers) head.push_back("Last device (lag)");
    MarkdownTable t(head, "rrrrrrrl");
    std::size_t rows = 0;
    std::string others;
    for (const auto& it : its) {
        if (text(it, "status") != "steady") {
            others += (others.empty() ? "" : ", ") + formatCount(number(it, "index")) + " (" +
                      text(it, "status") + ", " + formatDuration(number(it, "duration_ns")) + ")";
            continue;
        }
        const json& e = commEfficiency(it);
        t.row({formatCount(number(it, "index")), formatDuration(number(it, "duration_ns")),
               formatPercent(number(e, "parallel_efficiency")), formatPercent(number(e, "load_balance")),
               formatPercent(number(e, "communication_efficiency")),
               formatPercent(number(e, "orchestration_efficiency")), percentOrNa(number(it, "overlap_share")),
               stragglers ? stragglerCell(it) : ""});
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
    std::map<std::string, std::pair<std::size_t, double>> last; // device -> (iterations, lag summed)
    for (const auto& it : its)
        if (const json& s = sub(it, "straggler"); s.is_object() && text(it, "status") == "steady") {
            auto& l = last[text(s, "device")];
            ++l.first;
            l.second += number(s, "lag_ns").value_or(0);
        }
    for (const auto& [device, l] : last)
        md += "- " + escapeMarkdown(device) + " ended its useful work last in " + std::to_string(l.first) +
              " of the " + std::to_string(rows) + " steady iterations, " +
              formatDuration(l.second / static_cast<double>(l.first)) +
              " after the first device on average.\n";
    if (!last.empty()) md += "\n";
    std::string chart = svg::iterationEfficiencyChart(report);
    if (!chart.empty()) {
        out.files.emplace_back("plots/iteration_efficiency.svg", chart);
        md += "![Efficiency factors over iterations](plots/iteration_efficiency.svg)\n\n";
    }
}

void phases(std::string& md, const json& report) {
    const json& list = array(report, "phases");
    if (list.empty()) return;
    md +=
        "### Phases\n\nNVTX ranges one level inside the iteration ranges, matched by name (digits masked as "
        "#) over the steady iterations; times summed over them.\n\n";
    MarkdownTable t({"Phase", "Iterations", "Mean", "PE", "LB", "CommE", "OrchE", "Overlap"}, "lrrrrrrr");
    for (const auto& p : list) {
        const json& e = commEfficiency(p);
        // Seven columns of figures leave a phase's name 16 characters a word (a cell wraps at spaces only).
        t.row({escapeMarkdown(shortenForTable(text(p, "name"), 40, 16)), formatCount(number(p, "iterations")),
               formatDuration(number(p, "mean_ns")), formatPercent(number(e, "parallel_efficiency")),
               formatPercent(number(e, "load_balance")), formatPercent(number(e, "communication_efficiency")),
               formatPercent(number(e, "orchestration_efficiency")),
               percentOrNa(number(p, "overlap_share"))});
    }
    md += folded("Phases (" + std::to_string(list.size()) + " rows)", t.str(), list.size());
}

void collectives(std::string& md, const json& report) {
    const json& c = sub(report, "collectives");
    auto matched = number(c, "matched").value_or(0);
    if (matched <= 0) return;
    md += "### Stragglers at collectives\n\nThe k-th instance of an NCCL kernel on each device is one "
          "collective; it waits for the last device to arrive (kernel start).\n\n";
    for (const auto& d : array(c, "devices")) {
        auto last = number(d, "last_count").value_or(0);
        if (last <= 0) continue;
        md += "- " + escapeMarkdown(text(d, "device")) + " arrived last in " +
              formatPercent(number(d, "last_percent").value_or(0) / 100) + " of the " + formatCount(matched) +
              " collectives, making the others wait " + formatDuration(number(d, "wait_caused_ns")) +
              " in total.\n";
    }
    md += "\n";
    MarkdownTable t({"Collective", "#", "Skew", "Last device"}, "lrrl");
    std::size_t rows = 0;
    for (const auto& in : array(c, "instances")) {
        if (rows++ == 5) break;
        t.row({escapeMarkdown(shortenForTable(text(in, "kernel"), 50, 28)),
               formatCount(number(in, "sequence")), formatDuration(number(in, "skew_ns")),
               escapeMarkdown(text(in, "last_device"))});
    }
    md += "Largest arrival skews:\n\n" + t.str() + "\n";
}

std::string groupCell(const json& g) {
    if (!g.is_object()) return "none";
    auto tensor = number(g, "tensor_active_percent");
    return formatCount(number(g, "instances")) + " x " + formatDuration(number(g, "med_ns")) +
           (tensor ? ", tensor active " + formatPercent(*tensor / 100) : "");
}

void kernelOverlap(std::string& md, const json& report) {
    const json& list = array(report, "kernel_overlap");
    bool split = false;
    for (const auto& k : list) split = split || sub(k, "slowdown").is_number();
    if (!split) return; // no kernel ran both during and outside communication: nothing to compare
    md += "### Are all kernels born equal? Overlapped with communication or not\n\nInstances (median "
          "duration) of the top compute kernels, split by whether they ran while communication ran on the "
          "same device; slowdown = median overlapped / median alone.\n\n";
    MarkdownTable t({"Kernel", "Alone", "Overlapped", "Slowdown"}, "lrrr");
    for (const auto& k : list) {
        if (!sub(k, "slowdown").is_number()) continue;
        t.row({escapeMarkdown(shortenForTable(text(k, "name"), 50, 28)), groupCell(sub(k, "alone")),
               groupCell(sub(k, "overlapped")), formatFixed(number(k, "slowdown"), "%.2fx")});
    }
    md += t.str() + "\n";
}

} // namespace

void levelsSection(std::string& md, const json& report, RenderedReport& out) {
    if (!member(report, "iteration_detection")) return; // a report from before the levels of detail
    md += "## Iterations and phases\n\n";
    detection(md, report);
    focus(md, report);
    iterationTable(md, report, out);
    phases(md, report);
    collectives(md, report);
    kernelOverlap(md, report);
}

} // namespace gpueff::reports
