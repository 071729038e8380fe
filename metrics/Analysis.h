#pragma once
// The GPU efficiency analysis of one trace (docs/report.md): what each metric computes from the device
// activity read through the cfgs, per device and overall. Reports turn it into JSON and Markdown.
#include "engine/common/Parallel.h"
#include "metrics/DeviceActivity.h"
#include "metrics/HostEvents.h"
#include "metrics/Levels.h"
#include "metrics/NamePattern.h"
#include "metrics/NsysStats.h"
#include "metrics/SpilledRuns.h"
#include "metrics/TraceOrigin.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::metrics {

inline const char* const kDefaultGemmPattern =
    "gemm|nvjet|cutlass|xmma|cublas|s16816|h884|hmma|sm90_xmma|wgmma";

struct AnalysisOptions {
    std::optional<std::int64_t> begin, end;                 // trace ns
    std::string region;                                     // NVTX range name
    NamePattern gemmPattern{kDefaultGemmPattern};           // kernel names (found in them)
    NamePattern iterationPattern{kDefaultIterationPattern}; // NVTX ranges marking iterations (whole names)
    IterationSource iterationSource = IterationSource::Markers;
    // Per input (TaskInfo::input), for a PyTorch profiler (Kineto) trace: the shift from its clock to the
    // trace's (trace time = Kineto time in ns + shift), so that HTA's rounding to whole Kineto microseconds
    // can be replayed (HtaBreakdown::wholeMicroseconds); absent for other inputs and traces read from files.
    std::vector<std::optional<std::int64_t>> kinetoClockShifts;
    // Shards looked at at once (-j): each worker reads its own shards' devices and tasks.
    unsigned jobs = 1;
};

struct AnalysisWindow {
    std::int64_t begin = 0, end = 0;
    std::string source; // gpu-activity, arguments, region
    std::string region;
    std::int64_t duration() const { return end - begin; }
};

using TimeByLevel = std::map<std::int64_t, std::int64_t>; // level -> ns

struct DeviceTimes {
    std::int64_t compute = 0, nccl = 0, memory = 0; // |union| of each class (graph launches count as compute)
    std::uint64_t kernels = 0, memoryOperations = 0;
    std::map<std::string, std::int64_t> memoryByKind; // copy kind / memset -> |union| of its operations
    std::uint64_t launchedKernels = 0;                // kernels whose launch call was found (launch lines)
    static void fields(auto& s, auto&& f) {
        f("compute", s.compute);
        f("nccl", s.nccl);
        f("memory", s.memory);
        f("kernels", s.kernels);
        f("memoryOperations", s.memoryOperations);
        f("memoryByKind", s.memoryByKind);
        f("launchedKernels", s.launchedKernels);
    }
};

struct Efficiency {
    struct PerDevice {
        std::int64_t useful = 0, communication = 0, idle = 0;
        static void fields(auto& s, auto&& f) {
            f("useful", s.useful);
            f("communication", s.communication);
            f("idle", s.idle);
        }
    };
    std::vector<PerDevice> devices;
    bool computable = false; // false: no device, or no useful time, or an empty window
    double parallel = 0, loadBalance = 0, communication = 0, orchestration = 0;
    std::int64_t usefulSum = 0, usefulMax = 0, activeMax = 0;
};

struct DeviceConcurrency {
    TimeByLevel inFlight, inFlightWithMemory, queued, overlap;
    std::int64_t communication = 0;
    static void fields(auto& s, auto&& f) {
        f("inFlight", s.inFlight);
        f("inFlightWithMemory", s.inFlightWithMemory);
        f("queued", s.queued);
        f("overlap", s.overlap);
        f("communication", s.communication);
    }
};

// The window cut into equal bins: per device, the mean number of kernels executing and the shares of useful
// and communication time (NCCL as communication) in each bin, for plots over time.
struct Timeline {
    double binNs = 0;
    struct Device {
        std::vector<double> inFlight, useful, communication;
        static void fields(auto& s, auto&& f) {
            f("inFlight", s.inFlight);
            f("useful", s.useful);
            f("communication", s.communication);
        }
    };
    std::vector<Device> devices;
};

// The device model of one level of detail (an iteration, a phase's windows, the focus).
struct LevelFigures {
    Efficiency ncclAsCommunication, ncclAsUseful;
    std::optional<double> overlapShare, inFlightMean;
    std::optional<Straggler> straggler;
};

struct Iteration : IterationLevel {
    LevelFigures figures;
};

