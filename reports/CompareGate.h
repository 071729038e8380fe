#pragma once
// `gpueff compare --gate EXPR`: a condition on a figure of every run against the reference, for a CI job
// (docs/compare.md "Gates"). EXPR is FIGURE OP NUMBER [UNIT]:
//   FIGURE  a key of comparedFigures() (iteration_time, speedup, global_efficiency, parallel_efficiency,
//           load_balance, communication_efficiency, orchestration_efficiency, computational_efficiency),
//           optionally @nccl_as_useful (default @nccl_as_communication) for the efficiencies
//   OP      <=, <, >=, >
//   UNIT    %  the change relative to the reference, in percent      iteration_time<=+3%
//           pp the change in percentage points (efficiencies)       parallel_efficiency>=-2pp
//           ns, us, ms, s the change of a time                      iteration_time<=+500us
//           none: the run's value itself (not a time)               computational_efficiency>=0.97
// A gate fails for a run when its figure breaks the condition and the change is significant (the 95 %
// interval of the per-iteration shift does not hold 0); without an interval (runs compared per window, or
// too few steady iterations) it is judged on the condition alone, and says so.
#include "reports/CompareFigures.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gpueff::reports::compare {

enum class GateUnit { Absolute, Percent, Points, Time };

struct Gate {
    std::string text; // as given
    const ComparedFigure* figure = nullptr;
    std::size_t convention = 0;
    std::string op;       // "<=", "<", ">=", ">"
    double threshold = 0; // in the unit's terms; a time in ns
    GateUnit unit = GateUnit::Absolute;
};

// Throws gpueff::Error naming what is wrong with `text` (a usage error: the command exits 2 before any work).
Gate parseGate(const std::string& text);

struct GateResult {
    const Gate* gate = nullptr;
    std::string run; // the run's label
    Value measured;  // the gated quantity (the change in the gate's unit, or the value)
    Value low, high; // its 95 % interval, when there is one
    std::optional<bool> significant;
    bool failed = false;
    std::string detail; // one sentence: why it passed or failed
};

// One gate on `run` against `reference`.
GateResult evaluateGate(const Gate& gate, const RunUnit& run, const RunUnit& reference, bool weak);
// Every gate on every run but the reference.
std::vector<GateResult> evaluateGates(const std::vector<Gate>& gates, const std::vector<RunUnit>& runs,
                                      std::size_t reference, bool weak);

nlohmann::json gatesJson(const std::vector<GateResult>& results);
std::string gatesMarkdown(const std::vector<GateResult>& results);
// A JUnit XML report (one test case per gate and run), which GitLab and GitHub CI show.
std::string gatesJunit(const std::vector<GateResult>& results);

} // namespace gpueff::reports::compare
