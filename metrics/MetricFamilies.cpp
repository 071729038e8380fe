#include "metrics/MetricFamilies.h"

#include "metrics/LevelParts.h"
#include "metrics/TraceOrigin.h"

namespace gpueff::metrics {

namespace {

// Each row adapts its family's functions (declared in AnalysisParts.h and LevelParts.h, defined in a file of
// their own) to the catalogue's one signature.
constexpr MetricFamily kFamilies[] = {
    {"GPU efficiency model (devices, efficiency)",
     [](const DeviceShard& c, DevicePartial& p) {
         deviceModelOf(c.device, c.unions, c.shard.window.duration(), p);
         breakdownOf(c.shard, c.device, p);
     },
     nullptr, [](Analysis& a, Reduction& r) { reduceDeviceModel(a, r.devices); }},
    {"HTA's definitions (hta)",
     [](const DeviceShard& c, DevicePartial& p) { htaOf(c.shard, c.device, c.unions, c.hta, p); }, nullptr,
     [](Analysis& a, Reduction& r) {
         for (const auto& p : r.devices) a.hta.push_back(p.hta);
     }},
    {"concurrency (kernels_in_flight, kernels_queued, overlap, nccl_overlap)",
     [](const DeviceShard& c, DevicePartial& p) { concurrencyOf(c.shard, c.index, c.device, c.unions, p); },
     nullptr, [](Analysis& a, Reduction& r) { reduceConcurrency(a, r.devices, r.facts, r.answers); }},
    {"timeline",
     [](const DeviceShard& c, DevicePartial& p) {
         timelineOf(c.shard.window, kTimelineBins, c.device, c.unions, p);
     },
     nullptr, [](Analysis& a, Reduction& r) { reduceTimeline(a, kTimelineBins, r.devices); }},
    {"tensor cores (tensor_core)",
     [](const DeviceShard& c, DevicePartial& p) { tensorCoreOf(c.shard, c.index, c.device, p); }, nullptr,
     [](Analysis& a, Reduction& r) {
         reduceTensorCore(a, r.options.gemmPattern.text(), r.devices, r.answers);
     }},
    {"kernel statistics (kernel_summary, kernel_durations, gaps, kernel_categories)",
     [](const DeviceShard& c, DevicePartial& p) { kernelStatisticsOf(c.shard, c.device, c.unions, p); },
     nullptr,
     [](Analysis& a, Reduction& r) {
         reduceKernelStatistics(a, r.devices, r.answers, r.options.jobs, r.store);
     }},
    {"host side (host: offload, MPI)", nullptr,
     [](const ShardReader& shard, const TaskInfo& task, TaskPartial& p) { p = taskOf(shard, task); },
     [](Analysis& a, Reduction& r) { reduceHostModel(a, r.tasks, r.answers); }},
    {"levels of detail (iterations, focus, phases, collectives, kernel_overlap)",
     [](const DeviceShard& c, DevicePartial& p) { levelsOf(c.plan, c.shard, c.device, c.unions, p); },
     nullptr, [](Analysis& a, Reduction& r) { reduceLevels(a, r.plan, r.devices, r.options.jobs, r.store); }},
    {"nsys stats (nsys_stats)",
     [](const DeviceShard& c, DevicePartial& p) { memoryOperationsOf(c.shard, c.device, p); },
     [](const ShardReader& shard, const TaskInfo& task, TaskPartial& p) { hostCallsOf(shard, task, p); },
     [](Analysis& a, Reduction& r) { reduceNsysStats(a, r.devices, r.tasks, r.labels, r.store); }},
    // Last: the notes on what the trace's writer could not record.
    {"the trace's limits (notes)",
     [](const DeviceShard& c, DevicePartial& p) {
         p.overlappingRecords = overlappingWorkRecords(c.shard.trace, c.device.rows);
     },
     nullptr,
     [](Analysis& a, Reduction& r) {
         std::uint64_t overlapping = 0;
         for (const auto& p : r.devices) overlapping += p.overlappingRecords;
         noteWhatTheTraceLacks(a, overlapping);
     }},
};

} // namespace

std::span<const MetricFamily> metricFamilies() {
    return kFamilies;
}

} // namespace gpueff::metrics
