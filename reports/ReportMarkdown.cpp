#include "reports/ReportMarkdown.h"

#include "reports/CountBins.h"
#include "reports/DeviceLabel.h"
#include "reports/ExecutiveSummary.h"
#include "reports/HtaMarkdown.h"
#include "reports/LevelsMarkdown.h"
#include "reports/MarkdownTable.h"
#include "reports/NsysStatsMarkdown.h"
#include "reports/SvgPlot.h"
#include "reports/model/ReportIo.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <set>

namespace gpueff::reports {

using namespace detail;

namespace {

constexpr const char* kSchema = "gpueff-report/1";
constexpr std::size_t kTopKernels = 15, kMaxDetailRows = 50;
// A kernel name in a table of figures, at most this long and its words (shortenForTable) at most
// kKernelCellWord characters; the full names are listed under the tables that shorten them.
constexpr std::size_t kKernelCellChars = 60, kKernelCellWord = 36;

std::string na(const std::string& s) {
    return s.empty() ? "n/a" : s;
}
std::string count(std::optional<double> v) {
    return formatCount(v);
}
std::string fixed(std::optional<double> v, const char* format) {
    return formatFixed(v, format);
}
std::string kernelCell(const std::string& name, std::size_t max = kKernelCellChars) {
    return name.empty() ? "n/a" : escapeMarkdown(shortenForTable(name, max, kKernelCellWord));
}
// Integers and optional integers of the model as the formatters take them.
std::optional<double> value(std::int64_t v) {
    return static_cast<double>(v);
}
template <class T>
std::optional<double> value(const std::optional<T>& v) {
    return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
}
template <class T>
std::optional<double> value(const model::Omitted<T>& v) {
    if constexpr (requires { v->has_value(); })
        return v ? value(*v) : std::nullopt;
    else
        return v ? value(std::optional<T>(*v)) : std::nullopt;
}
// A double of the model as the formatters take it: none when not finite (null in report.json).
std::optional<double> finiteValue(double v) {
    return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}
std::optional<double> finiteValue(const std::optional<double>& v) {
    return v ? finiteValue(*v) : std::nullopt;
}
std::string textOf(const model::Omitted<std::string>& v) {
    return v ? *v : std::string();
}

void header(std::string& md, const model::Report& m) {
    md += "# GPU efficiency report\n\n";
    const std::string& schema = m.schema;
    if (schema != kSchema)
        md += "> **Warning:** schema is \"" + escapeMarkdown(na(schema)) + "\", this renderer expects \"" +
              kSchema + "\"; parts may be missing or misread.\n\n";
    const model::TraceFiles trace = m.trace ? *m.trace : model::TraceFiles{};
    md += "Produced by " + escapeMarkdown(na(m.tool.name)) + " " + escapeMarkdown(na(m.tool.version)) +
          ". Paraver trace: " + escapeMarkdown(na(trace.prv)) + " (" + count(value(trace.tasks)) + " tasks, " +
          count(value(trace.threads)) + " threads).\n\n";
    summarySection(md, m); // the losses first: what an analyst reads before anything else
    md += "## Inputs\n\n";
    // A path is one word a table cell cannot wrap: the table names the file, the list below the path.
    // How the clocks were aligned, when there were several to align and the sidecar says.
    bool clocks = false;
    for (const auto& in : m.inputs)
        clocks = clocks || !(textOf(in.alignment).empty() || textOf(in.alignment) == "single input");
    MarkdownTable t(clocks ? std::vector<std::string>{"#", "Input", "Recorded by", "Host", "Offset", "Clock",
                                                      "Uncertainty"}
                           : std::vector<std::string>{"#", "Input", "Recorded by", "Host", "Offset"},
                    clocks ? "rlllrlr" : "rlllr");
    std::string paths;
    int i = 0;
    for (const auto& in : m.inputs) {
        // nsys_version holds the export's product version, or "Kineto trace ..." for a PyTorch profiler
        // trace.
        std::string version = na(in.nsysVersion.value_or(""));
        std::string recorder = version.rfind("Kineto", 0) == 0 ? "PyTorch profiler (" + version + ")"
                                                               : "Nsight Systems " + version;
        const std::string& path = in.path;
        std::string file = std::filesystem::path(path).filename().string();
        std::vector<std::string> row = {std::to_string(++i), escapeMarkdown(na(file.empty() ? path : file)),
                                        escapeMarkdown(recorder), escapeMarkdown(na(in.host.value_or(""))),
                                        formatDuration(value(in.offsetNs))};
        if (clocks) {
            row.push_back(escapeMarkdown(na(textOf(in.alignment))));
            row.push_back(formatDuration(value(in.alignmentUncertaintyNs)));
        }
        t.row(row);
        if (!file.empty() && file != path) paths += std::to_string(i) + ". " + escapeMarkdown(path) + "\n";
    }
    std::string writer = textOf(trace.writer);
    if (!t.empty())
        md +=
            t.str() + (paths.empty() ? "" : "\nPaths:\n\n" + paths) +
            "\nOffset: what is added to an input's own times to give the trace's (time 0 of the trace is "
            "the first record of all inputs once aligned), so a time of report.json minus the offset is the "
            "time in that export." +
            (clocks ? " Clock: how the input was aligned: utc by its session start (UTC), +MPI_Init or "
                      "+first collective refined so that the ends of that call coincide, MPI_Init or first "
                      "collective by that alone (no session start), none not aligned; Uncertainty: the "
                      "largest distance between its end of a call every input made and another input's "
                      "after alignment (docs/events.md, \"Time\")."
                    : "") +
            "\n\n";
    else if (writer == "nsys2prv" && trace.cutShiftNs)
        md += "n/a: the trace was written by nsys2prv, which records no inputs, then cut by gpueff cut: its "
              "time 0 "
              "is " +
              formatDuration(value(trace.cutShiftNs)) +
              " of the Nsight Systems export's time, so an export's time is the trace time plus that "
              "offset.\n\n";
    else if (writer == "nsys2prv")
        md += "n/a: the trace was written by nsys2prv, which records no inputs. Its times are those of the "
              "Nsight Systems export (time 0 = the session start), so an export's time is the trace time "
              "(offset 0); gpueff translate would start the trace at its first record instead.\n\n";
    else if (writer == "gpueff")
        md += "n/a: written by gpueff translate, but its sidecar (the trace's name with .json) is not beside "
              "it, so the inputs and their clock offsets are unknown.\n\n";
    else
        md += "n/a (the report lists no inputs)\n\n";
}

void window(std::string& md, const model::Window& w) {
    md += "## Analysis window\n\n";
    std::string why;
    if (w.source == "gpu-activity")
        why = "first start to last end of the GPU activity of all devices (default)";
    else if (w.source == "arguments")
        why = "given with --begin/--end";
    else if (w.source == "region")
        why = "span of the NVTX region \"" + escapeMarkdown(na(textOf(w.region))) + "\"";
    else
        why = w.source.empty() ? "n/a (not stated)" : escapeMarkdown(w.source);
    md += "Every figure below is measured over the window [" + count(value(w.beginNs)) + " ns, " +
          count(value(w.endNs)) + " ns] of trace time (" + formatDuration(value(w.beginNs)) + " to " +
          formatDuration(value(w.endNs)) + "), " + formatDuration(value(w.durationNs)) + " long. Source: " + why +
          ".\n\n";
}

void efficiency(std::string& md, const model::Report& m, RenderedReport& out) {
    md += "## Device efficiency\n\n";
    const auto& comm = m.efficiency.ncclAsCommunication;
    const auto& useful = m.efficiency.ncclAsUseful;
    MarkdownTable t({"Metric", "NCCL as communication", "NCCL as useful"}, "lrr");
    for (std::size_t f = 0; f < std::size(kEfficiencyFactors); ++f)
        t.row({kEfficiencyFactors[f].label, formatEfficiency(comm.factor(f)), formatEfficiency(useful.factor(f))});
    struct Row {
        const char* label;
        std::int64_t model::Convention::*ns;
    };
    const Row times[] = {{"Useful time, sum over devices", &model::Convention::usefulSumNs},
                         {"Useful time, maximum device", &model::Convention::usefulMaxNs},
                         {"Active time (useful + communication), maximum device", &model::Convention::activeMaxNs}};
    for (const auto& r : times)
        t.row({r.label, formatDuration(value(comm.*r.ns)), formatDuration(value(useful.*r.ns))});
    t.row({"Devices", count(static_cast<double>(m.devices.size())), ""});
    md += t.str() + "\n";
    md +=
        "Colour scale (POP): \xF0\x9F\x9F\xA9 >= 80 %, \xF0\x9F\x9F\xA8 70-80 %, \xF0\x9F\x9F\xA7 60-70 %, "
        "\xF0\x9F\x9F\xA5 < 60 %. Parallel efficiency = load balance x communication efficiency x "
        "orchestration efficiency. *NCCL as communication*: useful = compute kernels and CUDA graph "
        "launches, "
        "communication = NCCL kernels and memory operations. *NCCL as useful*: NCCL kernels count as useful, "
        "communication = memory operations.\n\n";
    std::string chart = svg::deviceStateChart(m);
    if (!chart.empty()) {
        out.files.emplace_back("plots/device_states.svg", chart);
        md += "![Device time: useful, communication, idle](plots/device_states.svg)\n\n";
    }
    chart = svg::stateTimelineChart(m);
    if (!chart.empty()) {
        out.files.emplace_back("plots/device_state_timeline.svg", chart);
        md += "![Device state over time](plots/device_state_timeline.svg)\n\n";
    }
}

// A sentence naming the devices with fewer than 90 % of their kernels matched to a launch call, whose
// queued-kernel and gap-cause figures then stand on part of the work only ("" when every device has them).
std::string launchCoverage(const model::Report& m) {
    std::string low;
    for (const auto& d : m.devices) {
        auto kernels = value(d.kernels), launched = value(d.kernelsWithLaunch);
        if (kernels && launched && *kernels > 0 && *launched < 0.9 * *kernels)
            low += (low.empty() ? "" : ", ") + escapeMarkdown(m.deviceLabel(d.id)) + " " +
                   formatPercent(*launched / *kernels);
    }
    return low.empty() ? ""
                       : "Launch calls found for only part of the kernels (" + low +
                             "): the figures below count those kernels only.\n\n";
}

void devices(std::string& md, const model::Report& m, RenderedReport& out) {
    md += "## Devices\n\n";
    // The share of kernels with their launch found beside their count, which wraps between the two: a
    // column fewer keeps the table within a page 900 px wide (GitHub).
    MarkdownTable t({"Device", "Useful", "Communication", "Idle", "Kernels", "Memory ops"}, "lrrrrr");
    for (const auto& d : m.devices) {
        auto kernels = value(d.kernels), launched = value(d.kernelsWithLaunch);
        t.row({escapeMarkdown(na(m.deviceLabel(d.id))), formatDuration(value(d.usefulNs)),
               formatDuration(value(d.communicationNs)), formatDuration(value(d.idleNs)),
               count(kernels) + " (" +
                   (launched && kernels && *kernels > 0 ? formatPercent(*launched / *kernels) : "n/a") + ")",
               count(value(d.memoryOperations))});
    }
    if (t.empty()) {
        md += "n/a\n\n";
        return;
    }
    md +=
        t.str() +
        "\nUseful/communication/idle follow *NCCL as communication*. Kernels: their count and, in "
        "parentheses, the share whose launch call was matched (launch lines); kernels queued and the causes "
        "of gaps count those only.\n\n";
    if (std::string chart = svg::deviceEfficiencyChart(m); !chart.empty()) {
        out.files.emplace_back("plots/device_efficiency.svg", chart);
        md += "Where each device loses (U useful, A active = useful + communication, T the window): the "
              "mean of U/T over the devices is the parallel efficiency and the mean of U/max U the load "
              "balance; U/A and A/T split each device's own loss between communication and idle time.\n\n"
              "![Efficiency factors per device](plots/device_efficiency.svg)\n\n";
    }
    // Communication by kind: a run whose communication is host-to-device copies is not a network problem.
    std::vector<std::string> kinds;
    for (const auto& d : m.devices)
        if (d.memoryByKindNs)
            for (const auto& [kind, ns] : *d.memoryByKindNs)
                if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
    std::vector<std::string> head{"Device", "NCCL kernels"};
    head.insert(head.end(), kinds.begin(), kinds.end());
    MarkdownTable c(head, "l" + std::string(head.size() - 1, 'r'));
    for (const auto& d : m.devices) {
        std::vector<std::string> row{escapeMarkdown(na(m.deviceLabel(d.id))), formatDuration(value(d.ncclNs))};
        for (const auto& kind : kinds) {
            std::int64_t ns = 0;
            if (d.memoryByKindNs)
                if (auto it = d.memoryByKindNs->find(kind); it != d.memoryByKindNs->end()) ns = it->second;
            row.push_back(formatDuration(value(ns)));
        }
        c.row(row);
    }
    md += "### Communication by kind\n\nTime of each kind of communication (union of its operations in the "
          "window; kinds can overlap each other):\n\n" +
          c.str() + "\n";
    // The ids are host:pid:gpu (docs/report.md), long words that would widen the table: a column of them
    // only when some device's id is not (a trace without host and pid).
    bool idsDerived = std::all_of(m.devices.begin(), m.devices.end(), [](const model::Device& d) {
        return d.id == textOf(d.host) + ":" + count(value(d.pid)) + ":" + count(value(d.gpu));
    });
    MarkdownTable where(idsDerived
                            ? std::vector<std::string>{"Device", "Host", "PID", "GPU"}
                            : std::vector<std::string>{"Device", "Host", "PID", "GPU", "Id in report.json"},
                        "llrrl");
    for (const auto& d : m.devices)
        where.row({escapeMarkdown(m.deviceLabel(d.id)), escapeMarkdown(na(textOf(d.host))), count(value(d.pid)),
                   count(value(d.gpu)), escapeMarkdown(na(d.id))});
    md += "### Where each device is\n\nRank r is the r-th process of the run (in the order of the inputs); "
          "GPU g its CUDA device number" +
          std::string(idsDerived ? "; its id in report.json is host:PID:g" : "") + ".\n\n" + where.str() +
          "\n";
}

// "python3 144@modal" as "python3 144": the host, often a long domain name, is in the table of where each
// device is; a long executable path keeps its end.
std::string processName(std::string name) {
    constexpr std::size_t kMax = 28;
    if (auto at = name.rfind('@'); at != std::string::npos && at > 0) name.resize(at);
    if (name.size() > kMax) {
        std::size_t from = name.size() - (kMax - 1);
        while (from < name.size() && (static_cast<unsigned char>(name[from]) & 0xC0) == 0x80) ++from;
        name = "\xE2\x80\xA6" + name.substr(from);
    }
    return name;
}

void host(std::string& md, const model::Report& m) {
    md += "## Host\n\n### Offload efficiency\n\n";
    MarkdownTable t(
        {"Task", "Process", "Blocked in sync", "Offload efficiency", "Blocked in launches", "Incl. launches"},
        "rlrrrr");
    if (m.host)
        for (const auto& o : m.host->offload)
            t.row({count(value(o.task)), escapeMarkdown(na(processName(o.name))), formatDuration(value(o.blockingNs)),
                   formatEfficiency(o.offloadEfficiency), formatDuration(value(o.launchBlockedNs)),
                   formatEfficiency(o.offloadEfficiencyWithLaunches ? *o.offloadEfficiencyWithLaunches
                                                                    : std::nullopt)});
    md += t.empty()
              ? "n/a: not computed for this trace (why: see Notes).\n\n"
              : t.str() + "\nOffload efficiency = (window - time inside blocking CUDA API calls) / window. "
                          "Blocked in launches: launch calls longer than 4x the task's median one, beyond "
                          "that median (the launch queue was full); the last column counts both.\n\n";
    md += "### MPI efficiency\n\n";
    if (!m.host) {
        md += "n/a\n\n";
        return;
    }
    if (!m.host->mpi) {
        md += "MPI is not traced in this run.\n\n";
        return;
    }
    const auto& mpi = *m.host->mpi;
    MarkdownTable e({"Metric", "Value"}, "lr");
    e.row({"Parallel efficiency", formatEfficiency(mpi.parallel)});
    e.row({"&emsp;Load balance", formatEfficiency(mpi.loadBalance)});
    e.row({"&emsp;Communication efficiency", formatEfficiency(mpi.communication)});
    md += e.str() + "\n";
    MarkdownTable tasks({"Task", "In MPI", "Outside MPI"}, "rrr");
    for (const auto& task : mpi.tasks)
        tasks.row({count(value(task.task)), formatDuration(value(task.mpiNs)), formatDuration(value(task.outsideMpiNs))});
    if (!tasks.empty()) md += tasks.str() + "\n";
}

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
        kernels.push_back({e.device, e.timeNsByCount, finiteValue(e.mean), value(e.maximum)});
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
                queued.push_back({e.device, e.timeNsByDepth, finiteValue(e.mean), value(e.maximum)});
        histogramTable(md, m, queued, "kernels launched but not yet started");
    }
}

