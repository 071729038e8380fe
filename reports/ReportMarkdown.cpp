#include "reports/ReportMarkdown.h"

#include "reports/ConcurrencyMarkdown.h"
#include "reports/DeviceLabel.h"
#include "reports/ExecutiveSummary.h"
#include "reports/HtaMarkdown.h"
#include "reports/KernelsMarkdown.h"
#include "reports/LevelsMarkdown.h"
#include "reports/MarkdownCells.h"
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
using namespace cells;

namespace {

constexpr const char* kSchema = "gpueff-report/1";

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

std::string cells::launchCoverage(const model::Report& m) {
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

RenderedReport renderMarkdownReport(const model::Report& m) {
    RenderedReport out;
    std::string& md = out.markdown;
    header(md, m);
    window(md, m.window);
    efficiency(md, m, out);
    devices(md, m, out);
    host(md, m);
    concurrencySections(md, m, out);
    tensorCoreSection(md, m);
    levelsSection(md, m, out);
    kernelSections(md, m, out);
    nsysStatsSection(md, m);
    htaSection(md, m);
    gapSection(md, m, out);
    notes(md, m);
    return out;
}

} // namespace gpueff::reports