struct Phase {
    std::string name;
    std::size_t iterations = 0; // steady iterations it occurs in
    std::int64_t time = 0;      // its windows' durations summed
    LevelFigures figures;
};

struct Focus {
    std::size_t first = 0, last = 0; // the first and last steady iteration
    std::int64_t begin = 0, end = 0;
    LevelFigures figures;
};

struct NcclKernelOverlap {
    std::size_t device;
    std::string kernel;
    std::uint64_t instances = 0;
    std::int64_t time = 0, overlapped = 0;
    static void fields(auto& s, auto&& f) {
        f("device", s.device);
        f("kernel", s.kernel);
        f("instances", s.instances);
        f("time", s.time);
        f("overlapped", s.overlapped);
    }
};

struct TensorCoreProfile {
    bool available = false;
    std::string reason, metric;
    std::vector<std::string> kernels;
    struct Row {
        std::size_t task, device;
        std::map<std::string, double> percent; // kernel -> time-weighted mean (absent: no sample)
        static void fields(auto& s, auto&& f) {
            f("task", s.task);
            f("device", s.device);
            f("percent", s.percent);
        }
    };
    std::vector<Row> rows;
};

struct DurationDistribution {
    std::string name;
    std::uint64_t instances = 0;
    struct Bin {
        std::int64_t lower, upper;
        std::uint64_t count;
    };
    std::vector<Bin> bins;
    std::vector<std::int64_t> modes;
};

// Holistic Trace Analysis' (Meta's HTA) definitions of one device, reported beside the POP model so that
// users of both can compare: over the device's own activity span in the window (first start to last end of
// its kernels and memory operations), its idle time, compute time (compute kernels' union) and non-compute
// time; the time compute and NCCL kernels overlap over the NCCL time; the gaps between consecutive operations
// of a stream by cause (HtaBreakdown.cpp).
struct HtaBreakdown {
    // HTA's consecutive_kernel_delay is documented as 30 ns, but HTA compares it with gaps measured in the
    // trace's microseconds: the threshold HTA users get is 30 us (docs/report.md).
    static constexpr std::int64_t kConsecutiveKernelDelayNs = 30000;
    std::int64_t kernelTime = 0, idle = 0, compute = 0, nonCompute = 0;
    std::int64_t ncclTime = 0, computeDuringNccl = 0;
    std::int64_t hostWait = 0, kernelWait = 0, other = 0;

    // HTA's own rules that gpueff does not apply (HtaRules.cpp, docs/report.md): what the device's span, idle
    // and compute time would be under each one alone; absent where the rule changes nothing here.
    struct Reading {
        std::int64_t kernelTime = 0, idle = 0, compute = 0;
        bool operator==(const Reading&) const = default;
        static void fields(auto& s, auto&& f) {
            f("kernelTime", s.kernelTime);
            f("idle", s.idle);
            f("compute", s.compute);
        }
    };
    // HTA keeps only the GPU work launched before the last ProfilerStep#<n> range of the task began.
    struct AfterLastStep {
        std::int64_t stepBegin = 0;
        std::uint64_t dropped = 0;    // operations launched at or after it, or with no launch call
        std::int64_t droppedTime = 0; // |union of them| in the window
        Reading reading;
        static void fields(auto& s, auto&& f) {
            f("stepBegin", s.stepBegin);
            f("dropped", s.dropped);
            f("droppedTime", s.droppedTime);
            f("reading", s.reading);
        }
    };
    // HTA counts the host events that carry a CUDA stream argument as GPU work.
    struct StreamHostEvents {
        std::uint64_t events = 0;
        std::int64_t time = 0; // their durations in the window, summed
        Reading reading;
        static void fields(auto& s, auto&& f) {
            f("events", s.events);
            f("time", s.time);
            f("reading", s.reading);
        }
    };
    std::optional<AfterLastStep> afterLastStep;
    std::optional<Reading> wholeMicroseconds; // every start rounded up, every end down, in the Kineto clock
    std::optional<StreamHostEvents> streamHostEvents;
    static void fields(auto& s, auto&& f) {
        f("kernelTime", s.kernelTime);
        f("idle", s.idle);
        f("compute", s.compute);
        f("nonCompute", s.nonCompute);
        f("ncclTime", s.ncclTime);
        f("computeDuringNccl", s.computeDuringNccl);
        f("hostWait", s.hostWait);
        f("kernelWait", s.kernelWait);
        f("other", s.other);
        f("afterLastStep", s.afterLastStep);
        f("wholeMicroseconds", s.wholeMicroseconds);
        f("streamHostEvents", s.streamHostEvents);
    }
};

