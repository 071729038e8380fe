#include "reports/CompareSplit.h"

#include "reports/CompareFigures.h"
#include "reports/MarkdownTable.h"
#include "reports/ReportMarkdown.h"
#include "reports/SvgCompare.h"
#include "reports/SvgFrame.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpueff::reports::compare {

using nlohmann::json;

namespace {

// A figure's value as a cell, and its change against the reference ("" for the reference itself).
std::pair<std::string, std::string> figureCell(const FigureComparison& f, bool isReference) {
    const auto kind = f.figure->kind;
    std::string value = !f.run                      ? "n/a"
                        : kind == FigureKind::Time  ? formatDuration(*f.run)
                        : kind == FigureKind::Ratio ? formatFixed(*f.run, "%.2fx")
                                                    : formatPercent(*f.run);
    if (isReference || !f.change()) return {value, ""};
    std::string change = kind == FigureKind::Time
                             ? signedDuration(*f.change()) + formatFixed(*f.relativeChange(), ", %+.1f %%")
                         : kind == FigureKind::Ratio ? formatFixed(*f.change(), "%+.2f")
                                                     : formatFixed(*f.change() * 100, "%+.2f pp");
    // Beyond the noise: marked, so that a reader sees which changes are real.
    if (f.significant() == true) change += " \xE2\x80\xA0"; // dagger
    return {value, change};
}

std::vector<std::string> labelsOf(const Comparing& c) {
    std::vector<std::string> out;
    for (const auto& u : c.units) out.push_back(u.label);
    return out;
}

const char* kSplitKeys[] = {"useful_ns", "load_balance_ns", "communication_ns", "orchestration_ns"};
const char* kSplitTitles[] = {"Useful work", "&emsp;Load balance loss", "&emsp;Communication loss",
                              "&emsp;Orchestration loss"};

std::array<double, 4> parts(const metrics::pop::DeviceTimeSplit<double>& s) {
    return {s.useful, s.loadBalance, s.communication, s.orchestration};
}

} // namespace

std::string runColumns(
    const char* first, const std::vector<std::string>& labels,
    const std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>>& rows) {
    detail::MarkdownTable t(runHeader(first, labels), "l" + std::string(labels.size(), 'r'));
    const bool stacked = labels.size() > kInlineRuns;
    for (const auto& [title, cells] : rows) {
        std::vector<std::string> row{title};
        for (const auto& [value, change] : cells)
            row.push_back(change.empty() ? value
                                         : value + (stacked ? "<br>" : " (") + change + (stacked ? "" : ")"));
        t.row(row);
    }
    return t.str();
}

void comparativeSection(const Comparing& c, std::string& md, json& out) {
    const RunUnit& R = c.units[c.reference];
    using Rows = std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>>;
    Rows rows[1 + kConventionCount]; // the figures of both conventions, then each convention's
    json runs = json::array();
    for (std::size_t r = 0; r < c.units.size(); ++r)
        runs.push_back({{"run", c.units[r].label}, {"figures", json::object()}});
    for (std::size_t conv = 0; conv < kConventionCount; ++conv)
        for (const auto& figure : comparedFigures()) {
            if (conv == 1 && !figure.perConvention) continue;
            std::string title = figure.key == std::string("iteration_time")
                                    ? std::string("Time ") + unitName(R.perIteration)
                                    : figure.label;
            auto& row = rows[figure.perConvention ? 1 + conv : 0].emplace_back(
                title, std::vector<std::pair<std::string, std::string>>{});
            for (std::size_t r = 0; r < c.units.size(); ++r) {
                auto f = compareFigure(figure, c.units[r], R, conv, c.weak);
                row.second.push_back(figureCell(f, r == c.reference));
                json jf = {{"value", orNull(f.run)},
                           {"reference", orNull(f.reference)},
                           {"change", orNull(f.change())},
                           {"relative_change_percent", orNull(f.relativeChange())},
                           {"interval", f.shift ? json::array({f.shift->low, f.shift->high}) : json(nullptr)},
                           {"significant", orNull(f.significant())}};
                auto& slot = runs[r]["figures"][figure.key];
                if (figure.perConvention)
                    slot[kConventions[conv].key] = std::move(jf);
                else
                    slot = std::move(jf);
            }
        }
    out["comparative"] = {{"reference", R.label},
                          {"unit", R.perIteration ? "iteration" : "window"},
                          {"weak", c.weak},
                          {"runs", std::move(runs)}};
    md +=
        "## Comparative factors\n\nEvery run against \"" + escapeMarkdown(R.label) + "\", " +
        unitName(R.perIteration) +
        ": speedup = T(ref) / T(run); computational efficiency = useful time summed over the devices (ref) / "
        "(run)" +
        (c.weak ? " x n(run) / n(ref) (weak scaling)" : "") +
        "; global efficiency = parallel efficiency x computational efficiency. \xE2\x80\xA0: beyond "
        "run-to-run "
        "noise (the 95 % interval of the per-iteration shift does not hold 0).\n\n" +
        runColumns("Figure", labelsOf(c), rows[0]) + "\n";
    for (std::size_t conv = 0; conv < kConventionCount; ++conv)
        md += std::string("### ") + kConventions[conv].title + "\n\n" +
              runColumns("Factor", labelsOf(c), rows[1 + conv]) + "\n";
}

