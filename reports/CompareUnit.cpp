#include "reports/CompareUnit.h"

#include "engine/common/Text.h"

#include <cmath>
#include <limits>

namespace gpueff::reports::compare {

namespace {

// The window's (or trace's) figures of the report, per unit.
RunUnit::Work workOf(const model::Report& report, double windowUnits) {
    RunUnit::Work w;
    const double per = w.per = windowUnits > 0 ? 1 / windowUnits : 0;
    w.kernels = kernelsOf(report);
    for (const auto& row : report.kernelSummary.overall) {
        w.kernelNs += static_cast<double>(row.totalNs) * per;
        if (isCollectiveKernel(row.name)) w.ncclKernelNs += static_cast<double>(row.totalNs) * per;
    }
    for (const auto& g : report.gaps) {
        w.gaps += static_cast<double>(g.count) * per;
        w.gapNs += static_cast<double>(g.totalNs) * per;
        w.hostWaitNs += static_cast<double>(g.hostWaitNs) * per;
        w.hostWaitGaps += static_cast<double>(g.hostWaitCount) * per;
        w.kernelWaitNs += static_cast<double>(g.kernelWaitNs) * per;
    }
    if (report.host)
        for (const auto& o : report.host->offload) w.blockingNs += static_cast<double>(o.blockingNs) * per;
    return w;
}

void addStates(RunUnit& u, std::size_t c, const model::Convention& e) {
    for (const auto& d : e.devices) {
        u.communicationSum[c] += static_cast<double>(d.communicationNs);
        u.idleSum[c] += static_cast<double>(d.idleNs);
    }
}

} // namespace

std::map<std::string, KernelFigures> kernelsOf(const model::Report& report) {
    std::map<std::string, KernelFigures> out;
    for (const auto& row : report.kernelSummary.overall) {
        auto [it, fresh] = out.try_emplace(row.name);
        auto& k = it->second;
        k.total += static_cast<double>(row.totalNs), k.instances += static_cast<double>(row.instances);
        k.average = fresh ? (std::isfinite(row.avgNs) ? Value(row.avgNs) : std::nullopt)
                          : (k.instances > 0 ? Value(k.total / k.instances) : std::nullopt);
        k.collective = isCollectiveKernel(row.name);
    }
    return out;
}

bool hasSteadyIterations(const model::Report& report) {
    if (!report.focus || !*report.focus || !report.iterations) return false;
    for (const auto& it : *report.iterations)
        if (it.status == "steady") return true;
    return false;
}

RunUnit runUnit(const model::Report& report, const std::string& label, bool perIteration) {
    RunUnit u;
    u.label = label;
    u.devices = static_cast<double>(report.devices.size());
    u.perIteration = perIteration;
    const double window = static_cast<double>(report.window.durationNs);
    if (!perIteration) {
        u.timeNs = window;
        for (std::size_t c = 0; c < kConventionCount; ++c) {
            const auto& e = report.efficiency.convention(c);
            u.split[c] = metrics::pop::deviceTimeSplit<double>(
                u.devices, window, static_cast<double>(e.usefulSumNs), static_cast<double>(e.usefulMaxNs),
                static_cast<double>(e.activeMaxNs));
            for (std::size_t f = 0; f < kFactorCount; ++f) u.factors[c][f] = e.factor(f);
            addStates(u, c, e);
        }
        u.work = workOf(report, 1);
        return u;
    }
    // The steady iterations as one stretch of time: each part of the split summed over them, then divided
    // by their count, so that the mean split adds up to n x the mean iteration exactly.
    double duration = 0, useful[kConventionCount] = {}, usefulMax[kConventionCount] = {},
           activeMax[kConventionCount] = {};
    for (const auto& it : *report.iterations) {
        if (it.status != "steady") continue;
        u.durations.push_back(static_cast<double>(it.durationNs));
        duration += static_cast<double>(it.durationNs);
        for (std::size_t c = 0; c < kConventionCount; ++c) {
            const auto& e = it.figures.efficiency.convention(c);
            u.usefulSums[c].push_back(static_cast<double>(e.usefulSumNs));
            addStates(u, c, e);
            useful[c] += static_cast<double>(e.usefulSumNs);
            usefulMax[c] += static_cast<double>(e.usefulMaxNs);
            activeMax[c] += static_cast<double>(e.activeMaxNs);
            // NaN where not computable, so that the samples stay in step with the iterations.
            for (std::size_t f = 0; f < kFactorCount; ++f)
                u.factorSamples[c][f].push_back(
                    e.factor(f).value_or(std::numeric_limits<double>::quiet_NaN()));
        }
    }
    const model::Focus& focus = **report.focus;
    u.firstIteration = focus.first;
    u.lastIteration = focus.last;
    u.iterations = static_cast<double>(u.durations.size());
    u.timeNs = duration / u.iterations;
    u.windowUnits = u.timeNs > 0 ? window / u.timeNs : 0;
    for (std::size_t c = 0; c < kConventionCount; ++c)
        u.communicationSum[c] /= u.iterations, u.idleSum[c] /= u.iterations;
    u.work = workOf(report, u.windowUnits);
    namespace pop = metrics::pop;
    for (std::size_t c = 0; c < kConventionCount; ++c) {
        auto s = pop::deviceTimeSplit<double>(u.devices, duration, useful[c], usefulMax[c], activeMax[c]);
        u.split[c] = {s.useful / u.iterations, s.loadBalance / u.iterations, s.communication / u.iterations,
                      s.orchestration / u.iterations};
        if (useful[c] > 0 && duration > 0 && u.devices > 0)
            u.factors[c][0] = pop::parallelEfficiency(pop::SumOver{useful[c], u.devices}, duration),
            u.factors[c][1] = pop::loadBalance(pop::SumOver{useful[c], u.devices}, usefulMax[c]),
            u.factors[c][2] = pop::communicationEfficiency(usefulMax[c], activeMax[c]),
            u.factors[c][3] = pop::orchestrationEfficiency(activeMax[c], duration);
    }
    return u;
}

} // namespace gpueff::reports::compare
