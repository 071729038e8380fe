#include "reports/DashboardFigures.h"

#include "reports/CompareFigures.h"

namespace gpueff::reports::dashboard {

namespace {

using compare::RunUnit;

// Calls `compareWith(runUnit, referenceUnit)` with the units of a pair as `gpueff compare` would build them:
// per iteration only when both runs have steady iterations. The runs' own units when they agree (no copy),
// else units over both windows.
template <class Compare>
void asPair(const DashboardRun& run, const RunUnit& ur, const DashboardRun& reference, const RunUnit& uref,
            Compare&& compareWith) {
    if (ur.perIteration == uref.perIteration) return compareWith(ur, uref);
    compareWith(compare::runUnit(run.report, run.label, false),
                compare::runUnit(reference.report, reference.label, false));
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
        asPair(runs[i], out[i].unit, runs[reference], out[reference].unit,
               [&](const RunUnit& run, const RunUnit& ref) { againstReference(out[i], run, ref); });
        if (i == 0) continue;
        asPair(runs[i], out[i].unit, runs[i - 1], out[i - 1].unit,
               [&](const RunUnit& current, const RunUnit& previous) {
                   for (const auto& g : gates)
                       out[i].gates.push_back(compare::evaluateGate(g, current, previous, false));
               });
    }
    return out;
}

} // namespace gpueff::reports::dashboard