// What HTA's rules read of one task's host rows (HtaRules.cpp): the begin of its last ProfilerStep#<n> range
// and the names of those ranges, and the host events carrying a CUDA stream argument (a Kineto trace's NVTX
// ranges with the JSON payload {"stream": N}, docs/events.md "Kineto"), value 1 when HTA counts it as a
// compute kernel by its name.
struct HtaTaskEvidence {
    std::int64_t lastStepBegin = INT64_MIN;
    std::vector<std::string> stepNames; // sorted, distinct
    Spans streamEvents;                 // sorted by begin
    static void fields(auto& s, auto&& f) {
        f("lastStepBegin", s.lastStepBegin);
        f("stepNames", s.stepNames);
        f("streamEvents", s.streamEvents);
    }
    void combine(const HtaTaskEvidence& other);
};

struct GapSummary {
    std::uint64_t count = 0, hostWaitCount = 0, kernelWaitCount = 0;
    std::int64_t total = 0, hostWait = 0, kernelWait = 0;
    // Gaps by duration: bin b holds [kGapBinBase 4^(b-1), kGapBinBase 4^b) ns (bin 0: below kGapBinBase).
    static constexpr std::int64_t kGapBinBase = 1000;
    static constexpr std::size_t kGapBins = 9;
    std::vector<std::uint64_t> binCount = std::vector<std::uint64_t>(kGapBins, 0);
    std::vector<std::int64_t> binTime = std::vector<std::int64_t>(kGapBins, 0);
    static void fields(auto& s, auto&& f) {
        f("count", s.count);
        f("hostWaitCount", s.hostWaitCount);
        f("kernelWaitCount", s.kernelWaitCount);
        f("total", s.total);
        f("hostWait", s.hostWait);
        f("kernelWait", s.kernelWait);
        f("binCount", s.binCount);
        f("binTime", s.binTime);
    }
    static std::size_t binOf(std::int64_t ns) {
        std::size_t b = 0;
        for (std::int64_t upper = kGapBinBase; ns >= upper && b + 1 < kGapBins; upper *= 4) ++b;
        return b;
    }
};

struct HostOffload {
    std::size_t task;
    std::int64_t blocking = 0;
    double efficiency = 0;
    // With the time blocked inside launch calls when the launch queue was full (HostModel.cpp), when the
    // trace's launch lines carry the calls' ends.
    std::optional<std::int64_t> launchBlocked, blockingWithLaunches;
    std::optional<double> efficiencyWithLaunches;
};

struct MpiModel {
    bool present = false;
    double parallel = 0, loadBalance = 0, communication = 0;
    struct Task {
        std::size_t task;
        std::int64_t mpi = 0, outside = 0;
    };
    std::vector<Task> tasks;
};

// Facts of the whole trace that decide how every device is read, known before any part of it is (a part
// of the trace holds the communications of its own rows only).
struct TraceFacts {
    bool communications = false;          // the trace has communication records
    bool launchLinesCarryCallEnds = true; // launchLinesCarryCallEnds (TraceOrigin.h) of the whole trace
};
TraceFacts factsOf(const semantic::LoadedTrace& trace);

