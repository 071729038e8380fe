#pragma once
// What `gpueff dashboard` reads (docs/dashboard.md "Inputs"): report.json files, directories written by
// `gpueff analyze`, compare.json files, and directories searched for them; and the runs file (runs.json or
// a CSV) that says each run's label, commit, date, branch, device count and free tags.
#include "reports/DashboardRuns.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace gpueff::jobs {

struct FoundInput {
    std::filesystem::path path; // a report.json or compare.json (decided by its "schema" when read)
    std::string given;          // the input it was found under, as given
};

// Each input in order; a directory holding report.json is that report, any other directory is searched
// (sorted, hidden directories and gpueff's staging directories skipped) for report.json and compare.json.
// Throws Error naming an input that does not exist, or a directory in which nothing was found.
std::vector<FoundInput> findDashboardInputs(const std::vector<std::string>& inputs);

// The runs file: JSON ({"runs": [{"run": KEY, "label", "commit", "date", "branch", "gpus", "tags": {...}}]}
// or the array alone) or CSV (a header with run and any of label, commit, date, branch, gpus; every other
// column is a tag). KEY names a run by its report.json, its directory (as given or found) or its label.
// Throws Error naming the file and the line or entry at fault.
std::map<std::string, reports::dashboard::RunAttributes> readRunsFile(const std::filesystem::path& file);
// The same, from the file's text: CSV when `csv`, else JSON; errors name `file`.
std::map<std::string, reports::dashboard::RunAttributes> parseRunsFile(const std::string& text,
                                                                       const std::string& file, bool csv);

} // namespace gpueff::jobs
