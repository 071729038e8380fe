#pragma once
// The files of a dashboard site (docs/dashboard.md), as text: the pages and assets compiled into the binary,
// the index's data (data/index.js), the scaling studies (data/scaling.js and their plots), one data file per
// run (runs/ID.js, loaded by run.html?run=ID only when that page opens) and the badges of the latest run.
// Data files are scripts that call a function of the page with the data, since a page opened from file://
// may not fetch a file.
#include "reports/CompareGate.h"
#include "reports/DashboardRuns.h"

#include <string>
#include <vector>

namespace gpueff::reports::dashboard {

struct SiteOptions {
    std::size_t reference = 0;         // the run the comparative factors are against
    std::vector<compare::Gate> gates;  // against the previous run; defaultDashboardGates() when empty
    std::string orderBy;               // how the runs were ordered, as the index says
    std::string scalingTag;            // the tag grouping runs into scaling studies; empty: by device count
    std::vector<std::string> warnings; // inputs skipped, shown on the index
};

struct SiteFile {
    std::string path; // relative to SITE
    std::string text;
};

std::vector<SiteFile> buildSite(const std::vector<DashboardRun>& runs,
                                const std::vector<ComparisonInput>& comparisons, const SiteOptions& options);

// The data file of a run's page: gpueffRun({"id", "label", "attributes", "source", "links", "prev", "next",
// "report"}).
std::string runDataScript(const std::vector<DashboardRun>& runs, std::size_t i);

} // namespace gpueff::reports::dashboard
