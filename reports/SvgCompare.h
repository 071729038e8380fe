#pragma once
// The plots of `gpueff compare` (reports/SvgCompare.cpp). Each returns "" when there is nothing to draw.
#include "reports/CompareParts.h"
#include "reports/CompareScaling.h"

#include <array>
#include <string>
#include <vector>

namespace gpueff::reports::svg {

// Grouped bars: one group per run, one bar per device factor (parallel efficiency, load balance,
// communication and orchestration efficiency), as percentages.
std::string efficiencyByRunChart(const std::string& conventionTitle, const std::vector<std::string>& runs,
                                 const std::vector<std::array<compare::Value, 4>>& factors);

// Grouped bars: one group per phase, one bar per run, the phase's mean time. meanNs[phase][run].
std::string phaseTimesChart(const std::vector<std::string>& phases, const std::vector<std::string>& runs,
                            const std::vector<std::vector<compare::Value>>& meanNs);

// The six scaling factors of one convention against the device count (log2 axis): the runs as points, the
// fitted lines solid over the measured counts and dashed where extrapolated (clamped as in the table).
std::string scalingChart(const std::vector<compare::ScalingRun>& runs, const compare::ScalingFits& fits,
                         std::size_t convention);

// Waterfalls of the device time per unit, one per run against the reference: the reference's device time,
// the change of each part of the POP split (useful work, load balance, communication, orchestration; more
// time in vermillion, less in green), the run's device time. bars[run] = {total, useful, load balance,
// communication, orchestration}.
std::string timeSplitWaterfall(const std::vector<std::string>& runs,
                               const std::vector<std::array<double, 5>>& bars, std::size_t reference,
                               const std::string& per);

} // namespace gpueff::reports::svg
