#include "engine/semantic/ObjectModel.h"

namespace gpueff::semantic {

ObjectModel::ObjectModel(const paraver::TraceHeader& header) {
    std::uint32_t task = 0;
    for (std::uint32_t a = 0; a < header.applications.size(); ++a) {
        for (std::uint32_t t = 0; t < header.applications[a].size(); ++t, ++task) {
            taskApplication.push_back(a);
            taskInApplication.push_back(t);
            for (std::uint32_t th = 0; th < header.applications[a][t].threads; ++th) {
                threadApplication.push_back(a);
                threadTask.push_back(task);
                threadInTask.push_back(th);
            }
        }
    }
    nodes = header.cpusPerNode.size(); // a node may declare no CPU, so cpuNode alone does not count them
    for (std::uint32_t n = 0; n < header.cpusPerNode.size(); ++n)
        for (std::uint32_t c = 0; c < header.cpusPerNode[n]; ++c) {
            cpuNode.push_back(n);
            cpuInNode.push_back(c);
        }
}

std::size_t ObjectModel::count(Level level) const {
    switch (level) {
    case Level::Workload:
    case Level::System:
        return 1;
    case Level::Application:
        return taskApplication.empty() ? 0 : taskApplication.back() + 1;
    case Level::Task:
        return taskApplication.size();
    case Level::Thread:
        return threadTask.size();
    case Level::Node:
        return nodes;
    case Level::Cpu:
        return cpuNode.size();
    }
    return 0;
}

std::pair<std::size_t, std::size_t> ObjectModel::children(Level parent, std::size_t index,
                                                          Level child) const {
    auto range = [](const std::vector<std::uint32_t>& owner, std::size_t which) {
        std::size_t first = owner.size(), last = 0;
        for (std::size_t i = 0; i < owner.size(); ++i)
            if (owner[i] == which) {
                first = std::min(first, i);
                last = i;
            }
        return std::make_pair(first, last);
    };
    if (parent == child) return {index, index};
    if (parent == Level::Workload || parent == Level::System) {
        auto n = count(child);
        if (n == 0) return {1, 0}; // none (a trace without resource section has no CPU or node)
        return {0, n - 1};
    }
    if (child == Level::Thread && parent == Level::Task) return range(threadTask, index);
    if (child == Level::Thread && parent == Level::Application) return range(threadApplication, index);
    if (child == Level::Task && parent == Level::Application) return range(taskApplication, index);
    if (child == Level::Cpu && parent == Level::Node) return range(cpuNode, index);
    return {index, index};
}

std::size_t ObjectModel::ownerOfThread(Level level, std::uint32_t thread) const {
    switch (level) {
    case Level::Thread:
        return thread;
    case Level::Task:
        return threadTask[thread];
    case Level::Application:
        return threadApplication[thread];
    default:
        return 0;
    }
}

std::string ObjectModel::label(Level level, std::size_t i, bool withLevel) const {
    std::string prefix = withLevel ? std::string(levelName(level)) + " " : "";
    auto n = [](std::size_t v) { return std::to_string(v + 1); };
    switch (level) {
    case Level::Workload:
        return withLevel ? "WORKLOAD" : "";
    case Level::System:
        return withLevel ? "SYSTEM" : "";
    case Level::Application:
        return prefix + n(i);
    case Level::Task:
        return prefix + n(taskApplication[i]) + "." + n(taskInApplication[i]);
    case Level::Thread:
        return prefix + n(threadApplication[i]) + "." + n(taskInApplication[threadTask[i]]) + "." +
               n(threadInTask[i]);
    case Level::Node:
        return prefix + n(i);
    case Level::Cpu:
        return prefix + n(cpuNode[i]) + "." + n(cpuInNode[i]);
    }
    return "";
}

} // namespace gpueff::semantic
