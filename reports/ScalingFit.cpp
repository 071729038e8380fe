// The line is solved with Eigen's column-pivoting Householder QR of the design matrix [1 x]: it does not
// form the normal equations X^T X, whose condition number is the square of X's, so that x values far from 0
// (log2 of large device counts) do not cost precision.
#include "reports/ScalingFit.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

namespace gpueff::reports {

std::optional<LineFit> fitLine(const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != y.size() || x.size() < 2) return std::nullopt;
    for (std::size_t i = 0; i < x.size(); ++i)
        if (!std::isfinite(x[i]) || !std::isfinite(y[i])) return std::nullopt;
    // Two distinct x at least; checked exactly rather than through the QR's rank threshold, which would
    // also refuse x values that differ but lie very close (a legitimate, if poorly determined, fit).
    if (std::all_of(x.begin(), x.end(), [&](double v) { return v == x.front(); })) return std::nullopt;
    const auto n = static_cast<Eigen::Index>(x.size());
    Eigen::MatrixXd design(n, 2);
    Eigen::VectorXd values(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        design(i, 0) = 1.0;
        design(i, 1) = x[static_cast<std::size_t>(i)];
        values(i) = y[static_cast<std::size_t>(i)];
    }
    Eigen::VectorXd coefficients = design.colPivHouseholderQr().solve(values);
    LineFit fit;
    fit.intercept = coefficients(0);
    fit.slope = coefficients(1);
    fit.points = x.size();
    Eigen::VectorXd residuals = values - design * coefficients;
    fit.rmsResidual = std::sqrt(residuals.squaredNorm() / static_cast<double>(n));
    if (!std::isfinite(fit.intercept) || !std::isfinite(fit.slope) || !std::isfinite(fit.rmsResidual))
        return std::nullopt;
    return fit;
}

} // namespace gpueff::reports
