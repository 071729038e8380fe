#pragma once
// Values that arrive as sorted runs (each device's or task's partial, sorted on its worker) merged into one
// sorted sequence by the reduction: pairwise merges of neighbouring runs, O(n log runs) instead of a sort.
#include "engine/common/Parallel.h"

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <vector>

namespace gpueff::metrics {

// `bounds`: where each run of `values` begins, then values.size(). The merges of one level are disjoint:
// `jobs` workers share them.
template <class T, class Less = std::less<>>
void mergeRuns(std::vector<T>& values, const std::vector<std::size_t>& bounds, Less less = {},
               unsigned jobs = 1) {
    const std::size_t runs = bounds.empty() ? 0 : bounds.size() - 1;
    auto at = [&](std::size_t i) { return values.begin() + static_cast<std::ptrdiff_t>(bounds[i]); };
    for (std::size_t width = 1; width < runs; width *= 2) {
        const std::size_t pairs = (runs - width + 2 * width - 1) / (2 * width);
        forEachIndex(pairs, jobs, [&](std::size_t p) {
            const std::size_t i = p * 2 * width;
            std::inplace_merge(at(i), at(i + width), at(std::min(i + 2 * width, runs)), less);
        });
    }
}

// Appends a sorted run to `values`, noting where it begins in `bounds` (which starts as {0}).
template <class T>
void appendRun(std::vector<T>& values, std::vector<std::size_t>& bounds, const std::vector<T>& run) {
    if (run.empty()) return;
    values.insert(values.end(), run.begin(), run.end());
    bounds.push_back(values.size());
}

} // namespace gpueff::metrics
