#pragma once
#include "engine/semantic/LoadedTrace.h"

#include <optional>
#include <string>
#include <vector>

namespace gpueff::metrics {

// What the POP model needs from one run, each number from a cfg in cfgs/modelfactors/ evaluated by the
// engine: runtime, useful time per thread, and the PAPI counters inside useful bursts.
struct RunMeasures {
    std::string trace;
    std::size_t processes = 0;
    double runtimeNs = 0;
    std::vector<double> usefulNs; // per thread
    std::optional<double> instructions, cycles;
};

RunMeasures measureRun(const semantic::LoadedTrace& trace);

// POP CPU model factors over runs of one application at different process counts (the first run, the
// smallest, is the reference; strong scaling). Factors are fractions (1 = 100 %); absent = not computable.
struct ModelFactors {
    struct Run {
        RunMeasures measures;
        double parallelEfficiency, loadBalance, communicationEfficiency, computationScalability,
            globalEfficiency, speedup;
        std::optional<double> ipcScalability, instructionScalability, frequencyScalability, ipc, frequencyGhz;
        double usefulAverageNs, usefulMaximumNs, usefulTotalNs;
    };
    std::vector<Run> runs;
};

ModelFactors computeModelFactors(std::vector<RunMeasures> runs);

} // namespace gpueff::metrics
