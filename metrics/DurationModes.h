#pragma once
// The modes of a kernel's duration distribution: the durations it typically takes, one per regime (cache hot
// or cold, small or large problem sizes). Equal-width histogram bins and their local maxima report sampling
// noise as modes (8 "modes" for one tight kernel) and bin centres beyond the data, so this estimates the
// density instead and keeps only the peaks the data clearly supports:
// - Gaussian kernel density estimate, bandwidth by Silverman's robust rule 0.9 * min(sd, IQR/1.34) * n^-1/5:
//   the IQR keeps a few far outliers from smoothing a tight cluster away; IQR 0 falls back to sd. At least
//   1 ns, since durations are whole ns and a narrower kernel turns the rounding into modes.
// - The density is evaluated every quarter bandwidth (it cannot change faster) across each island of
//   instances inside [min, max], and once in each gap wider than 8 bandwidths (density 0 there): a cold-start
//   outlier 100x away costs one point instead of coarsening the grid for all. Over 4096 points (long sparse
//   tails), the step doubles and the bandwidth stays at least one step. Arithmetic is in double offsets from
//   min (no int64 overflow, no precision lost to 1e18-ns values). Each point sums only the sorted instances
//   within 4 bandwidths (binary search): about 33 kernel evaluations per instance at most, so a million
//   instances take a fraction of a second.
// - Every local maximum is a candidate; its basin runs to the density minima either side. Two neighbouring
//   modes merge (the higher peak stays) unless the dip between them is below 0.8 of the smaller peak:
//   shallower dips are sampling noise. A mode whose basin holds fewer than max(5, 5 % of n) instances merges
//   into the neighbour with the higher peak: so few instances are outliers, not a regime. One merge at a
//   time, the worst first, until stable; the global maximum always survives.
// - A surviving peak is then located between its grid neighbours by golden-section search, to the ns.
#include <cstdint>
#include <vector>

namespace gpueff::metrics {

struct DurationMode {
    std::int64_t at = 0;         // the duration (ns) where the density peaks, inside [min, max] of the data
    std::uint64_t instances = 0; // instances in the mode's basin (between the density minima either side)
};

// The separated, supported modes of `durations` (any order; not modified), by kernel density estimation with
// a Gaussian kernel and a bandwidth rule (Silverman's rule of thumb, robust form: 0.9 * min(sd, IQR/1.34) *
// n^-1/5). Ordered by duration; their instances sum to durations.size(). Empty input -> empty; otherwise at
// least one mode (all durations equal -> one mode there).
std::vector<DurationMode> durationModes(const std::vector<std::int64_t>& durations);

} // namespace gpueff::metrics
