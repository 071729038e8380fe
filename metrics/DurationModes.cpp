#include "metrics/DurationModes.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace gpueff::metrics {
namespace {

constexpr double kWindow = 4.0;       // bandwidths: the kernel is exp(-8) ~ 3e-4 of its peak there
constexpr double kMinBandwidth = 1.0; // ns: durations are whole ns, a narrower kernel makes modes of rounding
constexpr double kGridPerBandwidth = 4;  // the density cannot change much within a quarter bandwidth
constexpr std::size_t kMaxGrid = 4096;   // beyond it the grid (and the bandwidth with it) coarsens
constexpr double kSeparatingDip = 0.8;   // a dip above 0.8 of the smaller peak is noise, not two regimes
constexpr std::uint64_t kMinSupport = 5; // instances, and at least 1/kMinSupportShare (5 %) of them
constexpr std::uint64_t kMinSupportShare = 20;
constexpr int kRefineIterations = 64; // golden-section steps locating a peak between grid points

// Offsets in ns from the minimum, sorted, as double: exact enough and free of int64 overflow.
struct Sample {
    std::vector<double> offsets;
    double bandwidth = 0;

    // Unnormalised Gaussian kernel density at offset t, from the instances within the window only.
    double density(double t) const {
        auto first = std::lower_bound(offsets.begin(), offsets.end(), t - kWindow * bandwidth);
        auto last = std::upper_bound(first, offsets.end(), t + kWindow * bandwidth);
        double sum = 0;
        for (auto it = first; it != last; ++it) {
            double z = (*it - t) / bandwidth;
            sum += std::exp(-0.5 * z * z);
        }
        return sum;
    }
};

double quantile(const std::vector<double>& sorted, double p) {
    double position = p * static_cast<double>(sorted.size() - 1);
    auto i = static_cast<std::size_t>(position);
    if (i + 1 >= sorted.size()) return sorted.back();
    return sorted[i] + (position - static_cast<double>(i)) * (sorted[i + 1] - sorted[i]);
}

// Silverman's robust rule of thumb. IQR 0 (over half the instances at one duration, the rest apart) would
// give bandwidth 0, so the sd alone decides then.
double silvermanBandwidth(const std::vector<double>& offsets) {
    double n = static_cast<double>(offsets.size());
    double mean = 0;
    for (double x : offsets) mean += x / n;
    double squares = 0;
    for (double x : offsets) squares += (x - mean) * (x - mean);
    double sd = std::sqrt(squares / (n - 1));
    double iqrScale = (quantile(offsets, 0.75) - quantile(offsets, 0.25)) / 1.34;
    return 0.9 * (iqrScale > 0 ? std::min(sd, iqrScale) : sd) * std::pow(n, -0.2);
}

// Where the density is evaluated: every `step` across each island of instances (no gap wider than two
// windows inside), and once in each gap between islands, where it is 0. A far outlier thus costs one point,
// not a coarser grid for all. Empty when that would exceed kMaxGrid points.
std::vector<double> gridOver(const std::vector<double>& offsets, double bandwidth, double step) {
    std::vector<double> grid;
    for (std::size_t first = 0, last = 0; first < offsets.size(); first = ++last) {
        while (last + 1 < offsets.size() && offsets[last + 1] - offsets[last] <= 2 * kWindow * bandwidth)
            ++last;
        if (first > 0) grid.push_back(offsets[first - 1] + (offsets[first] - offsets[first - 1]) / 2);
        double points = std::ceil((offsets[last] - offsets[first]) / step);
        if (points + static_cast<double>(grid.size()) >= kMaxGrid) return {};
        for (int k = 0; k <= static_cast<int>(points); ++k) {
            grid.push_back(std::min(offsets[first] + k * step, offsets[last]));
        }
    }
    return grid;
}

// min + offset, the offset rounded and clamped to [0, range] (range up to 2^64 - 1: unsigned arithmetic).
std::int64_t durationAt(std::int64_t min, std::uint64_t range, double offset) {
    double rounded = std::round(std::clamp(offset, 0.0, static_cast<double>(range)));
    std::uint64_t steps = rounded >= 0x1p64 ? range : std::min(range, static_cast<std::uint64_t>(rounded));
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(min) + steps);
}

struct Basin {
    std::size_t peak = 0; // grid index of its highest density
    std::size_t end = 0; // grid index of the density minimum closing it on the right (grid size for the last)
    std::uint64_t instances = 0;
};

// The candidate modes: every local maximum of the density (the middle of a flat top), each basin ending at
// the middle of the lowest density before the next maximum; instances below that offset belong to it.
std::vector<Basin> candidateBasins(const Sample& sample, const std::vector<double>& grid,
                                   const std::vector<double>& density) {
    std::vector<Basin> basins;
    for (std::size_t a = 0, b = 0; a < density.size(); a = ++b) {
        while (b + 1 < density.size() && density[b + 1] == density[a]) ++b;
        bool rises = a == 0 || density[a - 1] < density[a];
        bool falls = b + 1 == density.size() || density[b + 1] < density[b];
        if (rises && falls && density[a] > 0) basins.push_back({(a + b) / 2, density.size(), 0});
    }
    std::uint64_t closed = 0;
    for (std::size_t i = 0; i < basins.size(); ++i) {
        std::uint64_t below = sample.offsets.size();
        if (i + 1 < basins.size()) {
            auto first = density.begin() + static_cast<std::ptrdiff_t>(basins[i].peak) + 1;
            auto last = density.begin() + static_cast<std::ptrdiff_t>(basins[i + 1].peak);
            auto lowest = std::min_element(first, last);
            auto lowestEnd = std::find_if(lowest, last, [&](double d) { return d != *lowest; });
            basins[i].end =
                static_cast<std::size_t>((lowest - density.begin()) + (lowestEnd - density.begin() - 1)) / 2;
            auto boundary =
                std::lower_bound(sample.offsets.begin(), sample.offsets.end(), grid[basins[i].end]);
            below = static_cast<std::uint64_t>(boundary - sample.offsets.begin());
        }
        basins[i].instances = below - closed;
        closed = below;
    }
    return basins;
}

