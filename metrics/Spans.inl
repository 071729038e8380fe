#pragma once
#include "engine/common/SortedRuns.h"

#include <algorithm>

namespace gpueff::metrics {

template <class Level>
std::map<std::int64_t, std::int64_t> timeAtLevel(std::vector<Change> changes, int counters,
                                                 std::int64_t begin, std::int64_t end, Level level) {
    // Each row's changes come in time order: merged, not sorted (the order among equal times is free: the
    // count is read once all changes at a time are applied).
    sortByRuns(changes, [](const Change& a, const Change& b) { return a.time < b.time; });
    std::vector<std::int64_t> count(static_cast<std::size_t>(counters), 0);
    std::map<std::int64_t, std::int64_t> out;
    std::int64_t t = begin;
    std::size_t i = 0;
    // Changes before the window set the state it opens with.
    for (; i < changes.size() && changes[i].time <= begin; ++i)
        count[static_cast<std::size_t>(changes[i].counter)] += changes[i].delta;
    while (t < end) {
        std::int64_t next = i < changes.size() ? std::min(changes[i].time, end) : end;
        if (next > t) {
            std::int64_t key = level(count);
            if (key >= 0) out[key] += next - t;
            t = next;
        }
        for (; i < changes.size() && changes[i].time <= t; ++i)
            count[static_cast<std::size_t>(changes[i].counter)] += changes[i].delta;
    }
    return out;
}

} // namespace gpueff::metrics
