#pragma once
// Least-squares fit of a straight line, y = a + b x, for the scaling fits of `gpueff compare`
// (reports/CompareScaling.cpp), where x = log2(device count) and y is one POP factor of each run.
#include <cstddef>
#include <optional>
#include <vector>

namespace gpueff::reports {

struct LineFit {
    double intercept = 0; // a
    double slope = 0;     // b
    // sqrt(sum of squared residuals / points): the typical distance of a point from the line, in the unit of
    // y (not the standard error, which divides by points - 2 and is undefined for two points).
    double rmsResidual = 0;
    std::size_t points = 0;

    double at(double x) const { return intercept + slope * x; }
};

// The least-squares line through (x[i], y[i]). Absent when the sizes differ, a value is not finite, or fewer
// than two distinct x are given (the slope is then undetermined).
std::optional<LineFit> fitLine(const std::vector<double>& x, const std::vector<double>& y);

} // namespace gpueff::reports
