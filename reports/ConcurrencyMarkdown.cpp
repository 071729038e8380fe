// report.md's sections of the concurrency families (reports/model/ConcurrencyFamilies.h): kernels in flight
// and queued, the overlap of communication with other work, and the overlap per NCCL kernel.
#include "reports/ConcurrencyMarkdown.h"

#include "reports/CountBins.h"
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

// One device's row of a histogram table: the time at each count, and the mean and maximum when the report
// gives them (else they follow from the histogram).
struct HistogramRow {
    std::string device;
    const model::NsByCount& times;
    std::optional<double> mean, maximum;
};

// Per-device histograms of time as % of each device's total.
void histogramTable(std::string& md, const model::Report& m, const std::vector<HistogramRow>& rows,
                    const char* what) {
    std::set<long long> keys;
    for (const auto& e : rows)
        for (const auto& [k, v] : e.times) keys.insert(k);
    const auto columns = countBins(keys); // the bins of the charts too
    std::vector<std::string> head{"Device"};
    for (const auto& c : columns) head.push_back(c.label());
    head.insert(head.end(), {"Mean", "Max"});
    MarkdownTable t(head, "l" + std::string(columns.size() + 2, 'r'));
    for (const auto& e : rows) {
        double total = 0;
        for (const auto& [k, v] : e.times) total += static_cast<double>(v);
        std::vector<std::string> row{escapeMarkdown(na(m.deviceLabel(e.device)))};
        for (const auto& c : columns) {
            double in = 0;
            for (const auto& [k, v] : e.times)
                if (c.contains(k)) in += static_cast<double>(v);
            row.push_back(total > 0 ? formatPercent(in / total) : "n/a");
        }
        auto mean = e.mean, maximum = e.maximum;
        if (!mean && total > 0) {
            double weighted = 0;
            for (const auto& [k, v] : e.times) weighted += static_cast<double>(k) * static_cast<double>(v);
            mean = weighted / total;
        }
        for (const auto& [k, v] : e.times)
            if (!e.maximum && v > 0) maximum = static_cast<double>(k);
        row.push_back(fixed(mean, "%.2f"));
        row.push_back(count(maximum));
        t.row(row);
    }
    md += t.empty() ? std::string("n/a\n\n")
                    : "Share of the window with k " + std::string(what) + ":\n\n" + t.str() + "\n";
}

void kernelsInFlight(std::string& md, const model::Report& m, RenderedReport& out) {
    md += "## Kernels in flight\n\n";
    std::vector<HistogramRow> kernels, withMemory;
    for (const auto& e : m.kernelsInFlight) {
        kernels.push_back({e.device, e.timeNsByCount, finite(e.mean), value(e.maximum)});
        withMemory.push_back({e.device, e.withMemoryTimeNsByCount, std::nullopt, std::nullopt});
    }
    histogramTable(md, m, kernels, "kernels (compute + NCCL + graph launches) executing");
    if (!withMemory.empty()) histogramTable(md, m, withMemory, "kernels and memory operations executing");
    std::string chart = svg::kernelsInFlightChart(m);
    if (!chart.empty()) {
        out.files.emplace_back("plots/kernels_in_flight.svg", chart);
        md += "![Kernels in flight](plots/kernels_in_flight.svg)\n\n";
    }
    chart = svg::inFlightTimelineChart(m);
    if (!chart.empty()) {
        out.files.emplace_back("plots/kernels_in_flight_timeline.svg", chart);
        md += "![Kernels in flight over time](plots/kernels_in_flight_timeline.svg)\n\n";
    }
    md += "## Kernels queued\n\n" + launchCoverage(m);
    if ((!m.kernelsQueued || m.kernelsQueued->empty()) && !m.devices.empty()) {
        md += "n/a: not computed for this trace (why: see Notes).\n\n";
    } else {
        std::vector<HistogramRow> queued;
        if (m.kernelsQueued)
            for (const auto& e : *m.kernelsQueued)
                queued.push_back({e.device, e.timeNsByDepth, finite(e.mean), value(e.maximum)});
        histogramTable(md, m, queued, "kernels launched but not yet started");
    }
}

std::string statCell(const std::string& row, std::optional<double> v) {
    return row == "Avg/Max" ? fixed(v, "%.2f") : formatPercent(v);
}

// The fraction at `level` of a view of the overlap, none when the report has none or null there.
std::optional<double> fractionAt(const std::map<std::int64_t, double>& fractions, std::int64_t level) {
    auto it = fractions.find(level);
    return it == fractions.end() ? std::nullopt : finite(it->second);
}

