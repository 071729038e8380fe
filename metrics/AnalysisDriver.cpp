#include "engine/common/Error.h"
#include "engine/common/IntervalPairing.h"
#include "engine/common/Parallel.h"
#include "engine/paraver/EventTypes.h"
#include "metrics/Analysis.h"
#include "metrics/LevelParts.h"
#include "metrics/MetricFamilies.h"

#include <algorithm>
#include <cctype>
#include <mutex>

// How analyze() reads a sharded trace: the first look at every shard finds the window, a second one places
// the markers' work on the GPU, a third computes each device's and task's partials, and the reductions make
// the figures of the whole trace. One shard is read in one look; several are read `jobs` at a time.
namespace gpueff::metrics {

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

// The --region's closed ranges (`wanted`: its value per NVTX type) widen [first, last].
class RegionWalker : public HostEventWalker {
public:
    RegionWalker(const std::map<std::uint32_t, std::int64_t>& wanted, std::int64_t& first, std::int64_t& last)
        : wanted_(wanted), first_(first), last_(last) {}
    void events(std::uint32_t row, std::span<const HostEvent> group) override {
        auto& pairing = open_.of(row);
        for (const auto& e : group) {
            auto w = wanted_.find(e.type);
            if (w == wanted_.end()) continue;
            pairing.event(
                w->first, e.value,
                [&](const Open*) {
                    return Open{e.value, e.time};
                },
                [&](const Open& range, const Open*) {
                    if (range.value != w->second) return;
                    first_ = std::min(first_, range.begin);
                    last_ = std::max(last_, e.time);
                });
        }
    }
    void rowEnd(std::uint32_t row) override {
        open_.end(row, [](auto&) {});
    }

private:
    struct Open {
        std::int64_t value, begin;
    };
    const std::map<std::uint32_t, std::int64_t>& wanted_;
    std::int64_t &first_, &last_;
    RowStates<IntervalPairing<Open>> open_; // per row, by type
};

// The --region's ranges on the rows no task holds as host rows (a device's or a metrics row keeps its NVTX
// ranges in the loaded shard): their columns walked.
void extendRegionOffHost(const semantic::LoadedTrace& trace, const DeviceActivity& activity,
                         RegionWalker& walker) {
    std::vector<bool> hostRow(trace.trace().threads.size(), false);
    for (const auto& task : activity.tasks)
        for (auto row : task.cpuRows) hostRow.at(row) = true;
    std::vector<std::size_t> offHost;
    for (std::size_t row = 0; row < hostRow.size(); ++row)
        if (!hostRow[row]) offHost.push_back(row);
    walkColumns(trace, offHost, walker);
}

// What the first look at every shard gathers for the window (WindowEvidence), and the end of the trace.
struct WindowScout : WindowEvidence {
    std::int64_t traceEnd = 0;

