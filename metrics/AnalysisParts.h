#pragma once
// The parts of the analysis (metrics/Analysis.cpp runs them): each computes one device's or one task's
// partial results while the shard holding its rows is in memory, and a reduction turns the partials of every
// device into the figures of the whole trace, with the notes, in the order of the report.
#include "metrics/Analysis.h"

namespace gpueff::metrics {

// Per device, inside the window: each class's intervals merged (graph launches count as compute), shared by
// the device's metrics.
struct DeviceUnions {
    Spans compute, nccl, memory;
};

// What the per-device and per-task parts share while one shard is in memory: the trace, the window, the
// cfgs they evaluate, and whether the whole trace has what each needs (the shard's event types are the whole
// trace's, so every shard answers alike).
class ShardReader {
public:
    ShardReader(const semantic::LoadedTrace& trace, const HostEventSource& hostEvents,
                const AnalysisWindow& window, const TraceFacts& facts, const NamePattern& gemm,
                SpillStore& store);
    const semantic::LoadedTrace& trace;
    const HostEventSource& hostEvents; // the host events of the shard's tasks (the trace may lack them)
    std::uint64_t callsPerRun = hostCallsRun(0, 1); // a task's host calls packed at once (HostCallsRun)
    SpillStore& store;                              // where the partials' bulk waits for the reduction
    const AnalysisWindow& window;
    const TraceFacts& facts;
    CfgRows queued, transit, tensor, blocking, mpi;
    bool queuedLines, queuedAvailable, classifyGaps, tensorSamples, blockingEvents, mpiEvents;
    bool isGemm(std::int64_t kernelValue) const;

private:
    const NamePattern& gemm_;
    mutable std::map<std::int64_t, bool> isGemm_;
};

DeviceUnions deviceUnions(const Device& device, const AnalysisWindow& window);
void deviceModelOf(const Device&, const DeviceUnions&, std::int64_t windowNs, DevicePartial&);
void concurrencyOf(const ShardReader&, std::size_t index, const Device&, const DeviceUnions&, DevicePartial&);
void timelineOf(const AnalysisWindow&, std::size_t bins, const Device&, const DeviceUnions&, DevicePartial&);
void tensorCoreOf(const ShardReader&, std::size_t index, const Device&, DevicePartial&);
// The device's Tensor Active samples (each holds until the next), when the trace has them for it.
std::optional<Spans> tensorSamples(const ShardReader&, const Device&);
// Adds the samples' integral over [begin, end) and the ns they cover.
void addTensorActivity(const Spans& samples, std::int64_t begin, std::int64_t end, double& integral,
                       std::int64_t& covered);
void kernelStatisticsOf(const ShardReader&, const Device&, const DeviceUnions&, DevicePartial&);
TaskPartial taskOf(const ShardReader&, const TaskInfo&);
// The device's memory time by kind and its kernels matched to a launch call (DeviceTimes).
void breakdownOf(const ShardReader&, const Device&, DevicePartial&);
// What HTA's own rules need of the rest of the trace for one device (HtaRules.cpp): the begin of its task's
// last ProfilerStep when HTA filters by it, the clock of its Kineto input, its task's host events with a
// CUDA stream (on the task's first device only).
struct HtaRuleInputs {
    std::optional<std::int64_t> stepBegin, clockShift;
    const Spans* streamEvents = nullptr;
};
// HTA's evidence on the host rows (the ProfilerStep ranges, the host events with a CUDA stream), task by
// task into out.hta: task t's walker reads its host events and leaves what it found at the walk's end.
// `trace` names the values.
TaskWalkers htaEvidence(const semantic::LoadedTrace& trace, WindowEvidence& out);
// Per device, from the evidence of the whole trace.
std::vector<HtaRuleInputs> htaRuleInputs(const WindowEvidence& evidence, const AnalysisOptions& options,
                                         const DeviceActivity& activity);
// One operation of a device: its interval, the start of its launch call (-1: none found), and whether it is
// compute work (compute kernels and graph launches).
struct HtaOperation {
    std::int64_t begin, end, launch;
    bool compute;
};
// HTA's temporal breakdown, overlap and idle time by cause (HtaBreakdown), and what HTA's own rules would
// make of them (htaRulesOf).
void htaOf(const ShardReader&, const Device&, const DeviceUnions&, const HtaRuleInputs&, DevicePartial&);
void htaRulesOf(const AnalysisWindow& window, const std::vector<HtaOperation>& operations,
                const HtaRuleInputs& inputs, HtaBreakdown& out);
// nsys_stats (metrics/NsysStats.cpp): the memory operations of a device's rows, the NVTX ranges and CUDA API
// calls of a task's host rows, whole trace.
void memoryOperationsOf(const ShardReader&, const Device&, DevicePartial&);
void hostCallsOf(const ShardReader&, const TaskInfo&, TaskPartial&);

// A summary row of `values` (sorted here), its share left at 0 (KernelRow).
KernelRow summaryRow(const std::string& name, std::vector<std::int64_t>& values);

// What the shards said alike of the whole trace, for the reductions.
struct ShardAnswers {
    bool queuedLines = false, queuedAvailable = false, classifyGaps = false, tensorSamples = false,
         blockingEvents = false, mpiEvents = false;
    bool launchCallEnds = false; // launch lines exist and carry the calls' ends (HostOffload's launches)
};

void reduceDeviceModel(Analysis&, const std::vector<DevicePartial>&);
void reduceConcurrency(Analysis&, const std::vector<DevicePartial>&, const TraceFacts&, const ShardAnswers&);
void reduceTimeline(Analysis&, std::size_t bins, const std::vector<DevicePartial>&);
void reduceTensorCore(Analysis&, const std::string& gemmPattern, const std::vector<DevicePartial>&,
                      const ShardAnswers&);
void reduceKernelStatistics(Analysis&, const std::vector<DevicePartial>&, const ShardAnswers&, unsigned jobs,
                            const SpillStore& store);
void reduceHostModel(Analysis&, const std::vector<TaskPartial>&, const ShardAnswers&);
// Takes the partials' summary data (their memory operations and host calls are left empty); `labels` (a
// trace with the whole trace's labels) names the rows listed.
void reduceNsysStats(Analysis&, std::vector<DevicePartial>&, std::vector<TaskPartial>&,
                     const semantic::LoadedTrace& labels, const SpillStore& store);
void noteWhatTheTraceLacks(Analysis&, std::uint64_t overlappingRecords); // last: the writer's limits

} // namespace gpueff::metrics
