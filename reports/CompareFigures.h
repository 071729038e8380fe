#pragma once
// The figures `gpueff compare` sets a run against the reference by, in one catalogue: the verdict, the
// comparative table, compare.json's "comparative" and the gates (--gate) all read these rows. Each gives the
// run's value over the unit of comparison (CompareUnit.h) and one value per steady iteration, whose shift
// from the reference's (metrics/LocationShift.h) says whether a change is beyond the run-to-run noise.
//
// The comparative POP factors (metrics/PopFactors.h), any device counts:
//   speedup                  = T(ref) / T(run), T the unit's time (mean steady iteration, or window)
//   computational efficiency = sum U(ref) / sum U(run) per unit [x n(run) / n(ref) under --weak]
//   global efficiency        = parallel efficiency x computational efficiency
#include "metrics/LocationShift.h"
#include "reports/CompareUnit.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gpueff::reports::compare {

enum class FigureKind {
    Time,    // ns: a change is given in ns and in %
    Ratio,   // speedup: a change in % (and absolute)
    Fraction // an efficiency: a change in percentage points (and %)
};

struct FigureContext {
    const RunUnit& run;
    const RunUnit& reference;
    std::size_t convention;
    bool weak;
};

struct ComparedFigure {
    const char* key;   // as a gate names it: iteration_time, speedup, parallel_efficiency, ...
    const char* label; // for Markdown
    FigureKind kind;
    bool higherIsBetter;
    bool perConvention; // differs between the NCCL conventions
    Value (*value)(const FigureContext&);
    std::vector<double> (*samples)(const FigureContext&); // per steady iteration; empty per window
};

std::span<const ComparedFigure> comparedFigures();
// The row named `key`, or nullptr.
const ComparedFigure* comparedFigure(const std::string& key);

// One figure of a run against the reference: both values, and the shift of the run's per-iteration values
// from the reference's (none per window, or with too few iterations).
struct FigureComparison {
    const ComparedFigure* figure = nullptr;
    Value reference, run;
    std::optional<metrics::LocationShift> shift;
    Value change() const { return run && reference ? Value(*run - *reference) : std::nullopt; }
    Value relativeChange() const { // in %
        return run && reference && *reference != 0 ? Value((*run / *reference - 1) * 100) : std::nullopt;
    }
    // Beyond the noise: the shift's interval does not hold 0. Null when there is no interval.
    std::optional<bool> significant() const {
        return shift ? std::optional<bool>(shift->significant()) : std::nullopt;
    }
};

FigureComparison compareFigure(const ComparedFigure& figure, const RunUnit& run, const RunUnit& reference,
                               std::size_t convention, bool weak);

} // namespace gpueff::reports::compare
