#pragma once
// The POP efficiency factors, written once for every model gpueff computes: the device model
// (DeviceModel.cpp), the MPI model of the host (HostModel.cpp), the CPU model factors of `gpueff
// modelfactors` (ModelFactors.cpp) and the scaling table of `gpueff compare` (reports/Compare.cpp).
//
// The hierarchy is multiplicative; factors are fractions (1 = 100 %):
//
//   global efficiency        = parallel efficiency x computation scalability
//   parallel efficiency      = load balance x communication efficiency [x orchestration efficiency]
//                            = average useful time / runtime
//   load balance             = average useful time / maximum useful time
//   communication efficiency = maximum useful time / runtime
//       with an orchestration level (the device model): maximum useful time / maximum active time, and
//   orchestration efficiency = maximum active time / runtime (the product stays maximum useful / runtime)
//   computation scalability  = total useful time (reference) / total useful time (run)
//                              [x workers (run) / workers (reference) under weak scaling]
//       with hardware counters: = IPC scalability x instruction scalability x frequency scalability
//   speedup                  = runtime (reference) / runtime (run)
//
// A worker is a device, a task or a thread; its useful time is what it spent on useful work inside the
// run's window, and the runtime is the window's length. Serialization and transfer efficiency (the split of
// communication efficiency that needs an ideal-network replay) are not computed by gpueff.
//
// Parallel efficiency is computed from the average directly, not as the product of its factors, so that it
// carries one rounding only. When a denominator is zero a factor is not defined: the callers say so
// (DeviceModel: not computable; Compare: null) or throw before dividing (ModelFactors).

namespace gpueff::metrics::pop {

// An average useful time as its caller holds it. The device and MPI models sum integer nanoseconds and keep
// the sum and the count, so a factor over the average divides once: sum / (count x d). The CPU model reads
// per-thread doubles and averages first (sum / count, then / d). The two orders can differ in the last bit;
// each model keeps its own, so that no report changes a digit.
struct SumOver {
    double sum, count;
};

constexpr double over(SumOver average, double denominator) {
    return average.sum / (average.count * denominator);
}
constexpr double over(double average, double denominator) {
    return average / denominator;
}

// average useful / runtime
template <class Average>
constexpr double parallelEfficiency(Average usefulAverage, double runtime) {
    return over(usefulAverage, runtime);
}

// average useful / maximum useful; 0 when no worker did useful work (nothing to balance).
template <class Average>
constexpr double loadBalance(Average usefulAverage, double usefulMax) {
    return usefulMax > 0 ? over(usefulAverage, usefulMax) : 0;
}

// maximum useful / runtime (or / maximum active time under an orchestration level).
constexpr double communicationEfficiency(double usefulMax, double runtime) {
    return usefulMax / runtime;
}

// maximum active time (useful or communicating) / runtime.
constexpr double orchestrationEfficiency(double activeMax, double runtime) {
    return activeMax / runtime;
}

// total useful (reference) / total useful (run): strong scaling, same work spread over more workers.
constexpr double computationScalability(double referenceUsefulTotal, double usefulTotal) {
    return referenceUsefulTotal / usefulTotal;
}

// Weak scaling: the work grows with the workers, so the strong-scaling value is multiplied by their ratio.
constexpr double weakComputationScalability(double strong, double workers, double referenceWorkers) {
    return strong * (workers / referenceWorkers);
}

constexpr double globalEfficiency(double parallel, double computationScalability) {
    return parallel * computationScalability;
}

constexpr double speedup(double referenceRuntime, double runtime) {
    return referenceRuntime / runtime;
}

// The device time of a run (n workers x runtime) split the POP way, each part what one factor loses:
//   n T = sum U + (n Umax - sum U) + n (Amax - Umax) + n (T - Amax)
//         useful  load balance       communication     orchestration
// Each loss is zero exactly when its factor is 1, and the parts add up to n T exactly (integer ns in the
// report's executive summary, per-iteration doubles in compare's split of a difference).
template <class N>
struct DeviceTimeSplit {
    N useful, loadBalance, communication, orchestration;
    constexpr N total() const { return useful + loadBalance + communication + orchestration; }
    constexpr N lost() const { return loadBalance + communication + orchestration; }
};

template <class N>
constexpr DeviceTimeSplit<N> deviceTimeSplit(N workers, N runtime, N usefulSum, N usefulMax, N activeMax) {
    return {usefulSum, workers * usefulMax - usefulSum, workers * (activeMax - usefulMax),
            workers * (runtime - activeMax)};
}

// The parts of computation scalability when the run has hardware counters.
constexpr double ipcScalability(double ipc, double referenceIpc) {
    return ipc / referenceIpc;
}
constexpr double instructionScalability(double referenceInstructions, double instructions) {
    return referenceInstructions / instructions;
}
constexpr double frequencyScalability(double frequency, double referenceFrequency) {
    return frequency / referenceFrequency;
}

} // namespace gpueff::metrics::pop
