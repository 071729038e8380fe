#include "metrics/Analysis.h"

#include "engine/common/Error.h"
#include "engine/common/IntervalPairing.h"
#include "engine/paraver/EventTypes.h"
#include "engine/pipeline/CutStage.h"
#include "metrics/LevelParts.h"
#include "metrics/MetricFamilies.h"

#include <algorithm>

namespace gpueff::metrics {

std::string valueName(const semantic::LoadedTrace& trace, std::uint32_t type, std::int64_t value) {
    const auto& values = trace.context().labels.eventValues;
    if (auto t = values.find(type); t != values.end())
        if (auto v = t->second.find(value); v != t->second.end()) return v->second;
    return std::to_string(type) + ":" + std::to_string(value);
}

namespace {

// The NVTX ranges named `name` on the shard's threads: the values of that name per NVTX type (from the
// .pcf), and the earliest begin and latest end of a closed one. Ranges of one category nest on a thread
// under one event type (a value opens a range, 0 closes the innermost), so a stack per type finds where
// each one ends.
std::map<std::uint32_t, std::int64_t> regionValues(const semantic::LoadedTrace& trace,
                                                   const std::string& name) {
    std::map<std::uint32_t, std::int64_t> wanted; // type -> value
    for (const auto& [type, values] : trace.context().labels.eventValues)
        if (paraver::types::isNvtxRangeType(type))
            for (const auto& [value, label] : values)
                if (label == name) wanted[type] = value;
    if (wanted.empty())
        throw Error("--region '" + name + "': no NVTX range of that name in the trace's .pcf");
    return wanted;
}

void extendRegionSpan(const semantic::LoadedTrace& trace, const std::map<std::uint32_t, std::int64_t>& wanted,
                      std::int64_t& first, std::int64_t& last) {
    struct Open {
        std::int64_t value, begin;
    };
    IntervalPairing<Open> open(Nesting::Stack); // per thread, by type
    for (const auto& th : trace.trace().threads) {
        open.clear();
        for (std::size_t i = 0; i < th.eventTime.size(); ++i) {
            auto w = wanted.find(th.eventType[i]);
            if (w == wanted.end()) continue;
            const auto time = th.eventTime[i];
            open.event(
                w->first, th.eventValue[i],
                [&](const Open*) {
                    return Open{th.eventValue[i], time};
                },
                [&](const Open& range, const Open*) {
                    if (range.value != w->second) return;
                    first = std::min(first, range.begin);
                    last = std::max(last, time);
                });
        }
    }
}

// What the first look at every shard gathers for the window (WindowEvidence), and the end of the trace.
struct WindowScout : WindowEvidence {
    std::int64_t traceEnd = 0;

    void look(const semantic::LoadedTrace& trace, const DeviceActivity& activity,
              const std::vector<std::size_t>& devices, const std::vector<std::size_t>& tasks,
              const AnalysisOptions& options) {
        traceEnd = trace.trace().endTime();
        collectHtaEvidence(trace, activity, tasks, *this);
        if (options.iterationSource != IterationSource::Off) {
            collectMarkers(trace, activity, tasks, options.iterationPattern, *this);
            // Detected on the first device alone: one sequence decides the boundaries of every device.
            if (std::find(devices.begin(), devices.end(), 0) != devices.end())
                detected = detectOnDevice(trace, activity.devices[0]);
        }
        if (!options.region.empty())
            extendRegionSpan(trace, regionValues(trace, options.region), regionFirst, regionLast);
        for (auto i : devices)
            for (const auto& cls : activity.devices[i].work)
                for (const auto& rows : cls)
                    if (!rows.empty()) {
                        activityBegin = std::min(activityBegin, rows.front().begin);
                        activityEnd = std::max(activityEnd, rows.back().end);
                    }
    }

