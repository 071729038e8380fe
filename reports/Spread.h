#pragma once
// The statistics rows of the study's tables (Paraver's histogram statistics: Total, Average, Maximum,
// Minimum, StDev, Avg/Max) of one column of values, one per device or task. One computation for every table
// that shows them (overlap_table, tensor_core's rows), so the same values give the same doubles everywhere.
#include "reports/model/Fields.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace gpueff::reports {

struct Spread {
    double sum, average, maximum, minimum, stddev; // stddev: of the population (divided by n)
    std::optional<double> avgMax;                  // none when the maximum is not positive
};

inline Spread spreadOf(const std::vector<double>& values) {
    double sum = 0, maximum = -INFINITY, minimum = INFINITY;
    for (double v : values) {
        sum += v;
        maximum = std::max(maximum, v);
        minimum = std::min(minimum, v);
    }
    auto n = static_cast<double>(values.size());
    double mean = sum / n, ss = 0;
    for (double v : values) ss += (v - mean) * (v - mean);
    return {sum,
            mean,
            maximum,
            minimum,
            std::sqrt(ss / n),
            maximum > 0 ? model::finite(mean / maximum) : std::nullopt};
}

} // namespace gpueff::reports
