#include "engine/nsys/TaskLayout.h"

#include "engine/common/Error.h"

#include <algorithm>
#include <set>

namespace gpueff::nsys {

namespace {
struct ProcessRef {
    std::size_t report;
    std::int64_t globalPid;
    const ReportObjects::Process* objects;
    std::string host;
};
} // namespace

// Tasks ordered by MPI rank when known, else by host then PID; nodes are hosts in task order.
paraver::TraceLayout buildTaskLayout(const std::vector<std::unique_ptr<NsysExport>>& reports,
                                     const std::vector<ReportObjects>& objects, bool threadNames,
                                     std::vector<std::unique_ptr<ReportContext>>& contexts) {
    std::vector<ProcessRef> procs;
    for (std::size_t r = 0; r < reports.size(); ++r)
        for (const auto& [pid, p] : objects[r].processes)
            if (!p.threads.empty() || !p.streams.empty()) procs.push_back({r, pid, &p, reports[r]->host()});
    std::sort(procs.begin(), procs.end(), [](const ProcessRef& a, const ProcessRef& b) {
        bool ra = a.objects->mpiRank >= 0, rb = b.objects->mpiRank >= 0;
        if (ra != rb) return ra;
        if (ra && a.objects->mpiRank != b.objects->mpiRank) return a.objects->mpiRank < b.objects->mpiRank;
        if (a.host != b.host) return a.host < b.host;
        if (pidOf(a.globalPid) != pidOf(b.globalPid)) return pidOf(a.globalPid) < pidOf(b.globalPid);
        return a.report < b.report;
    });
    for (std::size_t i = 1; i < procs.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (procs[i].report != procs[j].report && procs[i].host == procs[j].host &&
                pidOf(procs[i].globalPid) == pidOf(procs[j].globalPid) &&
                reports[procs[i].report]->utcEpochNs() == reports[procs[j].report]->utcEpochNs())
                throw Error(reports[procs[i].report]->path().string() + ": process " +
                            std::to_string(pidOf(procs[i].globalPid)) + " on host " + procs[i].host +
                            " is also in " + reports[procs[j].report]->path().string() +
                            " (the same report given twice?)");
    paraver::TraceLayout layout;
    for (std::size_t r = 0; r < reports.size(); ++r) contexts[r]->laneOf = objects[r].laneOf;
    for (const auto& p : procs) {
        auto node = std::find(layout.nodes.begin(), layout.nodes.end(), p.host);
        if (node == layout.nodes.end()) node = layout.nodes.insert(layout.nodes.end(), p.host);
        std::string pname = reports[p.report]->processName(p.globalPid);
        auto task = layout.addTask((pname.empty() ? "process" : pname) + " " +
                                       std::to_string(pidOf(p.globalPid)) + "@" + p.host,
                                   static_cast<std::uint32_t>(node - layout.nodes.begin()));
        layout.tasks[task].host = p.host;
        layout.tasks[task].pid = pidOf(p.globalPid);
        layout.tasks[task].input = static_cast<std::uint32_t>(p.report);
        auto& ctx = *contexts[p.report];
        for (auto tid : p.objects->threads) {
            std::uint32_t local = static_cast<std::uint32_t>(layout.tasks[task].rows.size()) + 1;
            std::string label = "THREAD 1." + std::to_string(task + 1) + "." + std::to_string(local);
            if (threadNames) {
                std::string n = reports[p.report]->threadName(tid);
                label = (n.empty() ? "thread" : n) + " " + std::to_string(tidOf(tid));
            }
            ctx.threadRows[tid] = layout.addRow(task, paraver::RowKind::CpuThread, label);
        }
        for (const auto& s : p.objects->streams) {
            std::string label = "CUDA-D" + std::to_string(s.device) + ".S" + std::to_string(s.stream);
            ctx.streamRows[s] = layout.addRow(task, paraver::RowKind::CudaStream, label, s.device, s.stream);
            auto lanes = p.objects->lanes.find(s);
            for (std::uint32_t lane = 1; lanes != p.objects->lanes.end() && lane < lanes->second; ++lane)
                ctx.laneRows[{s, lane}] =
                    layout.addRow(task, paraver::RowKind::CudaStream, label + "." + std::to_string(lane + 1),
                                  s.device, s.stream);
        }
        // A GPU's index is its typeId's rank among the report's metric GPUs (as in discoverGpuMetrics), not a
        // count within the process: the second process's GPU 1 is "Metrics GPU1".
        std::set<std::int64_t> reportGpus;
        for (const auto& [pid, q] : objects[p.report].processes)
            reportGpus.insert(q.metricGpus.begin(), q.metricGpus.end());
        for (auto typeId : p.objects->metricGpus) {
            auto gpu = static_cast<int>(std::distance(reportGpus.begin(), reportGpus.find(typeId)));
            ctx.metricRows[typeId] =
                layout.addRow(task, paraver::RowKind::GpuMetrics, "Metrics GPU" + std::to_string(gpu), gpu);
        }
    }
    return layout;
}

} // namespace gpueff::nsys
