#pragma once
// The flat export of a dashboard (`gpueff dashboard --metrics FILE`, docs/dashboard.md "Flat metrics"): one
// row per run x level (the run's window, each iteration, each phase) x device (each device, and "all") x NCCL
// convention, with the device model's times and the level's factors, so that Grafana, Superset or pandas
// read them without knowing report.json. CSV (RFC 4180, a header line) or JSON Lines (one object per row,
// null for no value).
#include "reports/DashboardRuns.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gpueff::reports::dashboard {

enum class MetricsFormat { Csv, JsonLines };

// The columns, in order (docs/dashboard.md describes each).
const std::vector<std::string_view>& metricsColumns();

// Calls `write` with the text of the export in pieces (the header first, then a run at a time), so that a
// thousand runs need not be one string.
void writeMetrics(const std::vector<DashboardRun>& runs, MetricsFormat format,
                  const std::function<void(std::string_view)>& write);

} // namespace gpueff::reports::dashboard
