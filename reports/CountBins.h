#pragma once
// The columns of a histogram over a count (kernels in flight, kernels queued), shared by report.md's tables
// and its bar charts so that both group the counts alike. A table of one column per count, with its device,
// mean and maximum columns, outgrows a page 900 px wide (GitHub) past six (a launch queue can be 100 deep),
// so more counts are grouped.
#include <climits>
#include <set>
#include <string>
#include <vector>

namespace gpueff::reports::detail {

struct CountBin {
    long long lo, hi; // the counts lo..hi; hi = LLONG_MAX: lo and more
    bool contains(long long k) const { return k >= lo && k <= hi; }
    std::string label() const {
        if (hi == LLONG_MAX) return "\xE2\x89\xA5 " + std::to_string(lo); // "≥ 17"
        return lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi);
    }
};

inline constexpr std::size_t kMaxCountBins = 6;

// One bin per count while there are at most maxBins counts. Else 0, 1, 2, then each bin twice the counts of
// the one before (3-4, 5-8, 9-16, ...: equal steps on the log scale deep queues need), those that hold a
// count only, the last one open ("≥ 9") when there would be more than maxBins. Negative counts have no bin.
inline std::vector<CountBin> countBins(const std::set<long long>& counts,
                                       std::size_t maxBins = kMaxCountBins) {
    std::vector<CountBin> bins;
    if (counts.size() <= maxBins) {
        for (auto k : counts)
            if (k >= 0) bins.push_back({k, k});
        return bins;
    }
    const long long last = *counts.rbegin();
    for (long long lo = 0, hi = 0;;) {
        auto it = counts.lower_bound(lo);
        if (it != counts.end() && *it <= hi) bins.push_back({lo, hi});
        if (hi >= last) break;
        lo = hi + 1;
        hi = lo <= 2 ? lo : lo - 1 > LLONG_MAX / 2 ? LLONG_MAX : 2 * (lo - 1); // no overflow on any document
    }
    if (bins.size() > maxBins) {
        bins.resize(maxBins);
        bins.back().hi = LLONG_MAX;
    }
    return bins;
}

} // namespace gpueff::reports::detail
