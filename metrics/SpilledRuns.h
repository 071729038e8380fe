#pragma once
// The values a device's partial keeps per name (its kernels' durations, split by overlap, its NCCL kernels'
// arrivals, its memory operations' durations and bytes): sorted on the worker and written to the analysis'
// SpillStore with their count and sum, so that the partials in memory do not grow with the kernels, and the
// reduction reads back the names it needs, one at a time.
#include "engine/common/SpillStore.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gpueff::metrics {

struct SpilledRun {
    SpillStore::Ref ref;
    std::uint64_t count = 0;
    std::int64_t total = 0; // the values' sum (of durations; wraps for other values, which do not read it)
    static void fields(auto& s, auto&& f) {
        f("ref", s.ref);
        f("count", s.count);
        f("total", s.total);
    }
};
using SpilledRuns = std::map<std::string, SpilledRun>;

// Sorts `values` and moves them to the store.
SpilledRun spillRun(SpillStore& store, std::vector<std::int64_t>& values);
// The same for every name.
SpilledRuns spillRuns(SpillStore& store, std::map<std::string, std::vector<std::int64_t>>& runs);

// Runs of one name (a device's each) merged into one sorted array.
std::vector<std::int64_t> mergeRuns(const SpillStore& store, const std::vector<const SpilledRun*>& runs);

// name -> every partial's run of it, in partial order.
template <class Partial>
std::map<std::string, std::vector<const SpilledRun*>> runsByName(const std::vector<Partial>& partials,
                                                                 SpilledRuns Partial::*member) {
    std::map<std::string, std::vector<const SpilledRun*>> out;
    for (const auto& p : partials)
        for (const auto& [name, run] : p.*member) out[name].push_back(&run);
    return out;
}

} // namespace gpueff::metrics
