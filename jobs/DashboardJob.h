#pragma once
// `gpueff dashboard` as a library call (docs/dashboard.md): the reports of many runs into a static site
// (SITE/index.html, scaling.html, run.html?run=ID, data/, runs/, badges/, assets/) written all or none, and
// optionally the flat metrics export (--metrics FILE.csv or FILE.jsonl).
#include "reports/CompareGate.h"

#include <string>
#include <vector>

namespace gpueff::jobs {

struct DashboardRequest {
    std::vector<std::string>
        inputs;         // report.json, analyze directories, compare.json, or directories to search
    std::string outDir; // SITE, created when missing
    std::vector<std::string> labels;           // one per report found, in the order found; or empty
    std::string runsFile;                      // runs.json or .csv, or empty
    std::string orderBy = "start";             // start, label, file, date
    std::string reference;                     // --ref LABEL, or empty: the first run
    std::vector<reports::compare::Gate> gates; // against the previous run; empty: iteration_time<=+0%
    std::string scalingTag;                    // --scaling TAG, or empty
    std::string metricsFile;                   // --metrics FILE, or empty
    bool quiet = false;
};

// The orders --order-by accepts.
inline constexpr const char* kDashboardOrders[] = {"start", "label", "file", "date"};

// Returns 0; throws Error when nothing can be shown or an output cannot be written. A report that cannot be
// read (damaged, another schema version) is named and skipped with a warning on stderr and on the index.
int runDashboard(const DashboardRequest& request);

} // namespace gpueff::jobs
