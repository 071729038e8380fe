#include "engine/paraver/Trace.h"

namespace gpueff::paraver {

void Trace::indexThreads() {
    firstThreadOfTask_.clear();
    std::uint32_t next = 0;
    for (const auto& appl : header.applications) {
        std::vector<std::uint32_t> firsts;
        for (const auto& task : appl) {
            firsts.push_back(next);
            next += task.threads;
        }
        firstThreadOfTask_.push_back(std::move(firsts));
    }
    threads.assign(next, ThreadRecords{});
}

std::int64_t Trace::threadIndex(std::uint32_t appl, std::uint32_t task, std::uint32_t thread) const {
    if (appl == 0 || appl > header.applications.size()) return -1;
    const auto& tasks = header.applications[appl - 1];
    if (task == 0 || task > tasks.size() || thread == 0 || thread > tasks[task - 1].threads) return -1;
    return firstThreadOfTask_[appl - 1][task - 1] + thread - 1;
}

} // namespace gpueff::paraver
