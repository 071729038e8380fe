#pragma once
// The rows a pass over a trace larger than memory evaluates (gpueff histogram's passes): the threads
// [firstThread, endThread) in header order, and the objects of a coarser process level they make up.
#include "engine/semantic/Cfg.h"
#include "engine/semantic/ObjectModel.h"

#include <cstdint>
#include <limits>
#include <utility>

namespace gpueff::semantic {

struct RowGroup {
    std::uint32_t firstThread = 0, endThread = std::numeric_limits<std::uint32_t>::max();

    bool everything() const {
        return firstThread == 0 && endThread == std::numeric_limits<std::uint32_t>::max();
    }

    // The rows [first, end) of `level` this group evaluates. Groups are cut at object boundaries of the
    // coarsest level a pass plan evaluates, so every row of `level` lies in one group; the group holding a
    // level's first (last) thread also takes the objects before (after) it, and each group the objects
    // between its threads and the previous group's: an application without tasks is evaluated once, where
    // the whole-trace evaluation meets it. Resource levels (CPU, node, system) need every thread: the whole
    // range, in the one group a plan gives them.
    std::pair<std::size_t, std::size_t> rows(const ObjectModel& objects, Level level) const {
        std::size_t count = objects.count(level);
        std::size_t threads = objects.threadTask.size();
        bool resource = level == Level::System || level == Level::Node || level == Level::Cpu;
        if (resource || level == Level::Workload || everything() || threads == 0) {
            if (firstThread == 0) return {0, count};
            return {count, count};
        }
        auto owner = [&](std::uint32_t thread) { return objects.ownerOfThread(level, thread); };
        std::size_t first = firstThread == 0 ? 0 : owner(firstThread - 1) + 1;
        std::size_t end = endThread >= threads ? count : owner(endThread - 1) + 1;
        if (first > end) first = end;
        return {first, end};
    }
};

} // namespace gpueff::semantic
