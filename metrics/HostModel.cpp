// Host side: offload efficiency per task (time not blocked in CUDA synchronization, model/host_blocking.cfg)
// and the POP MPI efficiencies when MPI is traced (model/mpi_calls.cfg).
#include "engine/common/Error.h"
#include "engine/paraver/EventTypes.h"
#include "metrics/AnalysisParts.h"
#include "metrics/PopFactors.h"

#include <algorithm>

namespace gpueff::metrics {

namespace {

// |union over the task's host threads of the window's intervals| inside the analysis window.
std::int64_t unionOfRows(const CfgRows& cfg, const TaskInfo& task, const AnalysisWindow& window) {
    std::vector<Spans> rows;
    for (auto row : task.cpuRows) rows.push_back(cfg.row(0, row));
    std::vector<const Spans*> parts;
    for (const auto& r : rows) parts.push_back(&r);
    return length(clip(unite(parts), window.begin, window.end));
}

} // namespace

TaskPartial taskOf(const ShardReader& shard, const TaskInfo& task) {
    TaskPartial out;
    if (shard.window.duration() <= 0) return out;
    if (shard.blockingEvents) out.blocking = unionOfRows(shard.blocking, task, shard.window);
    if (shard.mpiEvents) out.mpi = unionOfRows(shard.mpi, task, shard.window);
    return out;
}

void reduceHostModel(Analysis& a, const std::vector<TaskPartial>& tasks, const ShardAnswers& answers) {
    const auto T = a.window.duration();
    if (T <= 0) return;
    if (answers.blockingEvents) {
        for (std::size_t t = 0; t < tasks.size(); ++t)
            if (!a.activity.tasks[t].cpuRows.empty())
                a.offload.push_back({t, tasks[t].blocking,
                                     static_cast<double>(T - tasks[t].blocking) / static_cast<double>(T)});
    } else {
        const auto type = std::to_string(paraver::types::kSynchronization);
        a.notes.push_back(
            a.writer == TraceWriter::Nsys2prv
                ? "host offload efficiency not computed: nsys2prv writes no CUDA synchronization "
                  "records (event type " +
                      type + ", written by gpueff translate)"
                : "host offload efficiency not computed: the trace has no CUDA synchronization "
                  "records (event type " +
                      type + "; export with CUDA API tracing)");
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
