#include "metrics/LocationShift.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace gpueff::metrics {

namespace {

std::vector<double> thinned(std::span<const double> sample) {
    std::vector<double> out;
    if (sample.size() <= kMaxShiftSample) return {sample.begin(), sample.end()};
    for (std::size_t i = 0; i < kMaxShiftSample; ++i)
        out.push_back(sample[i * sample.size() / kMaxShiftSample]);
    return out;
}

// The k-th smallest (0-based) of `values`, which it reorders.
double nth(std::vector<double>& values, std::size_t k) {
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
    return values[k];
}

} // namespace

std::optional<LocationShift> locationShift(std::span<const double> referenceIn,
                                           std::span<const double> runIn) {
    auto reference = thinned(referenceIn), run = thinned(runIn);
    for (const auto* sample : {&reference, &run})
        for (double v : *sample)
            if (!std::isfinite(v)) return std::nullopt;
    const double m = static_cast<double>(reference.size()), n = static_cast<double>(run.size());
    const double k = std::floor(m * n / 2 - 1.959964 * std::sqrt(m * n * (m + n + 1) / 12));
    if (reference.empty() || run.empty() || k < 0) return std::nullopt;
    std::vector<double> differences;
    differences.reserve(reference.size() * run.size());
    for (double b : run)
        for (double a : reference) differences.push_back(b - a);
    const std::size_t count = differences.size(), low = static_cast<std::size_t>(k);
    LocationShift shift;
    // The median: the middle difference, or the mean of the two middle ones.
    shift.estimate = nth(differences, count / 2);
    if (count % 2 == 0) shift.estimate = (shift.estimate + nth(differences, count / 2 - 1)) / 2;
    shift.low = nth(differences, low);
    shift.high = nth(differences, count - 1 - low);
    return shift;
}

} // namespace gpueff::metrics
