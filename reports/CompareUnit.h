#pragma once
// The unit `gpueff compare` compares runs by (docs/compare.md "Unit of comparison"): the mean steady
// iteration when every run has steady iterations (the iterations of its focus that are not outliers), else
// each run's window. Two windows holding 17 and 15 iterations compare how much work each
// holds; two iterations compare the work itself.
#include "metrics/PopFactors.h"
#include "reports/CompareParts.h"
#include "reports/model/Report.h"

#include <map>
#include <string>
#include <vector>

namespace gpueff::reports::compare {

inline constexpr std::size_t kFactorCount = 4; // parallel, load balance, communication, orchestration

// One kernel name of a report's kernel_summary.overall (the whole trace, as `nsys stats`). A name listed
// twice (nsys2prv's short names can merge kernels) is summed, its average then recomputed from the sums.
struct KernelFigures {
    double total = 0, instances = 0;
    Value average;
    bool collective = false; // NCCL or RCCL (isCollectiveKernel, as the translator classes it)
};
std::map<std::string, KernelFigures> kernelsOf(const model::Report& report);

struct RunUnit {
    std::string label;
    bool perIteration = false;
    double devices = 0;
    std::int64_t firstIteration = 0, lastIteration = 0; // the focus (iteration indexes), per iteration
    double iterations = 1; // the steady iterations the unit is the mean of; 1: the window
    double timeNs = 0;     // the unit's length: the mean steady iteration, or the window
    // The units the window holds (window / timeNs), by which a figure of the whole window (gaps, host
    // blocking, kernel time) is put per iteration.
    double windowUnits = 1;
    // Per convention: n x timeNs split among useful time and the three losses, per unit; the factors over
    // the unit (the steady iterations taken together; null where not computable).
    metrics::pop::DeviceTimeSplit<double> split[kConventionCount] = {};
    Value factors[kConventionCount][kFactorCount];
    // One value per steady iteration, in order (empty per window): its duration; per convention its useful
    // time summed over the devices and its four factors (NaN where not computable).
    std::vector<double> durations;
    std::vector<double> usefulSums[kConventionCount];
    std::vector<double> factorSamples[kConventionCount][kFactorCount];

    // Per convention, per unit: the devices' communication and idle time summed (the device model's states).
    double communicationSum[kConventionCount] = {}, idleSum[kConventionCount] = {};
    // Figures of the whole window (or trace) put per unit (multiplied by `per`, 1 / windowUnits).
    struct Work {
        double per = 1;
        double kernelNs = 0, ncclKernelNs = 0; // kernel_summary: all kernels, the collective ones
        double gaps = 0, gapNs = 0, hostWaitNs = 0, kernelWaitNs = 0; // idle gaps summed over devices
        double hostWaitGaps = 0;
        double blockingNs = 0;                        // time in blocking CUDA calls, summed over tasks
        std::map<std::string, KernelFigures> kernels; // the whole trace's (not per unit): kernelsOf
    } work;

    double usefulPerUnit(std::size_t convention) const { return split[convention].useful; }
};

// A run has steady iterations: its focus and at least one steady iteration in the report.
bool hasSteadyIterations(const model::Report& report);

// The run's figures per iteration when `perIteration` (hasSteadyIterations must hold), else over its window.
RunUnit runUnit(const model::Report& report, const std::string& label, bool perIteration);

// "per iteration" or "per window", for table captions.
inline const char* unitName(bool perIteration) {
    return perIteration ? "per iteration" : "per window";
}

} // namespace gpueff::reports::compare
