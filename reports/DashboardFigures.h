#pragma once
// The figures a dashboard's index shows of each run (docs/dashboard.md "Index"): its unit of comparison (the
// mean steady iteration, else the window; reports/CompareUnit.h), the comparative factors against the
// reference run, and the gates of `compare --gate` against the run before it, which mark the regressions.
#include "reports/CompareGate.h"
#include "reports/CompareUnit.h"
#include "reports/DashboardRuns.h"

#include <vector>

namespace gpueff::reports::dashboard {

struct RunFigures {
    compare::RunUnit unit; // per iteration when the run has steady iterations, else over its window
    // Against the reference run (compare's catalogue, reports/CompareFigures.h), per NCCL convention.
    compare::Value speedup, globalEfficiency[compare::kConventionCount],
        computationalEfficiency[compare::kConventionCount];
    // Every gate against the previous run (none for the first); a failed one is a regression.
    std::vector<compare::GateResult> gates;
    bool regressed() const {
        for (const auto& g : gates)
            if (g.failed) return true;
        return false;
    }
};

// The gates a dashboard marks regressions by when the user gives none: a slowdown of the iteration time
// of more than 1 % beyond the run-to-run noise (a threshold of 0 would flag about one pair in forty of
// runs that differ by noise alone: the 95 % interval of each pair misses by chance).
std::vector<compare::Gate> defaultDashboardGates();

// One entry per run, in order. Two runs are compared per steady iteration when both have steady iterations,
// else over their windows, as `gpueff compare` would compare that pair. `gates` must outlive the result.
std::vector<RunFigures> runFigures(const std::vector<DashboardRun>& runs, std::size_t reference,
                                   const std::vector<compare::Gate>& gates);

} // namespace gpueff::reports::dashboard
