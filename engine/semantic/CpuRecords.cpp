#include "engine/semantic/CpuRecords.h"

#include <algorithm>

namespace gpueff::semantic {

using namespace paraver::RecordBits;

std::uint32_t recordCpu(const paraver::Trace& trace, const paraver::ThreadRecords& records, std::size_t pos) {
    const auto& stream = records.stream;
    while (stream.type[pos] == Empty) {
        if (pos == 0) return 0;
        --pos;
    }
    auto type = stream.type[pos];
    auto i = stream.index[pos];
    if (type & State) return records.stateCpu[i];
    if (type & Event) return records.eventCpu[i];
    const auto& c = trace.communications[i];
    return (type & (Send | RemoteRecv)) ? c.sendCpu : c.recvCpu;
}

CpuRecords::CpuRecords(const paraver::Trace& trace) {
    auto cpus = trace.header.totalCpus();
    perCpu.resize(cpus);
    firstThread.assign(cpus, 0);
    lastThread.assign(cpus, 0);
    // Threads in node order (a thread's node is its task's), then thread order: Paraver's insertion order.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> threads; // (node, thread)
    std::vector<std::uint32_t> firstOfNode(trace.header.cpusPerNode.size() + 1, 0);
    std::vector<bool> nodeSeen(firstOfNode.size(), false);
    std::uint32_t thread = 0;
    for (const auto& application : trace.header.applications)
        for (const auto& task : application)
            for (std::uint32_t t = 0; t < task.threads; ++t, ++thread) {
                threads.emplace_back(task.node, thread);
                if (task.node < nodeSeen.size() && !nodeSeen[task.node]) {
                    nodeSeen[task.node] = true;
                    firstOfNode[task.node] = thread;
                }
            }
    std::stable_sort(threads.begin(), threads.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [node, th] : threads) {
        const auto& records = trace.threads[th];
        const auto& stream = trace.walkingOrder(th);
        // Not the empty records at either end of the thread.
        for (std::size_t pos = 1; pos + 1 < stream.size(); ++pos) {
            auto cpu = recordCpu(trace, records, pos);
            if (cpu == 0 || cpu > cpus) continue;
            perCpu[cpu - 1].push_back(
                {stream.time[pos], th, static_cast<std::uint32_t>(pos), stream.type[pos]});
        }
    }
    std::uint32_t cpu = 0;
    for (std::uint32_t node = 0; node < trace.header.cpusPerNode.size(); ++node)
        for (std::uint32_t c = 0; c < trace.header.cpusPerNode[node]; ++c, ++cpu) {
            auto& list = perCpu[cpu];
            std::stable_sort(list.begin(), list.end(),
                             [](const CpuRecord& a, const CpuRecord& b) { return a.time < b.time; });
            firstThread[cpu] = list.empty() ? firstOfNode[node + 1] : list.front().thread;
            lastThread[cpu] = list.empty() ? firstThread[cpu] : list.back().thread;
        }
}

} // namespace gpueff::semantic
