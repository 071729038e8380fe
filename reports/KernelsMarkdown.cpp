// report.md's sections of the kernel families (reports/model/KernelFamilies.h): tensor-core activity per GEMM,
// kernel time by kind of work, the top kernels, their duration modes, and the GPUs' idle gaps.
#include "reports/KernelsMarkdown.h"

#include "reports/MarkdownCells.h"
#include "reports/MarkdownTable.h"
#include "reports/SvgPlot.h"

#include <algorithm>
#include <map>
#include <set>

namespace gpueff::reports {

using namespace detail;
using namespace cells;

namespace {

// A kernel's figure in a table by kernel name, if it has one.
std::optional<double> ofKernel(const std::map<std::string, std::optional<double>>& byKernel,
                               const std::string& kernel) {
    auto it = byKernel.find(kernel);
    return it == byKernel.end() ? std::nullopt : it->second;
}

void tensorCores(std::string& md, const model::Report& m) {
    md += "## Tensor-core use per GEMM kernel\n\n";
    const auto& tc = m.tensorCore;
    if (!tc.available) {
        md += "Not available: " + escapeMarkdown(na(textOf(tc.reason))) + "\n\n";
        return;
    }
    const std::vector<std::string> kernels = tc.kernels ? *tc.kernels : std::vector<std::string>{};
    const model::TensorStats stats = tc.rows ? *tc.rows : model::TensorStats{};
    // A row per GEMM kernel, its statistics over the tasks as columns: a run has tens of GEMM shapes and may
    // have many tasks, either too many columns for a page 900 px wide; the statistics are five.
    auto percent = [](std::optional<double> v) { return fixed(v, "%.2f %%"); };
    MarkdownTable t({"GEMM kernel", "Average", "Maximum", "Minimum", "StDev", "Avg/Max"}, "lrrrrr");
    for (const auto& k : kernels)
        t.row({kernelCell(k), percent(ofKernel(stats.average, k)), percent(ofKernel(stats.maximum, k)),
               percent(ofKernel(stats.minimum, k)), percent(ofKernel(stats.stddev, k)),
               fixed(ofKernel(stats.avgMax, k), "%.2f")});
    MarkdownTable perTask({"Task", "GEMM kernel", "Tensor active"}, "llr");
    if (tc.tasks)
        for (const auto& task : *tc.tasks)
            for (const auto& k : kernels)
                perTask.row({"Task " + count(value(task.task)) + " (" +
                                 escapeMarkdown(na(m.deviceLabel(task.device))) + ")",
                             kernelCell(k), percent(ofKernel(task.tensorActivePercent, k))});
    md += "Time-weighted mean of \"" + escapeMarkdown(na(textOf(tc.metric))) +
          "\" during each GEMM kernel's executions, over the tasks:\n\n" +
          (kernels.empty() ? "n/a\n" : t.str()) + "\n";
    if (!kernels.empty() && !perTask.empty())
        md += "<details><summary>Per task</summary>\n\n" + perTask.str() + "\n</details>\n\n";
    // Names are shortened to keep the tables readable; GEMM names differ only in their tails.
    bool shortened = std::any_of(kernels.begin(), kernels.end(),
                                 [](const std::string& k) { return kernelCell(k) != escapeMarkdown(k); });
    if (shortened) {
        md += "<details><summary>Full kernel names</summary>\n\n";
        for (const auto& k : kernels) md += "- " + escapeMarkdown(k) + "\n";
        md += "\n</details>\n\n";
    }
}

void categories(std::string& md, const model::Report& m, RenderedReport& out) {
    if (!m.kernelCategories || m.kernelCategories->empty()) return;
    const auto& list = *m.kernelCategories;
    md += "## Where the GPU time went\n\n";
    double total = 0;
    for (const auto& c : list) total += static_cast<double>(c.timeNs);
    MarkdownTable t({"Kind of work", "Time", "Share", "Instances"}, "lrrr");
    for (const auto& c : list)
        t.row({escapeMarkdown(c.category), formatDuration(value(c.timeNs)),
               total > 0 ? formatPercent(static_cast<double>(c.timeNs) / total) : "n/a",
               count(value(c.instances))});
    md += "Kernels by the patterns of their names (docs/report.md; sum of durations, whole trace) and memory "
          "operations (union per device in the window):\n\n" +
          t.str() + "\n";
    std::string chart = svg::kernelCategoryChart(m);
    if (!chart.empty()) {
        out.files.emplace_back("plots/kernel_categories.svg", chart);
        md += "![GPU time by kind of work](plots/kernel_categories.svg)\n\n";
    }
}

void topKernels(std::string& md, const model::Report& m) {
    md += "## Top kernels\n\n";
    std::vector<const model::KernelRow*> rows;
    for (const auto& r : m.kernelSummary.overall) rows.push_back(&r);
    std::stable_sort(rows.begin(), rows.end(), [](const model::KernelRow* a, const model::KernelRow* b) {
        return static_cast<double>(a->totalNs) > static_cast<double>(b->totalNs);
    });
    // time_percent is a percentage as in nsys stats; a document that stores fractions sums to 1, not 100.
    double sum = 0;
    for (const auto* r : rows) sum += model::finite(r->timePercent).value_or(0);
    double scale = sum > 0 && sum <= 1.5 ? 1.0 : 0.01;
    // Five narrow columns of figures leave a name 36 characters of a page 900 px wide (GitHub); the median,
    // with the rest of the spread, is in the duration distribution below.
    MarkdownTable t({"#", "Kernel", "Time %", "Total", "Count", "Avg"}, "rlrrrr");
    for (std::size_t i = 0; i < rows.size() && i < kTopKernels; ++i) {
        const auto& r = *rows[i];
        auto share = model::finite(r.timePercent);
        t.row({std::to_string(i + 1), kernelCell(r.name),
               formatPercent(share ? std::optional(*share * scale) : std::nullopt),
               formatDuration(value(r.totalNs)), count(value(r.instances)),
               formatDuration(model::finite(r.avgNs))});
    }
    md += t.empty() ? std::string("n/a\n\n")
                    : "As `nsys stats -r cuda_gpu_kern_sum`, whole trace (not clipped to the window); " +
                          std::to_string(std::min(rows.size(), kTopKernels)) + " of " +
                          std::to_string(rows.size()) +
                          " kernel names (median, minimum, maximum and standard deviation in report.json; "
                          "the spread in the duration distribution below):\n\n" +
                          t.str() + "\n";
    // Shortened names of template-heavy kernels can coincide; the full names stay one click away.
    if (!t.empty()) {
        md += "<details><summary>Full kernel names</summary>\n\n";
        for (std::size_t i = 0; i < rows.size() && i < kTopKernels; ++i)
            md += std::to_string(i + 1) + ". " + escapeMarkdown(na(rows[i]->name)) + "\n";
        md += "\n</details>\n\n";
    }
}

void durations(std::string& md, const model::Report& m) {
    // Optional part: no section rather than an empty one.
    if (!m.kernelDurations || m.kernelDurations->empty()) return;
    const auto& list = *m.kernelDurations;
    md += "### Duration distribution\n\n";
    MarkdownTable t({"Kernel", "Instances", "Modes", "Range"}, "lrrr");
    for (std::size_t i = 0; i < list.size() && i < kTopKernels; ++i) {
        const auto& d = list[i];
        std::string modes;
        for (std::size_t k = 0; k < d.modesNs.size() && k < 3; ++k)
            modes += (k ? ", " : "") + formatDuration(value(d.modesNs[k]));
        if (d.modesNs.size() > 3) modes += ", \xE2\x80\xA6";
        std::string range = d.bins.empty() ? "n/a"
                                           : formatDuration(value(d.bins.front().lowerNs)) + " - " +
                                                 formatDuration(value(d.bins.back().upperNs));
        t.row({kernelCell(d.name), count(value(d.instances)), modes.empty() ? "n/a" : modes, range});
    }
    md +=
        "Are all instances of a kernel alike? Several modes mean several kinds of calls under one name.\n\n" +
        t.str() + "\n";
}

void gaps(std::string& md, const model::Report& m, RenderedReport& out) {
    md += "## GPU idle gaps\n\n" + launchCoverage(m);
    // Each cause's idle time and its count of gaps in one column (it wraps between the two): seven columns
    // would not fit a page 900 px wide (GitHub).
    MarkdownTable t({"Device", "Gaps", "Idle in gaps", "Host-wait", "Kernel-wait"}, "lrrrr");
    for (const auto& g : m.gaps)
        t.row({escapeMarkdown(na(m.deviceLabel(g.device))), count(value(g.count)),
               formatDuration(value(g.totalNs)),
               formatDuration(value(g.hostWaitNs)) + " (" + count(value(g.hostWaitCount)) + ")",
               formatDuration(value(g.kernelWaitNs)) + " (" + count(value(g.kernelWaitCount)) + ")"});
    md += t.empty()
              ? std::string("n/a\n\n")
              : t.str() + "\nHost-wait and kernel-wait: the idle time in gaps of each cause (their count). "
                          "Host-wait: the launch call of the next activity started after the gap began "
                          "(the host was late); kernel-wait: launched in time, the GPU still idle.\n\n";
    std::string chart = svg::gapHistogramChart(m);
    if (!chart.empty()) {
        out.files.emplace_back("plots/gap_durations.svg", chart);
        md += "![GPU idle time by gap duration](plots/gap_durations.svg)\n\n";
    }
}

} // namespace

void tensorCoreSection(std::string& md, const model::Report& m) {
    tensorCores(md, m);
}

void kernelSections(std::string& md, const model::Report& m, RenderedReport& out) {
    categories(md, m, out);
    topKernels(md, m);
    durations(md, m);
}

void gapSection(std::string& md, const model::Report& m, RenderedReport& out) {
    gaps(md, m, out);
}

} // namespace gpueff::reports
