#pragma once
// The runs a dashboard shows (docs/dashboard.md): each report with what the user says of it (labels and a
// runs.json or CSV mapping a run to its commit, date, branch, device count and free tags), in the order the
// site shows them.
#include "reports/model/Report.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::reports::dashboard {

// What a runs.json or runs.csv says of a run; every part optional.
struct RunAttributes {
    std::optional<std::string> label, commit, date, branch;
    std::optional<std::int64_t> gpus;
    std::map<std::string, std::string> tags;
};

// A file of the run to open from its page (the Paraver trace, cfgs, report.md), relative to the site.
struct RunLink {
    std::string name, href;
};

struct DashboardRun {
    std::string id;     // "r0001": the run's page is run.html?run=r0001, its data runs/r0001.js
    std::string label;  // --labels, the mapping's label, else the analyze directory's name
    std::string source; // the report.json as found
    RunAttributes attributes;
    model::Report report;
    std::string reportText; // report.json as read (the run page's data)
    std::vector<RunLink> links;
    // When the analysed window began on the wall clock (UTC ns): window.begin_ns placed by an input's offset
    // and session start (the earliest over the inputs); none when no input records its session start.
    std::optional<std::int64_t> startUtcNs() const;
};

// A compare.json given (or found) among the inputs: shown as it is on the scaling page.
struct ComparisonInput {
    std::string source;
    nlohmann::json document;
};

} // namespace gpueff::reports::dashboard