    AnalysisWindow window(const AnalysisOptions& options) const {
        AnalysisWindow w;
        if (!options.region.empty()) {
            if (regionFirst > regionLast)
                throw Error("--region '" + options.region + "': the range is never closed in the trace");
            w.begin = regionFirst;
            w.end = regionLast;
            w.source = "region";
            w.region = options.region;
        } else {
            w.begin = activityBegin;
            w.end = activityEnd;
            if (w.begin > w.end) w.begin = w.end = 0;
            w.source = "gpu-activity";
        }
        if (options.begin || options.end) {
            // Bounds outside the trace would describe time nobody recorded, and extreme ones would overflow
            // the window's arithmetic (end - begin, bin edges): both must lie within [0, end of the trace].
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
};

// The shard's devices read and their partials computed; its tasks' too.
void readShard(const semantic::LoadedTrace& trace, const AnalysisWindow& window, const TraceFacts& facts,
               const NamePattern& gemm, const LevelPlan& plan, const std::vector<HtaRuleInputs>& hta,
               DeviceActivity& activity, const std::vector<std::size_t>& devices,
               const std::vector<std::size_t>& tasks, std::vector<DevicePartial>& devicePartials,
               std::vector<TaskPartial>& taskPartials, ShardAnswers& answers) {
    ShardReader shard(trace, window, facts, gemm);
    answers = {shard.queuedLines,    shard.queuedAvailable, shard.classifyGaps,   shard.tensorSamples,
               shard.blockingEvents, shard.mpiEvents,       shard.queuedAvailable};
    for (auto i : devices) {
        const auto& d = activity.devices[i];
        auto u = deviceUnions(d, window);
        const DeviceShard device{shard, i, d, u, plan, hta[i]};
        for (const auto& family : metricFamilies())
            if (family.device) family.device(device, devicePartials[i]);
    }
    for (auto t : tasks)
        for (const auto& family : metricFamilies())
            if (family.task) family.task(shard, activity.tasks[t], taskPartials[t]);
}

} // namespace

void WindowEvidence::combine(const WindowEvidence& o) {
    activityBegin = std::min(activityBegin, o.activityBegin);
    activityEnd = std::max(activityEnd, o.activityEnd);
    regionFirst = std::min(regionFirst, o.regionFirst);
    regionLast = std::max(regionLast, o.regionLast);
    markers.insert(markers.end(), o.markers.begin(), o.markers.end());
    phases.insert(phases.end(), o.phases.begin(), o.phases.end());
    if (o.detected) detected = o.detected;
    markerWork.combine(o.markerWork);
    phaseWork.combine(o.phaseWork);
    launchLines = launchLines || o.launchLines;
    for (const auto& [task, e] : o.hta) hta[task].combine(e);
}

TraceFacts factsOf(const semantic::LoadedTrace& trace) {
    return {!trace.trace().communications.empty(), launchLinesCarryCallEnds(trace)};
}

ShardReader::ShardReader(const semantic::LoadedTrace& t, const AnalysisWindow& w, const TraceFacts& f,
                         const NamePattern& gemm)
    : trace(t), window(w), facts(f), queued(t, "analysis/kernels_queued.cfg"),
      transit(t, "analysis/launches_in_transit.cfg"), tensor(t, "hwcounters/tensor_active.cfg"),
      blocking(t, "model/host_blocking.cfg"), mpi(t, "model/mpi_calls.cfg"),
      queuedLines(queued.hasEvents(0) && f.communications),
      queuedAvailable(queuedLines && f.launchLinesCarryCallEnds),
      classifyGaps(transit.hasEvents(0) && f.communications), tensorSamples(tensor.hasEvents(0)),
      blockingEvents(blocking.hasEvents(0)), mpiEvents(mpi.hasEvents(0)), gemm_(gemm) {}

void noteWhatTheTraceLacks(Analysis& a, std::uint64_t overlappingRecords) {
    if (auto n = overlappingRecords)
        a.notes.push_back(
            std::to_string(n) + " GPU work record" + (n == 1 ? "" : "s") +
            " (kernel, graph launch or memory operation) begin while another of the same type "
            "still runs on the same stream row: Paraver ends the first one there, so the busy "
            "time of those rows is under-counted (gpueff translate puts such work on rows of its "
            "own, CUDA-D<d>.S<s>.<lane>)");
    if (a.writer != TraceWriter::Nsys2prv) return;
    if (a.cutShift)
        a.notes.push_back(
            "trace written by nsys2prv and cut by gpueff cut: its time 0 is " + std::to_string(*a.cutShift) +
            " ns of nsys2prv's time (the Nsight Systems export's own); the window of this report is "
            "in the cut trace's time (an export's time = trace time + " +
            std::to_string(*a.cutShift) + " ns), durations are the same in both");
    else
        a.notes.push_back(
            "trace written by nsys2prv: its times are the Nsight Systems export's own (time 0 = the session "
            "start; with several reports, the earliest one's), while gpueff translate starts its traces at "
            "the "
            "first record; the window of this report is in nsys2prv's time (an export's time = trace time), "
            "durations are the same in both");
    a.notes.push_back(
        "kernel names are nsys2prv's short names (no namespace, template arguments or parameters): kernels "
        "sharing one short name are one row of the kernel summary and of the duration distributions");
    if (!a.activity.devices.empty() && a.activity.devices.front().id.rfind("task", 0) == 0)
        a.notes.push_back("devices are named task<t>:<gpu>: nsys2prv's .row names no process or host");
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> eventTypesRead() {
    namespace t = paraver::types;
    // The API calls and the bytes of memory operations are nsys_stats' only (about 48 bytes a call on the
    // host rows, 24 an operation); the NVTX ranges also give the --region window and the iteration markers,
    // and the start/end type tells nvtx_sum's two styles apart.
    const std::vector<t::TypeRange> ranges = {
        {t::kCudaApi, t::kMemoryBytes},    // API calls, memory operations and their bytes
        {t::kKernel, t::kSynchronization}, // kernels, NCCL, graphs, sync
        t::kGpuMetricIdTypes,
        t::kGpuMetricByNameTypes,
        t::kMpiCallTypes,
        {t::kNvtxStartEndRange, t::kNvtxStartEndRange},
        t::kNvtxDomainTypes,
        t::kNcclCategoryTypes};
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    for (const auto& r : ranges) out.emplace_back(r.first, r.last);
    return out;
}

namespace {

// The whole trace as one shard.
class WholeTrace : public ShardedTrace {
public:
    explicit WholeTrace(const semantic::LoadedTrace& trace) : trace_(trace) {}
    std::size_t shards() const override { return 1; }
    std::vector<std::uint32_t> unitsOf(std::size_t) const override {
        auto units = analysisUnits(deviceLayout(trace_.layout()), trace_.layout().rows.size());
        std::vector<std::uint32_t> all(units.size());
        for (std::uint32_t u = 0; u < all.size(); ++u) all[u] = u;
        return all;
    }
    TraceFacts facts() const override { return factsOf(trace_); }
    void visit(std::size_t, const std::function<void(const semantic::LoadedTrace&)>& use) const override {
        use(trace_);
    }
    void visitLabels(const std::function<void(const semantic::LoadedTrace&)>& use) const override {
        use(trace_);
    }

private:
    const semantic::LoadedTrace& trace_;
};

std::optional<Analysis> analyzeParts(const ShardedTrace& sharded, const AnalysisOptions& options,
                                     AnalysisPeers* peers);

} // namespace

Analysis analyze(const semantic::LoadedTrace& trace, const AnalysisOptions& options) {
    return analyze(WholeTrace(trace), options);
}

Analysis analyze(const ShardedTrace& sharded, const AnalysisOptions& options) {
    return *analyzeParts(sharded, options, nullptr);
}

std::optional<Analysis> analyze(const ShardedTrace& sharded, const AnalysisOptions& options,
                                AnalysisPeers& peers) {
    return analyzeParts(sharded, options, &peers);
}

namespace {

// The second look the levels of detail need: once every task's markers are known, where the GPU work
// launched inside them ran, device by device, combined over the processes.
class LevelScout {
public:
    explicit LevelScout(WindowEvidence& evidence) : evidence_(evidence) {}
    // True when the markers' work must be looked for (they are sorted alike on every process first).
    bool prepare(const AnalysisOptions& options) {
        sortRanges(evidence_.markers);
        sortRanges(evidence_.phases);
        mine_.markers = evidence_.markers;
        mine_.phases = evidence_.phases;
        mine_.markerWork.resize(mine_.markers.size());
        mine_.phaseWork.resize(mine_.phases.size());
        return options.iterationSource == IterationSource::Markers && !mine_.markers.empty();
    }
    void project(const semantic::LoadedTrace& trace, const Device& d) {
        mine_.launchLines = projectWork(trace, d, mine_) || mine_.launchLines;
    }
    void combine(AnalysisPeers* peers) {
        WindowEvidence work;
        work.markerWork = std::move(mine_.markerWork);
        work.phaseWork = std::move(mine_.phaseWork);
        work.launchLines = mine_.launchLines;
        if (peers) work = peers->combineWindow(work);
        evidence_.markerWork = std::move(work.markerWork);
        evidence_.phaseWork = std::move(work.phaseWork);
        evidence_.launchLines = work.launchLines;
    }
    LevelPlan plan(Analysis& a, const AnalysisOptions& options) const {
        return planLevels(a, evidence_, options, evidence_.launchLines);
    }

private:
    WindowEvidence& evidence_;
    WindowEvidence mine_;
};

// The window, the partials and their reduction; with peers, the window's evidence is combined over the
// processes and the partials reduced on the root alone.
std::optional<Analysis> analyzeParts(const ShardedTrace& sharded, const AnalysisOptions& options,
                                     AnalysisPeers* peers) {
    const auto facts = sharded.facts();
    Analysis a;
    std::vector<std::vector<std::size_t>> devicesOf(sharded.shards()), tasksOf(sharded.shards());
    // The layout and labels are the whole trace's in every shard: the first one gives the devices and tasks.
    auto layout = [&](const semantic::LoadedTrace& trace) {
        // Every window, duration and --begin/--end of the analysis is in nanoseconds, the unit gpueff
        // translate writes; a trace in another unit would give numbers 10^3..10^9 off under a "ns" label.
        if (trace.trace().header.unit != paraver::TimeUnit::Nanoseconds)
            throw Error(trace.path.string() +
                        ":1: analyze reads traces timed in nanoseconds (\"_ns\" in the header), as gpueff "
                        "translate writes them; this one is not");
        a.writer = recogniseWriter(trace);
        if (auto cut = trace.trace().provenance.cutOrigin(); cut && cut->unit == "ns")
            a.cutShift = cut->shift;
        a.activity = deviceLayout(trace.layout());
        auto units = analysisUnits(a.activity, trace.layout().rows.size());
        for (std::size_t s = 0; s < sharded.shards(); ++s)
            for (auto u : sharded.unitsOf(s)) {
                const auto& d = units.devices.at(u);
                const auto& t = units.tasks.at(u);
                devicesOf[s].insert(devicesOf[s].end(), d.begin(), d.end());
                tasksOf[s].insert(tasksOf[s].end(), t.begin(), t.end());
            }
    };
    std::vector<DevicePartial> devicePartials;
    std::vector<TaskPartial> taskPartials;
    ShardAnswers answers;
    WindowScout scout;
    LevelScout levels(scout);
    LevelPlan plan;
    std::vector<HtaRuleInputs> htaInputs; // once the evidence of every task is in
    auto readWork = [&](const semantic::LoadedTrace& trace, std::size_t s) {
        WorkReader reader(trace);
        for (auto i : devicesOf[s]) reader.read(a.activity.devices[i]);
    };
    auto dropWork = [&](std::size_t s) {
        for (auto i : devicesOf[s])
            for (auto& cls : a.activity.devices[i].work) std::vector<Spans>().swap(cls);
    };
    auto partials = [&](const semantic::LoadedTrace& trace, std::size_t s) {
        if (devicePartials.empty()) {
            devicePartials.resize(a.activity.devices.size());
            taskPartials.resize(a.activity.tasks.size());
            htaInputs = htaRuleInputs(scout, options, a.activity);
        }
        readShard(trace, a.window, facts, options.gemmPattern, plan, htaInputs, a.activity, devicesOf[s],
                  tasksOf[s], devicePartials, taskPartials, answers);
    };
    if (sharded.shards() == 1) {
        // One look: the window and the partials from the same reading of the devices.
        sharded.visit(0, [&](const semantic::LoadedTrace& trace) {
            layout(trace);
            readWork(trace, 0);
            scout.look(trace, a.activity, devicesOf[0], tasksOf[0], options);
            if (peers) static_cast<WindowEvidence&>(scout) = peers->combineWindow(scout);
            a.window = scout.window(options);
            if (levels.prepare(options)) {
                for (auto i : devicesOf[0]) levels.project(trace, a.activity.devices[i]);
                levels.combine(peers);
            }
            plan = levels.plan(a, options);
            partials(trace, 0);
            dropWork(0);
        });
    } else {
        // The window needs every shard before any device can be measured against it.
        for (std::size_t s = 0; s < sharded.shards(); ++s)
            sharded.visit(s, [&](const semantic::LoadedTrace& trace) {
                if (s == 0) layout(trace);
                readWork(trace, s);
                scout.look(trace, a.activity, devicesOf[s], tasksOf[s], options);
                dropWork(s);
            });
        if (peers) static_cast<WindowEvidence&>(scout) = peers->combineWindow(scout);
        a.window = scout.window(options);
        // Where the markers' work ran needs the markers of every task first: one more look at the devices.
        if (levels.prepare(options)) {
            for (std::size_t s = 0; s < sharded.shards(); ++s)
                sharded.visit(s, [&](const semantic::LoadedTrace& trace) {
                    readWork(trace, s);
                    for (auto i : devicesOf[s]) levels.project(trace, a.activity.devices[i]);
                    dropWork(s);
                });
            levels.combine(peers);
        }
        plan = levels.plan(a, options);
        for (std::size_t s = 0; s < sharded.shards(); ++s)
            sharded.visit(s, [&](const semantic::LoadedTrace& trace) {
                readWork(trace, s);
                partials(trace, s);
                dropWork(s);
            });
    }
    if (peers) {
        std::vector<std::size_t> devices, tasks;
        for (std::size_t s = 0; s < sharded.shards(); ++s) {
            devices.insert(devices.end(), devicesOf[s].begin(), devicesOf[s].end());
            tasks.insert(tasks.end(), tasksOf[s].begin(), tasksOf[s].end());
        }
        devicePartials.resize(a.activity.devices.size());
        taskPartials.resize(a.activity.tasks.size());
        if (!peers->gatherPartials(devices, tasks, devicePartials, taskPartials)) return std::nullopt;
    }
    if (a.window.duration() == 0)
        a.notes.push_back(a.window.source == "gpu-activity"
                              ? "the trace has no GPU activity: the window is empty"
                              : "the analysis window is empty (begin = end)");
    sharded.visitLabels([&](const semantic::LoadedTrace& labels) {
        Reduction reduction{devicePartials, taskPartials, facts, answers, options, plan, labels};
        for (const auto& family : metricFamilies()) family.reduce(a, reduction);
    });
    return a;
}

} // namespace

} // namespace gpueff::metrics
