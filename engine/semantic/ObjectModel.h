#pragma once
#include "engine/paraver/TraceHeader.h"
#include "engine/semantic/Cfg.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpueff::semantic {

// The object hierarchy of a trace header, flattened: which task and application each thread belongs to,
// which node each CPU is on, and the children of every object at every level.
struct ObjectModel {
    explicit ObjectModel(const paraver::TraceHeader& header);

    std::vector<std::uint32_t> threadApplication, threadTask; // global thread -> application, global task
    std::vector<std::uint32_t> threadInTask;                  // 0-based position in its task
    std::vector<std::uint32_t> taskApplication, taskInApplication;
    std::vector<std::uint32_t> cpuNode; // 0-based CPU (CPU 1 is index 0) -> node
    std::vector<std::uint32_t> cpuInNode;
    std::size_t nodes = 0;

    std::size_t count(Level level) const;
    // The objects of `child` level under object `index` of `parent` level, as [first, last] global indices
    // (first > last when there are none).
    std::pair<std::size_t, std::size_t> children(Level parent, std::size_t index, Level child) const;
    // The object of `level` that global thread `thread` belongs to.
    std::size_t ownerOfThread(Level level, std::uint32_t thread) const;
    // "THREAD 1.2.1", "TASK 1.2", ... (Paraver's labels when the .row file has none).
    std::string label(Level level, std::size_t index, bool withLevel) const;
};

} // namespace gpueff::semantic
