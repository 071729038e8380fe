// The "nsys stats summaries" section of report.md from the report's nsys_stats (docs/report.md): NVTX
// ranges, CUDA API calls and GPU memory operations by time and by size, as `nsys stats` prints them but
// narrower (the spread of each row folded under its table, names shortened) and with long tables folded.
#include "reports/NsysStatsMarkdown.h"

#include "reports/MarkdownCells.h"
#include "reports/MarkdownTable.h"
#include "reports/ReportMarkdown.h"

#include <cmath>
#include <cstdio>
#include <iterator>
#include <type_traits>

namespace gpueff::reports {

using namespace detail;
using cells::value;

namespace {

constexpr std::size_t kFoldRows = 12, kMaxRows = 50, kNameLength = 60, kNameWord = 28;

// Bytes in decimal units, as nsys' MB (10^6 bytes).
std::string formatBytes(std::optional<double> bytes) {
    if (!bytes) return "n/a";
    const char* units[] = {"B", "kB", "MB", "GB", "TB"};
    double v = *bytes;
    std::size_t u = 0;
    while (std::fabs(v) >= 1000 && u + 1 < std::size(units)) v /= 1000, ++u;
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, u == 0 ? "%.0f %s" : "%.3f %s", v, units[u]);
    return buffer;
}

std::string percentCell(const model::KernelRow& r) {
    auto p = model::finite(r.timePercent);
    return formatPercent(p ? std::optional(*p / 100) : std::nullopt);
}

// The row's name as nsys prints it ("domain:text" for NVTX ranges).
std::string fullName(const model::KernelRow& r) {
    return r.name;
}
std::string fullName(const model::MemorySizeRow& r) {
    return r.name;
}
std::string fullName(const model::NvtxRow& r) {
    return r.domain.empty() || r.name.empty() ? r.name : r.domain + ":" + r.name;
}

template <class Row>
std::string nameCell(const Row& r) {
    auto name = fullName(r);
    if (name.empty()) return "n/a";
    auto cell = escapeMarkdown(shortenForTable(name, kNameLength, kNameWord));
    if constexpr (std::is_same_v<Row, model::NvtxRow>)
        if (r.style == "StartEnd") return cell + " *(start/end)*";
    return cell;
}

// A table with the spread of its rows (minimum, maximum, standard deviation) folded under it: nsys stats'
// eight columns do not fit a page 900 px wide (GitHub) beside a name. Then, folded, the full names of the
// rows whose name the table shortens.
std::string withSpread(const MarkdownTable& main, const MarkdownTable& spread, const std::string& fullNames) {
    return main.str() + "\n<details><summary>Minimum, maximum and standard deviation</summary>\n\n" +
           spread.str() + "\n</details>\n" +
           (fullNames.empty()
                ? ""
                : "\n<details><summary>Full names</summary>\n\n" + fullNames + "\n</details>\n");
}

// "- name" for a row whose name is shortened in the tables, else "".
template <class Row>
std::string fullNameLine(const Row& r) {
    auto name = fullName(r);
    return shortenForTable(name, kNameLength, kNameWord) == name ? "" : "- " + escapeMarkdown(name) + "\n";
}

// One table of duration rows (nvtx_sum, cuda_api_sum, gpu_mem_time_sum), at most kMaxRows, folded when long.
template <class Row>
void durationTable(std::string& md, const std::vector<Row>& rows, const char* what, const char* count,
                   const std::string& intro, std::size_t leftOut) {
    MarkdownTable t({what, "Time %", "Total", count, "Avg", "Med"}, "lrrrrr");
    MarkdownTable spread({what, "Min", "Max", "StdDev"}, "lrrr");
    std::string fullNames;
    for (std::size_t i = 0; i < rows.size() && i < kMaxRows; ++i) {
        const Row& r = rows[i];
        fullNames += fullNameLine(r);
        t.row({nameCell(r), percentCell(r), formatDuration(value(r.totalNs)), formatCount(value(r.instances)),
               formatDuration(model::finite(r.avgNs)), formatDuration(model::finite(r.medNs))});
        spread.row({nameCell(r), formatDuration(value(r.minNs)), formatDuration(value(r.maxNs)),
                    formatDuration(model::finite(r.stddevNs))});
    }
    if (t.empty()) {
        md += intro + ": none in the trace.\n\n";
        return;
    }
    std::string table = withSpread(t, spread, fullNames);
    if (rows.size() > kMaxRows)
        table += "\n" + std::to_string(rows.size() - kMaxRows) + " more rows in report.json.\n";
    if (leftOut)
        table += "\n" + std::to_string(leftOut) +
                 " rows with less time are left out of report.json too (see Notes).\n";
    md += intro + ":\n\n";
    md += rows.size() <= kFoldRows ? table + "\n"
                                   : "<details><summary>" + std::to_string(rows.size() + leftOut) +
                                         " rows</summary>\n\n" + table + "\n</details>\n\n";
}

void sizeTable(std::string& md, const std::vector<model::MemorySizeRow>& rows) {
    MarkdownTable t({"Operation", "Total", "Count", "Avg", "Med", "Bandwidth"}, "lrrrrr");
    MarkdownTable spread({"Operation", "Min", "Max", "StdDev"}, "lrrr");
    for (const auto& r : rows) {
        auto bandwidth = model::finite(r.bandwidthGbps);
        t.row({nameCell(r), formatBytes(value(r.totalBytes)), formatCount(value(r.instances)),
               formatBytes(model::finite(r.avgBytes)), formatBytes(model::finite(r.medBytes)),
               formatFixed(bandwidth, "%.2f GB/s")});
        spread.row({nameCell(r), formatBytes(value(r.minBytes)), formatBytes(value(r.maxBytes)),
                    formatBytes(model::finite(r.stddevBytes))});
    }
    md += "GPU memory operations by size (`cuda_gpu_mem_size_sum`; 1 MB = 10^6 bytes, as nsys; bandwidth = "
          "bytes over time, both summed over the operations)" +
          std::string(t.empty() ? ": none in the trace.\n\n" : ":\n\n" + withSpread(t, spread, "") + "\n");
}

} // namespace

void nsysStatsSection(std::string& md, const model::Report& report) {
    if (!report.nsysStats) return; // a report written before nsys_stats existed: no section, not an empty one
    const model::NsysStats& stats = *report.nsysStats;
    md += "## nsys stats summaries\n\n";
    md += "As `nsys stats` reports them, from the trace's records over the whole trace (not clipped to the "
          "window); rows by total time.\n\n";
    auto rowsLeftOut = [](const model::Omitted<model::RowsLeftOut>& of) {
        return of && of->rows > 0 ? static_cast<std::size_t>(of->rows) : std::size_t{0};
    };
    const model::NsysStats::LeftOut none;
    const auto& left = stats.leftOut ? *stats.leftOut : none;
    durationTable(md, stats.nvtxSum, "Range", "Instances",
                  "NVTX ranges (`nvtx_sum`; push/pop unless marked start/end)", rowsLeftOut(left.nvtxSum));
    durationTable(md, stats.cudaApiSum, "API call", "Calls", "CUDA API calls (`cuda_api_sum`)",
                  rowsLeftOut(left.cudaApiSum));
    durationTable(md, stats.gpuMemTimeSum, "Operation", "Count",
                  "GPU memory operations by time (`cuda_gpu_mem_time_sum`)", 0);
    sizeTable(md, stats.gpuMemSizeSum);
}

} // namespace gpueff::reports
