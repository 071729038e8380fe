// Host side: offload efficiency per task (time not blocked in CUDA synchronization, model/host_blocking.cfg)
// and the POP MPI efficiencies when MPI is traced (model/mpi_calls.cfg).
#include "engine/common/Error.h"
#include "engine/paraver/EventTypes.h"
#include "metrics/Analysis.h"
#include "metrics/PopFactors.h"

#include <algorithm>

namespace gpueff::metrics {

namespace {

// Per task: |union over its host threads of the window's intervals| inside the analysis window.
std::vector<std::int64_t> perTask(const CfgRows& cfg, const Analysis& a) {
    std::vector<std::int64_t> out;
    for (const auto& task : a.activity.tasks) {
        std::vector<Spans> rows;
        for (auto row : task.cpuRows) rows.push_back(cfg.row(0, row));
        std::vector<const Spans*> parts;
        for (const auto& r : rows) parts.push_back(&r);
        out.push_back(length(clip(unite(parts), a.window.begin, a.window.end)));
    }
    return out;
}

} // namespace

void computeHostModel(const semantic::LoadedTrace& trace, Analysis& a) {
    const auto T = a.window.duration();
    if (T <= 0) return;
    CfgRows blocking(trace, "model/host_blocking.cfg");
    if (blocking.hasEvents(0)) {
        auto times = perTask(blocking, a);
        for (std::size_t t = 0; t < times.size(); ++t)
            if (!a.activity.tasks[t].cpuRows.empty())
                a.offload.push_back(
                    {t, times[t], static_cast<double>(T - times[t]) / static_cast<double>(T)});
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
    CfgRows mpi(trace, "model/mpi_calls.cfg");
    if (!mpi.hasEvents(0)) return;
    auto times = perTask(mpi, a);
    auto& m = a.mpi;
    m.present = true;
    std::int64_t sum = 0, maximum = 0;
    for (std::size_t t = 0; t < times.size(); ++t) {
        m.tasks.push_back({t, times[t], T - times[t]});
        if (__builtin_add_overflow(sum, T - times[t], &sum))
            throw Error("the analysis window (" + std::to_string(T) +
                        " ns) is too long to sum the tasks' time outside MPI in 64 bits");
        maximum = std::max(maximum, T - times[t]);
    }
    // Useful time of a task: its time outside MPI.
    const pop::SumOver average{static_cast<double>(sum), static_cast<double>(times.size())};
    m.parallel = pop::parallelEfficiency(average, static_cast<double>(T));
    m.loadBalance = pop::loadBalance(average, static_cast<double>(maximum));
    m.communication = pop::communicationEfficiency(static_cast<double>(maximum), static_cast<double>(T));
}

} // namespace gpueff::metrics