void timeSplitSection(const Comparing& c, std::string& md, json& out, Files& files) {
    const RunUnit& R = c.units[c.reference];
    const char* per = unitName(R.perIteration);
    json jruns = json::array();
    std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>> rows;
    rows.emplace_back("Device time (n x T)", std::vector<std::pair<std::string, std::string>>{});
    for (const auto* title : kSplitTitles)
        rows.emplace_back(title, std::vector<std::pair<std::string, std::string>>{});
    for (std::size_t r = 0; r < c.units.size(); ++r) {
        const RunUnit& u = c.units[r];
        const auto a = parts(R.split[0]), b = parts(u.split[0]);
        const bool ref = r == c.reference;
        rows[0].second.emplace_back(formatDuration(u.split[0].total()),
                                    ref ? "" : signedDuration(u.split[0].total() - R.split[0].total()));
        json jr = {{"run", u.label}};
        for (std::size_t conv = 0; conv < kConventionCount; ++conv) {
            const auto x = parts(R.split[conv]), y = parts(u.split[conv]);
            json jc = {{"device_time_ns", u.split[conv].total()},
                       {"difference_ns", u.split[conv].total() - R.split[conv].total()}};
            for (std::size_t p = 0; p < 4; ++p)
                jc["parts"][kSplitKeys[p]] = {
                    {"run", y[p]}, {"reference", x[p]}, {"difference", y[p] - x[p]}};
            jr[kConventions[conv].key] = std::move(jc);
        }
        for (std::size_t p = 0; p < 4; ++p)
            rows[p + 1].second.emplace_back(formatDuration(b[p]), ref ? "" : signedDuration(b[p] - a[p]));
        jruns.push_back(std::move(jr));
    }
    out["time_split"] = {{"reference", R.label},
                         {"unit", R.perIteration ? "iteration" : "window"},
                         {"runs", std::move(jruns)}};
    md += std::string("## Where the time went\n\nDevice time ") + per +
          " (devices x time) split the POP way (NCCL as communication): useful work, and what load balance, "
          "communication and orchestration lose; the differences from \"" +
          escapeMarkdown(R.label) + "\" add up to the difference of the device time.\n\n" +
          runColumns("", labelsOf(c), rows) + "\n";
    std::vector<std::string> labels = labelsOf(c);
    std::vector<std::array<double, 5>> bars; // total, then the four parts, per run
    for (const auto& u : c.units) {
        auto p = parts(u.split[0]);
        bars.push_back({u.split[0].total(), p[0], p[1], p[2], p[3]});
    }
    addPlot(kTimeSplitPlotFile, std::string("Where the time went, ") + per,
            {"reference's device time", "more time", "less time"},
            svg::timeSplitWaterfall(labels, bars, c.reference, per), files, out, md);
}

void perUnitSection(const Comparing& c, std::string& md, json& out) {
    const RunUnit& R = c.units[c.reference];
    struct Row {
        const char* key;
        const char* title;
        double (*of)(const RunUnit&);
        bool count;
    };
    static const Row kRows[] = {
        {"time_ns", "Time", [](const RunUnit& u) { return u.timeNs; }, false},
        {"useful_ns", "Useful, summed over devices", [](const RunUnit& u) { return u.split[0].useful; },
         false},
        {"communication_ns", "Communication, summed over devices",
         [](const RunUnit& u) { return u.communicationSum[0]; }, false},
        {"idle_ns", "Idle, summed over devices", [](const RunUnit& u) { return u.idleSum[0]; }, false},
        {"kernel_ns", "Kernel time", [](const RunUnit& u) { return u.work.kernelNs; }, false},
        {"nccl_kernel_ns", "&emsp;NCCL kernels", [](const RunUnit& u) { return u.work.ncclKernelNs; }, false},
        {"gaps", "GPU idle gaps", [](const RunUnit& u) { return u.work.gaps; }, true},
        {"gap_ns", "Idle in gaps", [](const RunUnit& u) { return u.work.gapNs; }, false},
        {"host_wait_ns", "&emsp;Host-wait time", [](const RunUnit& u) { return u.work.hostWaitNs; }, false},
        {"kernel_wait_ns", "&emsp;Kernel-wait time", [](const RunUnit& u) { return u.work.kernelWaitNs; },
         false},
        {"blocking_ns", "Blocking CUDA calls, summed over tasks",
         [](const RunUnit& u) { return u.work.blockingNs; }, false},
    };
    std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>> rows;
    json jruns = json::array();
    for (const auto& u : c.units) jruns.push_back({{"run", u.label}, {"window_units", u.windowUnits}});
    for (const auto& row : kRows) {
        auto& cells = rows.emplace_back(row.title, std::vector<std::pair<std::string, std::string>>{}).second;
        for (std::size_t r = 0; r < c.units.size(); ++r) {
            double v = row.of(c.units[r]), d = v - row.of(R);
            cells.emplace_back(row.count ? formatFixed(v, "%.1f") : formatDuration(v),
                               r == c.reference ? ""
                               : row.count      ? formatFixed(d, "%+.1f")
                                                : signedDuration(d));
            jruns[r][row.key] = v;
        }
    }
    out["per_unit"] = {{"unit", R.perIteration ? "iteration" : "window"}, {"runs", std::move(jruns)}};
    md += std::string("## Work ") + unitName(R.perIteration) +
          "\n\nThe figures that grow with the amount of work, " + unitName(R.perIteration) +
          (R.perIteration
               ? ": the device states over the steady iterations, and the window's kernels, gaps and "
                 "host calls divided by the iterations the window holds (window / mean steady "
                 "iteration). NCCL as communication."
               : ": each run's window. NCCL as communication.") +
          "\n\n" + runColumns("", labelsOf(c), rows) + "\n";
}

} // namespace gpueff::reports::compare
