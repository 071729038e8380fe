#pragma once
// How far one sample lies from another (iteration times of two runs), with a 95 % confidence interval, with
// no assumption that iteration times are normal (they are not: a slow outlier every few iterations is
// common). The estimate is Hodges-Lehmann's: the median of the m x n differences run[j] - reference[i]. The
// interval is the one the Mann-Whitney rank test gives, from the same differences sorted,
// D(1) <= ... <= D(mn):
//   k = floor(mn / 2 - 1.959964 sqrt(mn (m + n + 1) / 12)),   interval = [D(k + 1), D(mn - k)]
// (the normal approximation of the U distribution, no continuity or tie correction; Hollander, Wolfe and
// Chicken, Nonparametric Statistical Methods, 3rd ed., section 4.3). A shift is significant at 5 % when the
// interval does not hold 0.
#include <optional>
#include <span>

namespace gpueff::metrics {

struct LocationShift {
    double estimate = 0, low = 0, high = 0;
    bool significant() const { return low > 0 || high < 0; }
};

// Samples of up to kMaxShiftSample values each are used whole; a longer one is thinned evenly to that many
// (every k-th value in order) so that the differences stay within 4 M. None when either sample is too small
// for an interval at 95 % (k < 0: fewer than 3 values in each, roughly) or holds a value that is not finite.
inline constexpr std::size_t kMaxShiftSample = 2000;
std::optional<LocationShift> locationShift(std::span<const double> reference, std::span<const double> run);

} // namespace gpueff::metrics