std::string statCell(const std::string& row, std::optional<double> v) {
    return row == "Avg/Max" ? fixed(v, "%.2f") : formatPercent(v);
}

// The fraction at `level` of a view of the overlap, none when the report has none or null there.
std::optional<double> fractionAt(const std::map<std::int64_t, double>& fractions, std::int64_t level) {
    auto it = fractions.find(level);
    return it == fractions.end() ? std::nullopt : finiteValue(it->second);
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
                                  ? statCell(name, finiteValue((*values)[i]))
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
                   formatPercent(finiteValue(r.overlappedFraction)) + ")"});
    }
    md += t.empty() ? std::string("n/a\n\n") : t.str() + "\n";
    if (rows.size() > kMaxDetailRows)
        md += std::to_string(rows.size() - kMaxDetailRows) + " more rows in report.json.\n\n";
}

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

// The notes, less those the HTA section already shows (htaNotes as report.json holds them, naming devices by
// their ids).
void notes(std::string& md, const model::Report& m) {
    md += "## Notes\n\n";
    auto shown = htaNotes(m, HtaDeviceNames::ids);
    bool any = false;
    for (const auto& n : m.notes) {
        if (std::find(shown.begin(), shown.end(), n) != shown.end()) continue;
        any = true;
        md += "- " + escapeMarkdown(n) + "\n";
    }
    if (!any) md += shown.empty() ? "None.\n" : "None besides HTA's rules (\"HTA's definitions\").\n";
}

} // namespace

RenderedReport renderMarkdownReport(const model::Report& m) {
    RenderedReport out;
    std::string& md = out.markdown;
    header(md, m);
    window(md, m.window);
    efficiency(md, m, out);
    devices(md, m, out);
    host(md, m);
    kernelsInFlight(md, m, out);
    overlapTables(md, m, out);
    ncclOverlap(md, m);
    tensorCores(md, m);
    levelsSection(md, m, out);
    categories(md, m, out);
    topKernels(md, m);
    durations(md, m);
    nsysStatsSection(md, m);
    htaSection(md, m);
    gaps(md, m, out);
    notes(md, m);
    return out;
}

} // namespace gpueff::reports