    void look(const semantic::LoadedTrace& trace, const HostEventSource& hostEvents,
              const DeviceActivity& activity, const std::vector<std::size_t>& devices,
              const std::vector<std::size_t>& tasks, const AnalysisOptions& options) {
        traceEnd = trace.trace().endTime();
        // The families that read the tasks' host events walk them together: one walk (one replay from the
        // file under a limit) per task.
        const bool iterations = options.iterationSource != IterationSource::Off;
        std::map<std::uint32_t, std::int64_t> region;
        if (!options.region.empty()) region = regionValues(trace, options.region);
        auto htaWalkers = htaEvidence(trace, *this);
        auto markerWalkers = iterationMarkers(trace, options.iterationPattern, *this);
        for (auto t : tasks) {
            HostEventFanOut walkers;
            walkers.add(htaWalkers(static_cast<std::uint32_t>(t)));
            if (iterations) walkers.add(markerWalkers(static_cast<std::uint32_t>(t)));
            if (!region.empty()) walkers.add(std::make_unique<RegionWalker>(region, regionFirst, regionLast));
            hostEvents(activity.tasks[t], walkers);
        }
        if (!region.empty()) {
            RegionWalker offHost(region, regionFirst, regionLast);
            extendRegionOffHost(trace, activity, offHost);
        }
        // Detected on the first device alone: one sequence decides the boundaries of every device.
        if (iterations && std::find(devices.begin(), devices.end(), 0) != devices.end())
            detected = detectOnDevice(trace, activity.devices[0]);
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
void readShard(const semantic::LoadedTrace& trace, const HostEventSource& hostEvents,
               const AnalysisWindow& window, const TraceFacts& facts, const NamePattern& gemm,
               const LevelPlan& plan, const std::vector<HtaRuleInputs>& hta, DeviceActivity& activity,
               const std::vector<std::size_t>& devices, const std::vector<std::size_t>& tasks,
               std::vector<DevicePartial>& devicePartials, std::vector<TaskPartial>& taskPartials,
               ShardAnswers& answers, SpillStore& store, std::uint64_t callsPerRun) {
    ShardReader shard(trace, hostEvents, window, facts, gemm, store);
    shard.callsPerRun = callsPerRun;
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

// The second look the levels of detail need: once every task's markers are known, where the GPU work
// launched inside them ran, device by device, combined over the shards and the processes.
class LevelScout {
public:
    explicit LevelScout(WindowEvidence& evidence) : evidence_(evidence) {}
    // True when the markers' work must be looked for (they are sorted alike on every process first).
    bool prepare(const AnalysisOptions& options) {
        sortRanges(evidence_.markers);
        sortRanges(evidence_.phases);
        markerWork_.resize(evidence_.markers.size());
        phaseWork_.resize(evidence_.phases.size());
        return options.iterationSource == IterationSource::Markers && !evidence_.markers.empty();
    }
    // The devices of one shard; shards may be projected at once.
    void project(const semantic::LoadedTrace& trace, const DeviceActivity& activity,
                 const std::vector<std::size_t>& devices) {
        Projection markers, phases;
        markers.resize(evidence_.markers.size());
        phases.resize(evidence_.phases.size());
        bool lines = false;
        for (auto i : devices)
            lines = projectWork(trace, activity.devices[i], evidence_, markers, phases) || lines;
        std::lock_guard lock(mutex_);
        markerWork_.combine(markers);
        phaseWork_.combine(phases);
        launchLines_ = launchLines_ || lines;
    }
    void combine(AnalysisPeers* peers) {
        WindowEvidence work;
        work.markerWork = std::move(markerWork_);
        work.phaseWork = std::move(phaseWork_);
        work.launchLines = launchLines_;
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
    Projection markerWork_, phaseWork_;
    bool launchLines_ = false;
    std::mutex mutex_;
};

// The stage name of a family: "reduce.<its name before the parenthesis>", other characters as '_'.
std::string reduceStage(const MetricFamily& family) {
    std::string name = family.name;
    name.resize(std::min(name.size(), name.find(" (")));
    for (auto& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return "reduce." + name;
}

// One analysis of a sharded trace: the window, the partials and their reduction; with peers, the window's
// evidence is combined over the processes and the partials reduced on the root alone.
class ShardAnalysis {
public:
    ShardAnalysis(const ShardedTrace& sharded, const AnalysisOptions& options, AnalysisPeers* peers)
        : sharded_(sharded), options_(options), peers_(peers), facts_(sharded.facts()), n_(sharded.shards()),
          clock_(a_.stages), devicesOf_(n_), tasksOf_(n_), answers_(n_), levels_(scout_) {
        auto dir = sharded.spillDirectory();
        store_ = dir ? std::make_unique<SpillStore>(*dir) : std::make_unique<SpillStore>();
        if (auto limit = sharded.memoryBudget()) budget_ = std::make_unique<MemoryBudget>(limit);
    }

    std::optional<Analysis> run() {
        if (n_ == 1)
            oneLook();
        else
            threeLooks();
        if (peers_ && !gather()) return std::nullopt;
        if (a_.window.duration() == 0)
            a_.notes.push_back(a_.window.source == "gpu-activity"
                                   ? "the trace has no GPU activity: the window is empty"
                                   : "the analysis window is empty (begin = end)");
        reduce();
        return std::move(a_);
    }

private:
    // The layout and labels are the whole trace's in every shard.
    void layout(const semantic::LoadedTrace& trace) {
        // Every window, duration and --begin/--end of the analysis is in nanoseconds, the unit gpueff
        // translate writes; a trace in another unit would give numbers 10^3..10^9 off under a "ns" label.
        if (trace.trace().header.unit != paraver::TimeUnit::Nanoseconds)
            throw Error(trace.path.string() +
                        ":1: analyze reads traces timed in nanoseconds (\"_ns\" in the header), as gpueff "
                        "translate writes them; this one is not");
        a_.writer = recogniseWriter(trace);
        if (auto cut = trace.trace().provenance.cutOrigin(); cut && cut->unit == "ns")
            a_.cutShift = cut->shift;
        a_.activity = deviceLayout(trace.layout());
        auto units = analysisUnits(a_.activity, trace.layout().rows.size());
        for (std::size_t s = 0; s < n_; ++s)
            for (auto u : sharded_.unitsOf(s)) {
                const auto& d = units.devices.at(u);
                const auto& t = units.tasks.at(u);
                devicesOf_[s].insert(devicesOf_[s].end(), d.begin(), d.end());
                tasksOf_[s].insert(tasksOf_[s].end(), t.begin(), t.end());
            }
    }
    void readWork(const semantic::LoadedTrace& trace, std::size_t s) {
        WorkReader reader(trace);
        for (auto i : devicesOf_[s]) reader.read(a_.activity.devices[i]);
    }
    void dropWork(std::size_t s) {
        for (auto i : devicesOf_[s])
            for (auto& cls : a_.activity.devices[i].work) std::vector<Spans>().swap(cls);
    }
    void setWindow() {
        if (peers_) static_cast<WindowEvidence&>(scout_) = peers_->combineWindow(scout_);
        a_.window = scout_.window(options_);
    }
    void startPartials() {
        devicePartials_.resize(a_.activity.devices.size());
        taskPartials_.resize(a_.activity.tasks.size());
        htaInputs_ = htaRuleInputs(scout_, options_, a_.activity);
    }
    // The host events of the tasks of the shard `trace` holds.
    HostEventSource hostEvents(const semantic::LoadedTrace& trace) const {
        return [this, &trace](const TaskInfo& task, HostEventWalker& walker) {
            sharded_.walkHostEvents(trace, task, walker);
        };
    }
    void partials(const semantic::LoadedTrace& trace, std::size_t s) {
        readShard(trace, hostEvents(trace), a_.window, facts_, options_.gemmPattern, plan_, htaInputs_,
                  a_.activity, devicesOf_[s], tasksOf_[s], devicePartials_, taskPartials_, answers_[s],
                  *store_, hostCallsRun(sharded_.memoryBudget(), options_.jobs));
    }

    // One shard: the window and the partials from the same reading of the devices.
    void oneLook() {
        sharded_.visit(0, [&](const semantic::LoadedTrace& trace) {
            layout(trace);
            readWork(trace, 0);
            scout_.look(trace, hostEvents(trace), a_.activity, devicesOf_[0], tasksOf_[0], options_);
            setWindow();
            clock_.end("window", false);
            if (levels_.prepare(options_)) {
                levels_.project(trace, a_.activity, devicesOf_[0]);
                levels_.combine(peers_);
            }
            plan_ = levels_.plan(a_, options_);
            clock_.end("levels", false);
            startPartials();
            partials(trace, 0);
            dropWork(0);
            clock_.end("partials", false);
        });
    }

    // Each look visits every shard on the workers, each shard's devices read for it alone.
    void look(const std::function<void(const semantic::LoadedTrace&, std::size_t)>& use, bool last = false) {
        forEachIndex(n_, options_.jobs, [&](std::size_t s) {
            {
                // Parts larger than their share of the limit are not held by every worker at once.
                MemoryBudget::Hold hold(budget_.get(), budget_ ? sharded_.bytes(s) : 0);
                sharded_.visit(s, [&](const semantic::LoadedTrace& trace) {
                    readWork(trace, s);
                    use(trace, s);
                    dropWork(s);
                });
            }
            if (last) sharded_.release(s);
        });
    }

    // Several shards: the window needs every shard before any device can be measured against it, and where
    // the markers' work ran needs the markers of every task.
    void threeLooks() {
        sharded_.visitLabels([&](const semantic::LoadedTrace& labels) { layout(labels); });
        const bool parallel = options_.jobs > 1;
        {
            std::vector<WindowScout> scouts(n_); // combined in shard order, as one scout would have seen them
            look([&](const semantic::LoadedTrace& trace, std::size_t s) {
                scouts[s].look(trace, hostEvents(trace), a_.activity, devicesOf_[s], tasksOf_[s], options_);
            });
            for (const auto& s : scouts) {
                scout_.combine(s);
                scout_.traceEnd = std::max(scout_.traceEnd, s.traceEnd);
            }
        }
        setWindow();
        clock_.end("window", parallel);
        if (levels_.prepare(options_)) {
            look([&](const semantic::LoadedTrace& trace, std::size_t s) {
                levels_.project(trace, a_.activity, devicesOf_[s]);
            });
            levels_.combine(peers_);
        }
        plan_ = levels_.plan(a_, options_);
        clock_.end("levels", parallel);
        startPartials();
        look([&](const semantic::LoadedTrace& trace, std::size_t s) { partials(trace, s); }, true);
        clock_.end("partials", parallel);
    }

    // This process's partials to the root; true on the root, which holds every process's then.
    bool gather() {
        std::vector<std::size_t> devices, tasks;
        for (std::size_t s = 0; s < n_; ++s) {
            devices.insert(devices.end(), devicesOf_[s].begin(), devicesOf_[s].end());
            tasks.insert(tasks.end(), tasksOf_[s].begin(), tasksOf_[s].end());
        }
        devicePartials_.resize(a_.activity.devices.size());
        taskPartials_.resize(a_.activity.tasks.size());
        if (!peers_->gatherPartials(devices, tasks, devicePartials_, taskPartials_, *store_)) return false;
        clock_.end("gather", false);
        return true;
    }

    void reduce() {
        sharded_.visitLabels([&](const semantic::LoadedTrace& labels) {
            Reduction reduction{devicePartials_, taskPartials_, facts_, answers_.back(),
                                options_,        plan_,         labels, *store_};
            clock_.end("labels", false);
            for (const auto& family : metricFamilies()) {
                family.reduce(a_, reduction);
                clock_.end(reduceStage(family), false);
            }
        });
    }

    const ShardedTrace& sharded_;
    const AnalysisOptions& options_;
    AnalysisPeers* peers_;
    const TraceFacts facts_;
    const std::size_t n_;
    Analysis a_;
    StageClock clock_;
    std::vector<std::vector<std::size_t>> devicesOf_, tasksOf_;
    std::vector<DevicePartial> devicePartials_;
    std::vector<TaskPartial> taskPartials_;
    std::vector<ShardAnswers> answers_; // alike in every shard
    WindowScout scout_;
    LevelScout levels_;
    LevelPlan plan_;
    std::vector<HtaRuleInputs> htaInputs_; // once the evidence of every task is in
    std::unique_ptr<SpillStore> store_;    // the partials' bulk
    std::unique_ptr<MemoryBudget> budget_; // the shards a look holds at once
};

std::optional<Analysis> analyzeParts(const ShardedTrace& sharded, const AnalysisOptions& options,
                                     AnalysisPeers* peers) {
    return ShardAnalysis(sharded, options, peers).run();
}

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

} // namespace gpueff::metrics