// What the analysis keeps of one device once its records have been read: its results without the intervals
// they came from, so a part of the trace can be dropped before the next is read. Reduced over the devices.
// It and what it holds list their fields once (`fields`), by which jobs/PartCodec carries them between the
// processes of a distributed analysis: a field added here travels without touching the encoding.
struct DevicePartial {
    DeviceTimes times;
    Efficiency::PerDevice asCommunication, asUseful; // NCCL as communication / as useful work
    DeviceConcurrency concurrency;
    Timeline::Device timeline;
    std::vector<NcclKernelOverlap> ncclOverlap;
    std::optional<TensorCoreProfile::Row> tensorCore; // when it has a GPU-metrics row with samples
    std::vector<std::string> gemms;                   // the GEMM kernel names it ran in the window
    std::vector<KernelRow> kernelSummary;
    SpilledRuns durations; // kernel name -> its instances' durations
    GapSummary gaps;
    std::uint64_t overlappingRecords = 0; // overlappingWorkRecords of its rows
    std::vector<LevelPartial> levels;     // per window of the level plan
    // Of the kernels beginning in the window: NCCL kernel name -> starts (in order); compute kernel name ->
    // durations of the instances that ran during communication on the device, and of the others.
    SpilledRuns ncclArrivals, overlappedDurations, aloneDurations;
    // Compute kernel name -> Tensor Active integral and ns covered, of the overlapped and the other
    // instances.
    std::map<std::string, std::array<double, 4>> tensorByOverlap;
    MemoryPartial memoryOperations; // of the whole trace, for nsys_stats
    HtaBreakdown hta;
    static void fields(auto& s, auto&& f) {
        f("times", s.times);
        f("asCommunication", s.asCommunication);
        f("asUseful", s.asUseful);
        f("concurrency", s.concurrency);
        f("timeline", s.timeline);
        f("ncclOverlap", s.ncclOverlap);
        f("tensorCore", s.tensorCore);
        f("gemms", s.gemms);
        f("kernelSummary", s.kernelSummary);
        f("durations", s.durations);
        f("gaps", s.gaps);
        f("overlappingRecords", s.overlappingRecords);
        f("levels", s.levels);
        f("ncclArrivals", s.ncclArrivals);
        f("overlappedDurations", s.overlappedDurations);
        f("aloneDurations", s.aloneDurations);
        f("tensorByOverlap", s.tensorByOverlap);
        f("memoryOperations", s.memoryOperations);
        f("hta", s.hta);
    }
};

// Of one task: the union of its host threads' time blocked in synchronization and in MPI, in the window; its
// NVTX ranges and CUDA API calls over the whole trace (nsys_stats).
struct TaskPartial {
    std::int64_t blocking = 0, mpi = 0;
    std::int64_t launchBlocked = 0, blockingWithLaunches = 0; // HostOffload
    HostCallsPartial calls;
    static void fields(auto& s, auto&& f) {
        f("blocking", s.blocking);
        f("mpi", s.mpi);
        f("launchBlocked", s.launchBlocked);
        f("blockingWithLaunches", s.blockingWithLaunches);
        f("calls", s.calls);
    }
};

// A peer's SpillStore appended to this process's at `base`: its partials' references moved there.
void relocate(DevicePartial& partial, std::uint64_t base);
void relocate(TaskPartial& partial, std::uint64_t base);

struct Analysis {
    TraceWriter writer = TraceWriter::Other; // what the metrics may assume of the records (TraceOrigin.h)
    // A trace cut by gpueff cut: its time 0 is this many ns of the trace it was cut from (chained cuts
    // summed).
    std::optional<std::int64_t> cutShift;
    AnalysisWindow window;
    DeviceActivity activity; // devices and tasks (their work is dropped once read)
    std::vector<DeviceTimes> times;
    Efficiency ncclAsCommunication, ncclAsUseful;
    std::vector<DeviceConcurrency> concurrency;
    bool queuedAvailable = false;
    Timeline timeline;
    std::vector<NcclKernelOverlap> ncclOverlap;
    TensorCoreProfile tensorCore;
    std::vector<KernelRow> kernelSummary;
    std::vector<std::vector<KernelRow>> kernelSummaryByDevice;
    std::vector<DurationDistribution> durations;
    std::vector<GapSummary> gaps;
    std::vector<HostOffload> offload;
    MpiModel mpi;
    IterationDetection iterationDetection;
    std::vector<Iteration> iterations;
    std::optional<Focus> focus;
    std::vector<Phase> phases;
    Collectives collectives;
    std::vector<KernelOverlapRow> kernelOverlap;
    NsysStats nsysStats;
    std::vector<HtaBreakdown> hta;  // per device
    std::vector<std::string> notes; // what could not be computed, and why
    std::vector<StageTime> stages;  // where the analysis spent its time (--stats; not in the report)
};

