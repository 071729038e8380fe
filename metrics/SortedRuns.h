#pragma once
// Values that arrive as sorted runs (each device's or task's partial, sorted on its worker) merged into one
// sorted sequence by the reduction: pairwise merges of neighbouring runs, O(n log runs) instead of a sort.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace gpueff::metrics {

template <class T>
class SortedRuns {
public:
    // Appends a sorted run.
    void add(const std::vector<T>& run) {
        if (run.empty()) return;
        values_.insert(values_.end(), run.begin(), run.end());
        bounds_.push_back(values_.size());
    }
    // Every run's values, sorted; the runs are taken.
    std::vector<T> merged() && {
        const std::size_t runs = bounds_.size() - 1;
        auto at = [&](std::size_t i) { return values_.begin() + static_cast<std::ptrdiff_t>(bounds_[i]); };
        for (std::size_t width = 1; width < runs; width *= 2)
            for (std::size_t i = 0; i + width < runs; i += 2 * width)
                std::inplace_merge(at(i), at(i + width), at(std::min(i + 2 * width, runs)));
        return std::move(values_);
    }

private:
    std::vector<T> values_;
    std::vector<std::size_t> bounds_{0}; // where each run begins, then the end
};

} // namespace gpueff::metrics
