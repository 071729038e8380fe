#include "metrics/SpilledRuns.h"

#include "engine/common/SortedRuns.h"

#include <algorithm>

namespace gpueff::metrics {

SpilledRun spillRun(SpillStore& store, std::vector<std::int64_t>& values) {
    std::sort(values.begin(), values.end());
    SpilledRun run;
    std::uint64_t sum = 0;
    for (auto v : values) sum += static_cast<std::uint64_t>(v);
    run.total = static_cast<std::int64_t>(sum);
    run.count = values.size();
    run.ref = store.appendValues(values);
    std::vector<std::int64_t>().swap(values);
    return run;
}

SpilledRuns spillRuns(SpillStore& store, std::map<std::string, std::vector<std::int64_t>>& runs) {
    SpilledRuns out;
    for (auto& [name, values] : runs) out.emplace(name, spillRun(store, values));
    runs.clear();
    return out;
}

std::vector<std::int64_t> mergeRuns(const SpillStore& store, const std::vector<const SpilledRun*>& runs) {
    SortedRuns<std::int64_t> sorted;
    for (const auto* r : runs) sorted.add(store.loadValues(r->ref));
    return std::move(sorted).merged();
}

} // namespace gpueff::metrics
