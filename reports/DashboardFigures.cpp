#include "reports/DashboardFigures.h"

#include "reports/CompareFigures.h"

namespace gpueff::reports::dashboard {

namespace {

using compare::RunUnit;

// The units of a pair as `gpueff compare` would build them: per iteration only when both runs have steady
// iterations. Returns the runs' own units when they already agree, else units over both windows.
std::pair<RunUnit, RunUnit> pairUnits(const DashboardRun& a, const RunUnit& ua, const DashboardRun& b,
                                      const RunUnit& ub) {
    if (ua.perIteration == ub.perIteration) return {ua, ub};
    return {compare::runUnit(a.report, a.label, false), compare::runUnit(b.report, b.label, false)};
}

const compare::ComparedFigure& figure(const char* key) {
    return *compare::comparedFigure(key);
}

void againstReference(RunFigures& f, const RunUnit& run, const RunUnit& reference) {
    f.speedup = compare::compareFigure(figure("speedup"), run, reference, 0, false).run;
    for (std::size_t c = 0; c < compare::kConventionCount; ++c) {
        f.globalEfficiency[c] =
            compare::compareFigure(figure("global_efficiency"), run, reference, c, false).run;
        f.computationalEfficiency[c] =
            compare::compareFigure(figure("computational_efficiency"), run, reference, c, false).run;
    }
}

} // namespace

std::vector<compare::Gate> defaultDashboardGates() {
    return {compare::parseGate("iteration_time<=+1%")};
}

std::vector<RunFigures> runFigures(const std::vector<DashboardRun>& runs, std::size_t reference,
                                   const std::vector<compare::Gate>& gates) {
    std::vector<RunFigures> out(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i)
        out[i].unit =
            compare::runUnit(runs[i].report, runs[i].label, compare::hasSteadyIterations(runs[i].report));
    for (std::size_t i = 0; i < runs.size(); ++i) {
        auto [run, ref] = pairUnits(runs[i], out[i].unit, runs[reference], out[reference].unit);
        againstReference(out[i], run, ref);
        if (i == 0) continue;
        auto [previous, current] = pairUnits(runs[i - 1], out[i - 1].unit, runs[i], out[i].unit);
        out[i].gates = compare::evaluateGates(gates, {std::move(previous), std::move(current)}, 0, false);
    }
    return out;
}

} // namespace gpueff::reports::dashboard
