#include "metrics/Analysis.h"

#include "engine/common/Error.h"
#include "engine/paraver/EventTypes.h"

#include <algorithm>

namespace gpueff::metrics {

std::string valueName(const semantic::LoadedTrace& trace, std::uint32_t type, std::int64_t value) {
    const auto& values = trace.context().labels.eventValues;
    if (auto t = values.find(type); t != values.end())
        if (auto v = t->second.find(value); v != t->second.end()) return v->second;
    return std::to_string(type) + ":" + std::to_string(value);
}

namespace {

// The span of the NVTX ranges named `name`. Ranges of one category nest on a thread under one event type
// (a value opens a range, 0 closes the innermost), so a stack per type finds where each one ends.
std::pair<std::int64_t, std::int64_t> regionSpan(const semantic::LoadedTrace& trace,
                                                 const std::string& name) {
    std::map<std::uint32_t, std::int64_t> wanted; // type -> value
    for (const auto& [type, values] : trace.context().labels.eventValues)
        if (paraver::types::isNvtxRangeType(type))
            for (const auto& [value, label] : values)
                if (label == name) wanted[type] = value;
    if (wanted.empty())
        throw Error("--region '" + name + "': no NVTX range of that name in the trace's .pcf");
    std::int64_t first = INT64_MAX, last = INT64_MIN;
    for (const auto& th : trace.trace().threads) {
        std::map<std::uint32_t, std::vector<std::pair<std::int64_t, std::int64_t>>>
            open; // type -> (value, begin)
        for (std::size_t i = 0; i < th.eventTime.size(); ++i) {
            auto w = wanted.find(th.eventType[i]);
            if (w == wanted.end()) continue;
            auto& stack = open[w->first];
            if (th.eventValue[i] != 0) {
                stack.push_back({th.eventValue[i], th.eventTime[i]});
            } else if (!stack.empty()) {
                if (stack.back().first == w->second) {
                    first = std::min(first, stack.back().second);
                    last = std::max(last, th.eventTime[i]);
                }
                stack.pop_back();
            }
        }
    }
    if (first > last) throw Error("--region '" + name + "': the range is never closed in the trace");
    return {first, last};
}

} // namespace

void noteWhatTheTraceLacks(const semantic::LoadedTrace& trace, Analysis& a) {
    std::vector<std::size_t> rows;
    for (const auto& d : a.activity.devices) rows.insert(rows.end(), d.rows.begin(), d.rows.end());
    if (auto n = overlappingWorkRecords(trace, rows))
        a.notes.push_back(
            std::to_string(n) + " GPU work record" + (n == 1 ? "" : "s") +
            " (kernel, graph launch or memory operation) begin while another of the same type "
            "still runs on the same stream row: Paraver ends the first one there, so the busy "
            "time of those rows is under-counted (gpueff translate puts such work on rows of its "
            "own, CUDA-D<d>.S<s>.<lane>)");
    if (a.writer != TraceWriter::Nsys2prv) return;
    a.notes.push_back(
        "trace written by nsys2prv: its times are the Nsight Systems export's own (time 0 = the session "
        "start; with several reports, the earliest one's), while gpueff translate starts its traces at the "
        "first record; the window of this report is in nsys2prv's time (an export's time = trace time), "
        "durations are the same in both");
    a.notes.push_back(
        "kernel names are nsys2prv's short names (no namespace, template arguments or parameters): kernels "
        "sharing one short name are one row of the kernel summary and of the duration distributions");
    if (!a.activity.devices.empty() && a.activity.devices.front().id.rfind("task", 0) == 0)
        a.notes.push_back("devices are named task<t>:<gpu>: nsys2prv's .row names no process or host");
}

AnalysisWindow chooseWindow(const semantic::LoadedTrace& trace, const DeviceActivity& activity,
                            const AnalysisOptions& options) {
    AnalysisWindow w;
    if (!options.region.empty()) {
        std::tie(w.begin, w.end) = regionSpan(trace, options.region);
        w.source = "region";
        w.region = options.region;
    } else {
        w.begin = INT64_MAX;
        w.end = INT64_MIN;
        for (const auto& d : activity.devices)
            for (const auto& cls : d.work)
                for (const auto& rows : cls)
                    if (!rows.empty()) {
                        w.begin = std::min(w.begin, rows.front().begin);
                        w.end = std::max(w.end, rows.back().end);
                    }
        if (w.begin > w.end) w.begin = w.end = 0;
        w.source = "gpu-activity";
    }
    if (options.begin || options.end) {
        // Bounds outside the trace would describe time nobody recorded, and extreme ones would overflow the
        // window's arithmetic (end - begin, bin edges): both must lie within [0, end of the trace].
        const std::int64_t traceEnd = trace.trace().endTime();
        for (auto [flag, value] : {std::pair{"--begin", options.begin}, std::pair{"--end", options.end}})
            if (value && (*value < 0 || *value > traceEnd))
                throw Error(std::string(flag) + " " + std::to_string(*value) +
                            " ns is outside the trace (0 .. " + std::to_string(traceEnd) + " ns)");
        if (options.begin) w.begin = *options.begin;
        if (options.end) w.end = *options.end;
        w.source = "arguments";
    }
    if (w.end < w.begin)
        throw Error("the analysis window ends (" + std::to_string(w.end) + " ns) before it begins (" +
                    std::to_string(w.begin) + " ns)");
    return w;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> eventTypesRead(bool region) {
    namespace t = paraver::types;
    std::vector<t::TypeRange> ranges = {{t::kMemoryOperation, t::kMemoryOperation},
                                        {t::kKernel, t::kSynchronization}, // kernels, NCCL, graphs, sync
                                        t::kGpuMetricIdTypes,
                                        t::kGpuMetricByNameTypes,
                                        t::kMpiCallTypes};
    if (region) ranges.insert(ranges.end(), {t::kNvtxDomainTypes, t::kNcclCategoryTypes});
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    for (const auto& r : ranges) out.emplace_back(r.first, r.last);
    return out;
}

Analysis analyze(const semantic::LoadedTrace& trace, const AnalysisOptions& options) {
    // Every window, duration and --begin/--end of the analysis is in nanoseconds, the unit gpueff translate
    // writes; a trace in another unit would give numbers 10^3..10^9 off under a "ns" label.
    if (trace.trace().header.unit != paraver::TimeUnit::Nanoseconds)
        throw Error(
            trace.path.string() +
            ":1: analyze reads traces timed in nanoseconds (\"_ns\" in the header), as gpueff translate "
            "writes them; this one is not");
    Analysis a;
    a.writer = recogniseWriter(trace);
    a.activity = readDeviceActivity(trace);
    a.window = chooseWindow(trace, a.activity, options);
    if (a.window.duration() == 0)
        a.notes.push_back(a.window.source == "gpu-activity"
                              ? "the trace has no GPU activity: the window is empty"
                              : "the analysis window is empty (begin = end)");
    computeDeviceModel(a);
    computeConcurrency(trace, a);
    computeTimeline(a, 240);
    computeTensorCore(trace, options.gemmPattern, a);
    computeKernelStatistics(trace, a);
    computeHostModel(trace, a);
    noteWhatTheTraceLacks(trace, a);
    return a;
}

} // namespace gpueff::metrics