// A trace the analysis reads in parts (shards): each shard holds the records of some analysis units
// (DeviceActivity.h) and the labels, layout, end time and event types of the whole trace. Different shards
// may be visited at once, from AnalysisOptions::jobs threads; their sum fits the memory limit then.
class ShardedTrace {
public:
    virtual ~ShardedTrace() = default;
    virtual std::size_t shards() const = 0;
    virtual std::vector<std::uint32_t> unitsOf(std::size_t shard) const = 0;
    virtual TraceFacts facts() const = 0;
    // Loads shard `shard` and calls `use` with it; the shard is dropped when `use` returns.
    virtual void visit(std::size_t shard,
                       const std::function<void(const semantic::LoadedTrace&)>& use) const = 0;
    // The analysis is done with the shard (it may be dropped from memory).
    virtual void release(std::size_t) const {}
    // Calls `use` with the whole trace's labels and layout and no records (names of values the partials
    // carry).
    virtual void visitLabels(const std::function<void(const semantic::LoadedTrace&)>& use) const = 0;
    // A task's host events (HostEvents.h) to `walker`, while the shard holding its host rows is visited
    // (`trace`, the visit's): from the loaded shard's columns, or from wherever a sharded trace that leaves
    // them out of its shards keeps them.
    virtual void walkHostEvents(const semantic::LoadedTrace& trace, const TaskInfo& task,
                                HostEventWalker& walker) const {
        walkHostColumns(trace, task, walker);
    }
    // Where the partials' bulk may wait for the reduction (a SpillStore's temporary file); none: in memory.
    virtual std::optional<std::filesystem::path> spillDirectory() const { return std::nullopt; }
    // What a shard takes in memory while it is visited, and how much the shards visited at once may take
    // together (0: no bound): a look starts a shard on a worker only when it fits (MemoryBudget).
    virtual std::uint64_t bytes(std::size_t) const { return 0; }
    virtual std::uint64_t memoryBudget() const { return 0; }
};

// What the first look at a trace's shards finds for the default window: the span of the GPU activity and
// of the --region's closed ranges.
// Also the iteration markers and the phases nested in them (the tasks' host rows), the iterations detected on
// the first device, and, in a second look once the markers are known, where their GPU work ran.
struct WindowEvidence {
    std::int64_t activityBegin = INT64_MAX, activityEnd = INT64_MIN;
    std::int64_t regionFirst = INT64_MAX, regionLast = INT64_MIN;
    std::vector<HostRange> markers, phases;
    std::optional<DetectedIterations> detected;
    Projection markerWork, phaseWork; // per marker / phase range of the combined, sorted lists
    bool launchLines = false;         // some device has launch lines (the markers can be placed on the GPU)
    std::map<std::uint32_t, HtaTaskEvidence> hta; // task -> what HTA's rules read of its host rows
    static void fields(auto& s, auto&& f) {
        f("activityBegin", s.activityBegin);
        f("activityEnd", s.activityEnd);
        f("regionFirst", s.regionFirst);
        f("regionLast", s.regionLast);
        f("markers", s.markers);
        f("phases", s.phases);
        f("detected", s.detected);
        f("markerWork", s.markerWork);
        f("phaseWork", s.phaseWork);
        f("launchLines", s.launchLines);
        f("hta", s.hta);
    }
    void combine(const WindowEvidence& other);
};

// The processes of a distributed analysis (jobs/Distributed.h), each holding the shards of its own
// analysis units: what one process cannot see alone comes through here.
class AnalysisPeers {
public:
    virtual ~AnalysisPeers() = default;
    // Every process's evidence combined, on every process.
    virtual WindowEvidence combineWindow(const WindowEvidence& mine) = 0;
    // Sends this process's partials (those of `devices` and `tasks`, indices into the vectors, their bulk in
    // `store`) to the root, which receives every process's into its vectors and its store; true on the root.
    virtual bool gatherPartials(const std::vector<std::size_t>& devices,
                                const std::vector<std::size_t>& tasks,
                                std::vector<DevicePartial>& devicePartials,
                                std::vector<TaskPartial>& taskPartials, SpillStore& store) = 0;
};

Analysis analyze(const semantic::LoadedTrace& trace, const AnalysisOptions& options);
// The same analysis, shard by shard (equal to analyze() of the whole trace).
Analysis analyze(const ShardedTrace& trace, const AnalysisOptions& options);
// This process's part of a distributed analysis: the analysis of the whole trace on the root, nothing on the
// others.
std::optional<Analysis> analyze(const ShardedTrace& trace, const AnalysisOptions& options,
                                AnalysisPeers& peers);

// The event types the analysis reads (paraver::ReadOptions::eventTypes): GPU activity with the bytes of
// memory operations, synchronization, GPU metrics, MPI calls, CUDA API calls and NVTX ranges (the nsys_stats
// summaries, the --region window and the iteration markers).
std::vector<std::pair<std::uint32_t, std::uint32_t>> eventTypesRead();

// The label of value `value` of event type `type` in the .pcf (or "<type>:<value>").
std::string valueName(const semantic::LoadedTrace&, std::uint32_t type, std::int64_t value);

} // namespace gpueff::metrics
