#pragma once
// The charts of report.md, each drawn from a report.json document (docs/report.md) alone, on the frame of
// SvgFrame.h. Each returns "" when the report lacks the data.
#include "reports/SvgFrame.h"
#include "reports/model/Report.h"

#include <nlohmann/json.hpp>
#include <string>

namespace gpueff::reports::svg {

// Per device (SvgPlot.cpp): the time at each count of kernels in flight, the device states as stacked rows,
// the device model's factors, and the communication time at each count of activities running at once.
std::string kernelsInFlightChart(const model::Report& report);
std::string deviceStateChart(const model::Report& report); // useful/communication/idle per device
std::string deviceEfficiencyChart(const model::Report& report);
std::string overlapChart(const model::Report& report);
// Over time, from the report's timeline (SvgTimeline.cpp).
std::string inFlightTimelineChart(const model::Report& report);
std::string stateTimelineChart(const model::Report& report); // share of communication time per level
// Kernel time by category and idle gaps by duration (SvgBreakdown.cpp).
std::string kernelCategoryChart(const model::Report& report);
std::string gapHistogramChart(const model::Report& report);
// The four factors over the iterations (SvgLevels.cpp).
std::string iterationEfficiencyChart(const std::vector<model::Iteration>& iterations);

} // namespace gpueff::reports::svg