// One of the two views of the overlap (of communication, of the window): a row per device, then the
// statistics rows of overlap_table at their columns.
void overlapView(std::string& md, const model::Report& m, const std::set<long long>& levels, bool ofComm) {
    std::vector<std::string> head{"Device"};
    for (auto l : levels) head.push_back(std::to_string(l));
    MarkdownTable t(head, "l" + std::string(levels.size(), 'r'));
    const auto window = static_cast<double>(m.window.durationNs);
    for (const auto& e : m.overlap) {
        const auto& given = ofComm ? e.fractionOfCommunication : e.fractionOfWindow;
        const double denominator = ofComm ? static_cast<double>(e.communicationNs) : window;
        std::vector<std::string> row{escapeMarkdown(na(m.deviceLabel(e.device)))};
        for (auto l : levels) {
            auto v = fractionAt(given, l);
            if (!v && denominator > 0) {
                auto it = e.timeNsByConcurrency.find(l);
                v = (it == e.timeNsByConcurrency.end() ? 0.0 : static_cast<double>(it->second)) / denominator;
            }
            row.push_back(formatPercent(v));
        }
        t.row(row);
    }
    if (m.overlapTable) {
        const auto& table = *m.overlapTable;
        const auto& stats = ofComm ? table.fractionOfCommunication : table.fractionOfWindow;
        const std::pair<const char*, const model::OverlapRows::Row*> named[] = {
            {"Total", &stats.total},     {"Average", &stats.average}, {"Maximum", &stats.maximum},
            {"Minimum", &stats.minimum}, {"StDev", &stats.stddev},    {"Avg/Max", &stats.avgMax}};
        for (const auto& [name, values] : named) {
            if (values->empty()) continue;
            std::vector<std::string> row{std::string("**") + escapeMarkdown(name) + "**"};
            for (auto l : levels) {
                auto at = std::find(table.concurrency.begin(), table.concurrency.end(), l);
                auto i = static_cast<std::size_t>(at - table.concurrency.begin());
                row.push_back(at != table.concurrency.end() && i < values->size()
                                  ? statCell(name, finite((*values)[i]))
                                  : "n/a");
            }
            t.row(row);
        }
    }
    md += std::string("### ") + (ofComm ? "Share of communication time" : "Share of window time") + "\n\n" +
          (t.empty() ? "n/a\n\n" : t.str() + "\n");
}

void overlapTables(std::string& md, const model::Report& m, RenderedReport& out) {
    md += "## Communication / computation overlap\n\n";
    std::set<long long> levels;
    if (m.overlapTable) levels.insert(m.overlapTable->concurrency.begin(), m.overlapTable->concurrency.end());
    for (const auto& e : m.overlap)
        for (const auto& [k, v] : e.timeNsByConcurrency) levels.insert(k);
    if (levels.empty()) {
        md += "No communication (NCCL kernel or memory operation) ran in the window.\n\n";
        return;
    }
    if (*levels.rbegin() <= 1) {
        // Every communication ran alone: tables of one column "1" at 100 % say nothing more.
        double total = 0;
        for (const auto& e : m.overlap) total += static_cast<double>(e.communicationNs);
        md += "No communication overlapped computation: the " + formatDuration(total) +
              " of communication (NCCL kernels and memory operations, summed over devices) all ran while "
              "no kernel computed on the same device.\n\n";
        return;
    }
    overlapView(md, m, levels, true);
    overlapView(md, m, levels, false);
    md +=
        "Columns: activities running at once while communication (NCCL kernel or memory operation) runs; 1 = "
        "communication alone (no overlap).\n\n";
    std::string chart = svg::overlapChart(m);
    if (!chart.empty()) {
        out.files.emplace_back("plots/overlap.svg", chart);
        md += "![Overlap](plots/overlap.svg)\n\n";
    }
}

void ncclOverlap(std::string& md, const model::Report& m) {
    if (!m.ncclOverlap) return;
    const auto& rows = *m.ncclOverlap;
    bool any = std::any_of(rows.begin(), rows.end(), [](const auto& r) { return r.overlappedNs > 0; });
    if (!any) return; // no NCCL kernel, or the overlap section already says nothing overlapped
    md += "### Overlap per NCCL kernel\n\n";
    // The overlapped time and its share in one column, which wraps between the two: a column fewer leaves
    // the kernel's name room on a page 900 px wide.
    MarkdownTable t({"Device", "NCCL kernel", "Instances", "Time", "Overlapped"}, "llrrr");
    for (std::size_t i = 0; i < rows.size() && i < kMaxDetailRows; ++i) {
        const auto& r = rows[i];
        t.row({escapeMarkdown(na(m.deviceLabel(r.device))), kernelCell(r.kernel), count(value(r.instances)),
               formatDuration(value(r.timeNs)),
               formatDuration(value(r.overlappedNs)) + " (" +
                   formatPercent(finite(r.overlappedFraction)) + ")"});
    }
    md += t.empty() ? std::string("n/a\n\n") : t.str() + "\n";
    if (rows.size() > kMaxDetailRows)
        md += std::to_string(rows.size() - kMaxDetailRows) + " more rows in report.json.\n\n";
}

} // namespace

void concurrencySections(std::string& md, const model::Report& m, RenderedReport& out) {
    kernelsInFlight(md, m, out);
    overlapTables(md, m, out);
    ncclOverlap(md, m);
}

} // namespace gpueff::reports
