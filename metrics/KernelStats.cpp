// Kernel statistics: the nsys stats cuda_gpu_kern_sum table, duration distributions per name, and the idle
// gaps of each device classified by what the GPU waited for (analysis/launches_in_transit.cfg).
#include "engine/common/Parallel.h"
#include "engine/common/SortedRuns.h"
#include "engine/paraver/EventTypes.h"
#include "metrics/AnalysisParts.h"
#include "metrics/DurationModes.h"

#include <algorithm>
#include <cmath>

namespace gpueff::metrics {

namespace {

// Rows in name order given their shares of the time, ranked by total time (ties by name).
std::vector<KernelRow> ranked(std::vector<KernelRow> rows) {
    double grand = 0;
    for (const auto& r : rows) grand += static_cast<double>(r.total);
    for (auto& r : rows) r.timePercent = grand > 0 ? 100.0 * static_cast<double>(r.total) / grand : 0.0;
    std::stable_sort(rows.begin(), rows.end(), [](const KernelRow& x, const KernelRow& y) {
        return x.total != y.total ? x.total > y.total : x.name < y.name;
    });
    return rows;
}

DurationDistribution distribution(const std::string& name, const std::vector<std::int64_t>& d) {
    constexpr std::int64_t kBins = 20;
    DurationDistribution out;
    out.name = name;
    out.instances = d.size();
    auto [lo, hi] = std::minmax_element(d.begin(), d.end());
    // Durations are >= 0, so hi - lo cannot overflow; (range + kBins) / kBins could, range / kBins + 1 is
    // the same number without the addition. Bin bounds are computed with overflow checks: the last upper
    // bound may pass INT64_MAX and is then held there.
    const std::int64_t low = *lo, range = *hi - low;
    std::int64_t width = range / kBins + 1;
    std::int64_t bins = std::min<std::int64_t>(kBins, range / width + 1);
    auto bound = [&](std::int64_t b) {
        std::int64_t offset = 0, v = 0;
        if (__builtin_mul_overflow(b, width, &offset) || __builtin_add_overflow(low, offset, &v))
            return INT64_MAX;
        return v;
    };
    for (std::int64_t b = 0; b < bins; ++b) out.bins.push_back({bound(b), bound(b + 1), 0});
    for (auto x : d) ++out.bins[static_cast<std::size_t>((x - *lo) / width)].count;
    // Modes from the density, not from these bins: equal-width bins show sampling noise as peaks.
    for (const auto& m : durationModes(d)) out.modes.push_back(m.at);
    return out;
}

} // namespace

KernelRow summaryRow(const std::string& name, std::vector<std::int64_t>& values) {
    if (!std::is_sorted(values.begin(), values.end())) std::sort(values.begin(), values.end());
    auto g = describeDurations(values);
    KernelRow r;
    r.name = name;
    r.instances = g.instances;
    r.total = g.total;
    r.min = g.min;
    r.max = g.max;
    r.average = g.average;
    r.median = g.median;
    auto n = values.size();
    double ss = 0;
    for (auto x : values) ss += (static_cast<double>(x) - r.average) * (static_cast<double>(x) - r.average);
    r.stddev = n > 1 ? std::sqrt(ss / static_cast<double>(n - 1)) : 0.0;
    return r;
}

void kernelStatisticsOf(const ShardReader& shard, const Device& d, const DeviceUnions& u,
                        DevicePartial& out) {
    // Grouped by value first: one name lookup per kernel, not per instance.
    std::map<std::pair<std::uint32_t, std::int64_t>, std::vector<std::int64_t>> byValue;
    for (auto [c, type] :
         {std::pair{kCompute, paraver::types::kKernel}, std::pair{kNccl, paraver::types::kNcclKernel}})
        for (const auto& rows : d.work[c])
            for (const auto& s : rows) byValue[{type, s.value}].push_back(s.end - s.begin);
    std::map<std::string, std::vector<std::int64_t>> byName;
    for (auto& [key, durations] : byValue) {
        auto& own = byName[valueName(shard.trace, key.first, key.second)];
        own.insert(own.end(), durations.begin(), durations.end());
    }
    byValue.clear();
    std::vector<KernelRow> rows;
    for (auto& [name, durations] : byName) rows.push_back(summaryRow(name, durations));
    out.kernelSummary = ranked(std::move(rows));
    // Sorted here, on the workers: the reduction merges the devices' sorted runs.
    out.durations = spillRuns(shard.store, byName);

    auto busy = unite({&u.compute, &u.nccl, &u.memory});
    // Per gap (they begin in order): launches in transit when the device fell idle, summed over the rows,
    // each row's spans read once alongside the gaps (a row of launch steps is not held).
    std::vector<std::int64_t> pending(shard.classifyGaps && !busy.empty() ? busy.size() - 1 : 0, 0);
    if (shard.classifyGaps)
        for (auto row : d.rows) {
            std::size_t gap = 0;
            shard.transit.walk(0, row, true, [&](const Span& s) {
                // The span holding each gap's start (spans are disjoint and in order).
                for (; gap < pending.size() && busy[gap].end < s.end; ++gap)
                    if (busy[gap].end >= s.begin) pending[gap] += s.value;
            });
        }
    auto& g = out.gaps;
    for (std::size_t i = 1; i < busy.size(); ++i) {
        auto from = busy[i - 1].end, to = busy[i].begin;
        ++g.count;
        g.total += to - from;
        auto bin = GapSummary::binOf(to - from);
        ++g.binCount[bin];
        g.binTime[bin] += to - from;
        if (!shard.classifyGaps) continue;
        // Work launched and not started when the device fell idle: it waited on the GPU, not the host.
        if (pending[i - 1] > 0) {
            ++g.kernelWaitCount;
            g.kernelWait += to - from;
        } else {
            ++g.hostWaitCount;
            g.hostWait += to - from;
        }
    }
}

void reduceKernelStatistics(Analysis& a, const std::vector<DevicePartial>& partials,
                            const ShardAnswers& answers, unsigned jobs, const SpillStore& store) {
    for (const auto& p : partials) a.kernelSummaryByDevice.push_back(p.kernelSummary);
    // A kernel name at a time: its devices' runs (sorted by kernelStatisticsOf) merged.
    auto runs = runsByName(partials, &DevicePartial::durations);
    std::vector<KernelRow> rows;
    for (const auto& [name, list] : runs) {
        auto durations = mergeRuns(store, list);
        rows.push_back(summaryRow(name, durations));
    }
    a.kernelSummary = ranked(std::move(rows));
    // The top kernels' distributions (their modes are the costly part), one per worker.
    a.durations.resize(std::min<std::size_t>(a.kernelSummary.size(), 20));
    forEachIndex(a.durations.size(), jobs, [&](std::size_t i) {
        const auto& name = a.kernelSummary[i].name;
        a.durations[i] = distribution(name, mergeRuns(store, runs.find(name)->second));
    });
    if (!answers.classifyGaps && !a.activity.devices.empty())
        a.notes.push_back("GPU gaps are not classified host-wait / kernel-wait: the trace has no launch "
                          "communications (tags " +
                          std::to_string(paraver::types::kTagKernelLaunch) + "/" +
                          std::to_string(paraver::types::kTagMemoryLaunch) + ")");
    for (const auto& p : partials) a.gaps.push_back(p.gaps);
}

} // namespace gpueff::metrics
