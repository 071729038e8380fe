#pragma once
// Values that arrive as sorted runs (each device's or task's partial, sorted on its worker; a device's rows
// or a thread's lists of records, each in time order) merged into one sorted sequence: pairwise merges of
// neighbouring runs, O(n log runs) instead of a sort.
#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

namespace gpueff {

// Merges the sorted runs of `values` that begin at `bounds` (the last bound is the end) into one.
template <class T, class Less = std::less<>>
void mergeRunsInPlace(std::vector<T>& values, const std::vector<std::size_t>& bounds, Less less = {}) {
    const std::size_t runs = bounds.size() - 1;
    auto at = [&](std::size_t i) { return values.begin() + static_cast<std::ptrdiff_t>(bounds[i]); };
    for (std::size_t width = 1; width < runs; width *= 2)
        for (std::size_t i = 0; i + width < runs; i += 2 * width)
            std::inplace_merge(at(i), at(i + width), at(std::min(i + 2 * width, runs)), less);
}

// Sorts `values` by `less`, merging the sorted runs it is made of when they are few: lists appended one
// after another in time order. Elements equal under `less` may end in any order, as with std::sort.
template <class T, class Less>
void sortByRuns(std::vector<T>& values, Less less) {
    constexpr std::size_t kMaxRuns = 64; // beyond, the input is not made of runs: a plain sort
    std::vector<std::size_t> bounds{0};
    for (std::size_t i = 1; i < values.size(); ++i)
        if (less(values[i], values[i - 1])) {
            if (bounds.size() == kMaxRuns) {
                std::sort(values.begin(), values.end(), less);
                return;
            }
            bounds.push_back(i);
        }
    bounds.push_back(values.size());
    mergeRunsInPlace(values, bounds, less);
}

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
        mergeRunsInPlace(values_, bounds_);
        return std::move(values_);
    }

private:
    std::vector<T> values_;
    std::vector<std::size_t> bounds_{0}; // where each run begins, then the end
};

} // namespace gpueff
