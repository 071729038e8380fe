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
        if (auto label = t->second.find(value)) return std::string(*label);
    return std::to_string(type) + ":" + std::to_string(value);
}

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

void relocate(DevicePartial& p, std::uint64_t base) {
    for (auto* runs : {&p.durations, &p.ncclArrivals, &p.overlappedDurations, &p.aloneDurations})
        for (auto& [name, run] : *runs) run.ref.offset += base;
    for (auto& [name, ops] : p.memoryOperations) {
        ops.durations.ref.offset += base;
        ops.bytes.ref.offset += base;
    }
}

void relocate(TaskPartial& p, std::uint64_t base) {
    for (auto& run : p.calls.runs) run.bulk.offset += base;
}

ShardReader::ShardReader(const semantic::LoadedTrace& t, const HostEventSource& events,
                         const AnalysisWindow& w, const TraceFacts& f, const NamePattern& gemm,
                         SpillStore& spill)
    : trace(t), hostEvents(events), store(spill), window(w), facts(f),
      queued(t, "analysis/kernels_queued.cfg"), transit(t, "analysis/launches_in_transit.cfg"),
      tensor(t, "hwcounters/tensor_active.cfg"), blocking(t, "model/host_blocking.cfg"),
      mpi(t, "model/mpi_calls.cfg"), queuedLines(queued.hasEvents(0) && f.communications),
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

} // namespace gpueff::metrics
