#pragma once
// Side-by-side comparison of several reports (runs of one application: tunings, or scaling at different
// device counts), from their report models alone (read from report.json by model::readReport).
#include "reports/CompareGate.h"
#include "reports/model/Report.h"

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace gpueff::reports {

struct Comparison {
    std::string markdown; // compare.md: links to the plots as plots/NAME.svg
    // compare.json (docs/compare.md): {"schema": "gpueff-compare/1", "runs": [...], "reference": {...},
    //  "scaling": {..., "fits": {...} | null} | null, "kernel_deltas": [...], "gaps": [...], "host": [...],
    //  "plots": [...], "warnings": [...]}; numbers that cannot be computed are null.
    nlohmann::json json;
    // The plots: path relative to the output directory ("plots/NAME.svg") and SVG text.
    std::vector<std::pair<std::string, std::string>> files;
    // Every gate on every run (CompareOptions::gates); `gpueff compare` exits 4 when one failed.
    std::vector<compare::GateResult> gates;
    bool gateFailed() const {
        for (const auto& g : gates)
            if (g.failed) return true;
        return false;
    }
};

struct CompareOptions {
    // Weak scaling: the problem grows with the devices, so computational scalability is multiplied by
    // n(run) / n(ref).
    bool weak = false;
    // The label of the run the others are set against; empty: the run with the fewest devices when the
    // counts differ (the first of those), else the first run.
    std::string reference;
    std::vector<compare::Gate> gates; // parsed (compare::parseGate) before any work
};

// Throws gpueff::Error naming `label` when `report` is not a "gpueff-report/1" document, with a hint for the
// user (the full check against docs/report.schema.json follows in model::readReport).
void checkReportSchema(const nlohmann::json& report, const std::string& label);

// The verdict of each run against the reference (CompareVerdict.h), its gates, the comparative factors, the
// time split and the work per unit (CompareSplit.h), per steady iteration when every run has steady
// iterations. Efficiencies of every run with their differences from the reference (percentage points), and,
// when device counts differ, a scaling table against the reference:
// computational scalability = sum U(ref) / sum U(run) (x n/n_ref when weak), global efficiency = parallel
// efficiency x computational scalability, speedup = T(ref) / T(run); with three or more distinct counts, each
// factor fitted against log2(n) (CompareScaling.h). Then kernel deltas, gaps and host figures
// (CompareTables.h), iterations and phases (CompareLevels.h), and the plots. Labels default to "run 1", ...
// Throws gpueff::Error for fewer than one report, a label count that does not match or a reference label that
// names no run.
Comparison compareReports(const std::vector<model::Report>& reports, const std::vector<std::string>& labels,
                          const CompareOptions& options = {});

// Every plot file compareReports can write ("plots/NAME.svg"), whatever the reports: `gpueff compare -o DIR`
// removes those the new comparison does not write, and no other file.
std::vector<std::string> comparePlotFiles();

} // namespace gpueff::reports
