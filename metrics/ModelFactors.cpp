#include "metrics/ModelFactors.h"

#include "engine/common/Error.h"
#include "engine/paraver/EventTypes.h"
#include "engine/semantic/Histogram.h"
#include "engine/semantic/Window.h"
#include "metrics/EmbeddedCfgs.h"
#include "metrics/PopFactors.h"

#include <algorithm>
#include <numeric>

namespace gpueff::metrics {

namespace {

// Per-thread values of the single-column histogram of an embedded cfg (rows without a burst read 0).
std::vector<double> perThread(const semantic::LoadedTrace& trace, const std::string& cfgName) {
    const auto* text = embeddedCfg(cfgName);
    if (!text) throw Error("cfg " + cfgName + " is not compiled into this gpueff");
    auto cfg = semantic::parseCfgText(*text, "cfgs/" + cfgName);
    semantic::WindowSet windows(cfg, trace.context());
    auto table = semantic::computeHistogram(cfg, windows);
    std::vector<double> values;
    for (const auto& row : table.cells) {
        double sum = 0;
        for (const auto& v : row)
            if (v) sum += *v;
        values.push_back(sum);
    }
    return values;
}

bool hasEventType(const semantic::LoadedTrace& trace, std::uint32_t type) {
    const auto& types = trace.context().eventTypes;
    return std::binary_search(types.begin(), types.end(), type);
}

// The useful-time cfg histograms the Useful function (1 in state Running, else 0) with ComputeYScale, which
// builds its columns from the smallest non-zero value; with no Running at all the only column is the value 0
// and would be read as useful time (PE 100 % for a header-only trace). Such a run has no model factors.
void checkMeasurable(const semantic::LoadedTrace& trace) {
    const auto& t = trace.trace();
    bool anyRecord = !t.communications.empty(), anyRunning = false, anyState = false;
    for (const auto& th : t.threads) {
        anyRecord = anyRecord || !th.stateBegin.empty() || !th.eventTime.empty();
        anyState = anyState || !th.stateBegin.empty();
        for (std::size_t i = 0; i < th.stateValue.size() && !anyRunning; ++i)
            anyRunning = th.stateValue[i] == 1 && th.stateEnd[i] > th.stateBegin[i];
    }
    if (!anyRecord)
        throw Error(trace.path.string() + ": the trace has no records, only a header: no model factors");
    // GPU traces written by nsys2prv or gpueff translate hold events only: say where their numbers are.
    if (!anyState)
        throw Error(
            trace.path.string() +
            ": the trace has no state records, so no thread is ever Running: no useful computation, no "
            "model factors (POP model factors need a CPU trace with states, e.g. from Extrae; traces "
            "written by nsys2prv or gpueff translate have none: use `gpueff analyze` for their GPU "
            "efficiency model)");
    if (!anyRunning)
        throw Error(
            trace.path.string() +
            ": no thread is ever in state 1 (Running) for any time: no useful computation, no model factors");
}

} // namespace

RunMeasures measureRun(const semantic::LoadedTrace& trace) {
    checkMeasurable(trace);
    RunMeasures m;
    m.trace = trace.path.string();
    m.processes = trace.context().objects.count(semantic::Level::Task);
    auto runtime = perThread(trace, "modelfactors/total_runtime.cfg");
    m.runtimeNs = runtime.empty() ? 0 : *std::max_element(runtime.begin(), runtime.end());
    m.usefulNs = perThread(trace, "modelfactors/total_useful_computation.cfg");
    if (hasEventType(trace, paraver::types::kPapiTotalInstructions) &&
        hasEventType(trace, paraver::types::kPapiTotalCycles)) {
        auto instructions = perThread(trace, "modelfactors/useful_instructions.cfg");
        auto cycles = perThread(trace, "modelfactors/useful_cycles.cfg");
        m.instructions = std::accumulate(instructions.begin(), instructions.end(), 0.0);
        m.cycles = std::accumulate(cycles.begin(), cycles.end(), 0.0);
    }
    return m;
}

ModelFactors computeModelFactors(std::vector<RunMeasures> runs) {
    if (runs.empty()) throw Error("no runs to compare");
    std::stable_sort(runs.begin(), runs.end(),
                     [](const auto& a, const auto& b) { return a.processes < b.processes; });
    ModelFactors out;
    auto total = [](const RunMeasures& r) {
        return std::accumulate(r.usefulNs.begin(), r.usefulNs.end(), 0.0);
    };
    const auto& ref = runs.front();
    auto frequency = [&](const RunMeasures& r) -> std::optional<double> {
        if (!r.cycles || total(r) == 0) return std::nullopt;
        return *r.cycles / (total(r) / 1000.0) / 1000.0; // cycles per useful microsecond / 1000 = GHz
    };
    auto ipc = [](const RunMeasures& r) -> std::optional<double> {
        if (!r.cycles || !r.instructions || *r.cycles == 0) return std::nullopt;
        return *r.instructions / *r.cycles;
    };
    for (const auto& r : runs) {
        if (r.usefulNs.empty() || r.runtimeNs <= 0)
            throw Error(r.trace + ": no threads or an empty time range");
        ModelFactors::Run f{};
        f.measures = r;
        f.usefulTotalNs = total(r);
        f.usefulAverageNs = f.usefulTotalNs / static_cast<double>(r.usefulNs.size());
        f.usefulMaximumNs = *std::max_element(r.usefulNs.begin(), r.usefulNs.end());
        f.loadBalance = pop::loadBalance(f.usefulAverageNs, f.usefulMaximumNs);
        f.communicationEfficiency = pop::communicationEfficiency(f.usefulMaximumNs, r.runtimeNs);
        f.parallelEfficiency = pop::parallelEfficiency(f.usefulAverageNs, r.runtimeNs);
        f.computationScalability = pop::computationScalability(total(ref), f.usefulTotalNs);
        f.globalEfficiency = pop::globalEfficiency(f.parallelEfficiency, f.computationScalability);
        f.speedup = pop::speedup(ref.runtimeNs, r.runtimeNs);
        f.ipc = ipc(r);
        f.frequencyGhz = frequency(r);
        if (f.ipc && ipc(ref)) f.ipcScalability = pop::ipcScalability(*f.ipc, *ipc(ref));
        if (r.instructions && ref.instructions)
            f.instructionScalability = pop::instructionScalability(*ref.instructions, *r.instructions);
        if (f.frequencyGhz && frequency(ref))
            f.frequencyScalability = pop::frequencyScalability(*f.frequencyGhz, *frequency(ref));
        out.runs.push_back(std::move(f));
    }
    return out;
}

} // namespace gpueff::metrics
