#pragma once
// Badges of a run's figures for a README (SITE/badges/NAME.svg, docs/dashboard.md "Badges"): a label and a
// value on a colour of the POP scale, in the style of the badges code forges show.
#include "reports/DashboardFigures.h"

#include <string>
#include <utility>
#include <vector>

namespace gpueff::reports::dashboard {

// The badges of `run` (the latest): its parallel efficiency and the three factors under it (NCCL as
// communication, over its unit), and its iteration time. Pairs of file name ("badges/NAME.svg") and SVG.
std::vector<std::pair<std::string, std::string>> runBadges(const RunFigures& run);

// One badge: `label` on grey, `value` on `colour` (#rrggbb).
std::string badgeSvg(const std::string& label, const std::string& value, const std::string& colour);

} // namespace gpueff::reports::dashboard