// Merges basin i and i + 1; the higher peak stays the mode.
void mergeWithNext(std::vector<Basin>& basins, const std::vector<double>& density, std::size_t i) {
    Basin& next = basins[i + 1];
    if (density[next.peak] > density[basins[i].peak]) basins[i].peak = next.peak;
    basins[i].end = next.end;
    basins[i].instances += next.instances;
    basins.erase(basins.begin() + static_cast<std::ptrdiff_t>(i) + 1);
}

// Drops unseparated and unsupported modes, one merge at a time (the worst first) until none is left.
void mergeNoise(std::vector<Basin>& basins, const std::vector<double>& density, std::uint64_t n) {
    auto supported = [&](const Basin& b) {
        return b.instances >= kMinSupport && b.instances * kMinSupportShare >= n;
    };
    while (basins.size() > 1) {
        std::ptrdiff_t shallowest = -1;
        double shallowestDip = kSeparatingDip;
        for (std::size_t i = 0; i + 1 < basins.size(); ++i) {
            double dip =
                density[basins[i].end] / std::min(density[basins[i].peak], density[basins[i + 1].peak]);
            if (dip >= shallowestDip) shallowest = static_cast<std::ptrdiff_t>(i), shallowestDip = dip;
        }
        if (shallowest >= 0) {
            mergeWithNext(basins, density, static_cast<std::size_t>(shallowest));
            continue;
        }
        auto weakest = basins.end();
        for (auto it = basins.begin(); it != basins.end(); ++it) {
            if (supported(*it)) continue;
            if (weakest == basins.end() || it->instances < weakest->instances ||
                (it->instances == weakest->instances && density[it->peak] < density[weakest->peak]))
                weakest = it;
        }
        if (weakest == basins.end()) return;
        auto i = static_cast<std::size_t>(weakest - basins.begin());
        bool intoPrevious =
            i + 1 == basins.size() || (i > 0 && density[basins[i - 1].peak] >= density[basins[i + 1].peak]);
        mergeWithNext(basins, density, intoPrevious ? i - 1 : i);
    }
}

// The grid places a peak within a step; golden-section search between its neighbours places it to the ns.
// It only moves when it finds a higher density than the grid point's.
double refinePeak(const Sample& sample, const std::vector<double>& grid, std::size_t peak, double step) {
    constexpr double kGolden = 0.6180339887498949;
    double lo = std::max(grid[peak] - step, peak > 0 ? grid[peak - 1] : grid[peak]);
    double hi = std::min(grid[peak] + step, peak + 1 < grid.size() ? grid[peak + 1] : grid[peak]);
    double x1 = hi - kGolden * (hi - lo), x2 = lo + kGolden * (hi - lo);
    double f1 = sample.density(x1), f2 = sample.density(x2);
    for (int i = 0; i < kRefineIterations && hi - lo > 0.5; ++i) {
        if (f1 < f2) {
            lo = x1, x1 = x2, f1 = f2, x2 = lo + kGolden * (hi - lo), f2 = sample.density(x2);
        } else {
            hi = x2, x2 = x1, f2 = f1, x1 = hi - kGolden * (hi - lo), f1 = sample.density(x1);
        }
    }
    return std::max(f1, f2) > sample.density(grid[peak]) ? (f1 >= f2 ? x1 : x2) : grid[peak];
}

} // namespace

std::vector<DurationMode> durationModes(const std::vector<std::int64_t>& durations) {
    if (durations.empty()) return {};
    const auto [lowest, highest] = std::minmax_element(durations.begin(), durations.end());
    const std::int64_t min = *lowest;
    const std::uint64_t range = static_cast<std::uint64_t>(*highest) - static_cast<std::uint64_t>(min);
    const auto n = static_cast<std::uint64_t>(durations.size());
    if (range == 0) return {{min, n}};

    Sample sample;
    sample.offsets.reserve(durations.size());
    for (std::int64_t d : durations) {
        sample.offsets.push_back(
            static_cast<double>(static_cast<std::uint64_t>(d) - static_cast<std::uint64_t>(min)));
    }
    std::sort(sample.offsets.begin(), sample.offsets.end());
    // Too many grid points (long tails of isolated instances): coarser steps, the bandwidth at least one step
    // so that no instance falls between grid points unseen.
    const double rule = std::max(silvermanBandwidth(sample.offsets), kMinBandwidth); // > 0, finite
    double step = rule / kGridPerBandwidth;
    std::vector<double> grid;
    for (sample.bandwidth = rule; (grid = gridOver(sample.offsets, sample.bandwidth, step)).empty();
         step *= 2) {
        sample.bandwidth = std::max(rule, 2 * step);
    }

    std::vector<double> density(grid.size());
    for (std::size_t k = 0; k < grid.size(); ++k) density[k] = sample.density(grid[k]);
    std::vector<Basin> basins = candidateBasins(sample, grid, density);
    mergeNoise(basins, density, n);

    std::vector<DurationMode> modes;
    for (const Basin& b : basins) {
        modes.push_back({durationAt(min, range, refinePeak(sample, grid, b.peak, step)), b.instances});
    }
    return modes;
}

} // namespace gpueff::metrics
