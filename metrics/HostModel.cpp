// Host side: offload efficiency per task (time not blocked in CUDA synchronization, model/host_blocking.cfg)
// and the POP MPI efficiencies when MPI is traced (model/mpi_calls.cfg).
#include "engine/common/Error.h"
#include "engine/paraver/EventTypes.h"
#include "metrics/AnalysisParts.h"
#include "metrics/PopFactors.h"

#include <algorithm>

namespace gpueff::metrics {

namespace {

// The union over the task's host threads of the window's intervals, inside the analysis window.
Spans unionOfRows(const CfgRows& cfg, const TaskInfo& task, const AnalysisWindow& window) {
    std::vector<Spans> rows;
    for (auto row : task.cpuRows) rows.push_back(cfg.row(0, row));
    std::vector<const Spans*> parts;
    for (const auto& r : rows) parts.push_back(&r);
    return clip(unite(parts), window.begin, window.end);
}

// A launch call returns once its work is queued; when the device's launch queue is full it blocks until a
// slot frees. A call longer than kBlockedFactor times the task's median launch call (the upper middle value)
// is blocked for the time beyond that median: [begin + median, end). The call's end is the line's physical
// send (min(call end, GPU start)), so a call whose work started before it returned counts only up to that
// start.
constexpr std::int64_t kBlockedFactor = 4;

Spans launchBlocking(const semantic::LoadedTrace& trace, const TaskInfo& task) {
    namespace types = paraver::types;
    std::vector<std::pair<std::int64_t, std::int64_t>> calls;
    const auto& comms = trace.trace().communications;
    for (auto row : task.cpuRows)
        for (auto c : trace.trace().threads[row].sends)
            if (comms[c].tag == types::kTagKernelLaunch || comms[c].tag == types::kTagMemoryLaunch)
                calls.push_back({comms[c].logicalSend, comms[c].physicalSend});
    Spans blocked;
    if (calls.empty()) return blocked;
    std::vector<std::int64_t> durations;
    for (auto [b, e] : calls) durations.push_back(e - b);
    auto middle = durations.begin() + static_cast<std::ptrdiff_t>(durations.size() / 2);
    std::nth_element(durations.begin(), middle, durations.end());
    const std::int64_t median = *middle;
    for (auto [b, e] : calls)
        if (e - b > kBlockedFactor * median && e - b > 0) blocked.push_back({b + median, e, 1});
    std::sort(blocked.begin(), blocked.end(), [](const Span& x, const Span& y) { return x.begin < y.begin; });
    return unite({&blocked});
}

} // namespace

TaskPartial taskOf(const ShardReader& shard, const TaskInfo& task) {
    TaskPartial out;
    if (shard.window.duration() <= 0) return out;
    if (shard.blockingEvents) {
        auto sync = unionOfRows(shard.blocking, task, shard.window);
        out.blocking = length(sync);
        if (shard.facts.launchLinesCarryCallEnds) {
            auto launches = clip(launchBlocking(shard.trace, task), shard.window.begin, shard.window.end);
            out.launchBlocked = length(launches);
            out.blockingWithLaunches = length(unite({&sync, &launches}));
        }
    }
    if (shard.mpiEvents) out.mpi = length(unionOfRows(shard.mpi, task, shard.window));
    return out;
}

void reduceHostModel(Analysis& a, const std::vector<TaskPartial>& tasks, const ShardAnswers& answers) {
    const auto T = a.window.duration();
    if (T <= 0) return;
    if (answers.blockingEvents) {
        for (std::size_t t = 0; t < tasks.size(); ++t)
            if (!a.activity.tasks[t].cpuRows.empty()) {
                HostOffload o{t,
                              tasks[t].blocking,
                              static_cast<double>(T - tasks[t].blocking) / static_cast<double>(T),
                              {},
                              {},
                              {}};
                if (a.writer != TraceWriter::Nsys2prv && answers.launchCallEnds) {
                    o.launchBlocked = tasks[t].launchBlocked;
                    o.blockingWithLaunches = tasks[t].blockingWithLaunches;
                    o.efficiencyWithLaunches =
                        static_cast<double>(T - tasks[t].blockingWithLaunches) / static_cast<double>(T);
                }
                a.offload.push_back(o);
            }
    } else {
        const auto type = std::to_string(paraver::types::kSynchronization);
        a.notes.push_back(
            a.writer == TraceWriter::Nsys2prv
                ? "host offload efficiency not computed: nsys2prv writes no CUDA synchronization "
                  "records (event type " +
                      type + ", written by gpueff translate)"
                : "host offload efficiency not computed: the trace has no CUDA synchronization "
                  "records (event type " +
                      type +
                      "; recorded by nsys with CUDA API tracing, by torch.profiler as cuda_sync "
                      "events with _ExperimentalConfig(enable_cuda_sync_events=True))");
    }
    if (!answers.mpiEvents) return;
    auto& m = a.mpi;
    m.present = true;
    std::int64_t sum = 0, maximum = 0;
    for (std::size_t t = 0; t < tasks.size(); ++t) {
        const auto outside = T - tasks[t].mpi;
        m.tasks.push_back({t, tasks[t].mpi, outside});
        if (__builtin_add_overflow(sum, outside, &sum))
            throw Error("the analysis window (" + std::to_string(T) +
                        " ns) is too long to sum the tasks' time outside MPI in 64 bits");
        maximum = std::max(maximum, outside);
    }
    // Useful time of a task: its time outside MPI.
    const pop::SumOver average{static_cast<double>(sum), static_cast<double>(tasks.size())};
    m.parallel = pop::parallelEfficiency(average, static_cast<double>(T));
    m.loadBalance = pop::loadBalance(average, static_cast<double>(maximum));
    m.communication = pop::communicationEfficiency(static_cast<double>(maximum), static_cast<double>(T));
}

} // namespace gpueff::metrics
