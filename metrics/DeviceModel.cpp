// The device efficiency model (MODEL.md, docs/report.md): PE = LB x CommE x OrchE in both conventions, with
// the factors of PopFactors.h over the devices' useful and active time.
#include "engine/common/Error.h"
#include "metrics/LevelParts.h"
#include "metrics/PopFactors.h"

#include <algorithm>

namespace gpueff::metrics {

namespace {

Efficiency::PerDevice split(const DeviceUnions& d, bool ncclUseful, std::int64_t T) {
    auto useful = ncclUseful ? unite({&d.compute, &d.nccl}) : d.compute;
    auto communication = ncclUseful ? d.memory : unite({&d.nccl, &d.memory});
    Efficiency::PerDevice p;
    p.useful = length(useful);
    p.communication = length(subtract(communication, useful));
    p.idle = T - p.useful - p.communication;
    return p;
}

Efficiency model(const Analysis& a, const std::vector<DevicePartial>& partials, bool ncclUseful) {
    std::vector<Efficiency::PerDevice> devices;
    for (const auto& d : partials) devices.push_back(ncclUseful ? d.asUseful : d.asCommunication);
    return efficiencyOf(std::move(devices), a.window.duration());
}

} // namespace

Efficiency efficiencyOf(std::vector<Efficiency::PerDevice> devices, std::int64_t T) {
    Efficiency e;
    e.devices = std::move(devices);
    for (const auto& p : e.devices) {
        // Sums over devices of times up to the window's length: only a window of centuries reaches 2^63.
        if (__builtin_add_overflow(e.usefulSum, p.useful, &e.usefulSum))
            throw Error("the analysis window (" + std::to_string(T) +
                        " ns) is too long to sum the devices' useful time in 64 bits");
        e.usefulMax = std::max(e.usefulMax, p.useful);
        e.activeMax = std::max(e.activeMax, p.useful + p.communication);
    }
    auto n = static_cast<double>(e.devices.size());
    e.computable = !e.devices.empty() && T > 0 && e.usefulMax > 0;
    if (e.computable) {
        const pop::SumOver average{static_cast<double>(e.usefulSum), n};
        const auto usefulMax = static_cast<double>(e.usefulMax), activeMax = static_cast<double>(e.activeMax);
        e.loadBalance = pop::loadBalance(average, usefulMax);
        e.communication = pop::communicationEfficiency(usefulMax, activeMax);
        e.orchestration = pop::orchestrationEfficiency(activeMax, static_cast<double>(T));
        e.parallel = pop::parallelEfficiency(average, static_cast<double>(T));
    }
    return e;
}

DeviceUnions deviceUnions(const Device& d, const AnalysisWindow& window) {
    auto merged = [&](std::initializer_list<ActivityClass> classes) {
        return clip(unite(d.rowsOf(classes)), window.begin, window.end);
    };
    return {merged({kCompute, kGraph}), merged({kNccl}), merged({kMemory})};
}

void deviceModelOf(const Device& d, const DeviceUnions& u, std::int64_t T, DevicePartial& out) {
    auto& t = out.times;
    t.compute = length(u.compute);
    t.nccl = length(u.nccl);
    t.memory = length(u.memory);
    for (const auto* rows : d.rowsOf({kCompute, kNccl})) t.kernels += rows->size();
    for (const auto* rows : d.rowsOf({kMemory})) t.memoryOperations += rows->size();
    out.asCommunication = split(u, false, T);
    out.asUseful = split(u, true, T);
}

void reduceDeviceModel(Analysis& a, const std::vector<DevicePartial>& partials) {
    for (const auto& p : partials) a.times.push_back(p.times);
    a.ncclAsCommunication = model(a, partials, false);
    a.ncclAsUseful = model(a, partials, true);
    if (a.activity.devices.empty())
        a.notes.push_back("no GPU device: the trace has no CUDA stream rows (CUDA-D<n>.S<s>), so the device "
                          "efficiency model, kernels in flight and overlap are not computed");
    else if (a.window.duration() <= 0)
        a.notes.push_back("the analysis window is empty: no efficiency can be computed");
    else if (!a.ncclAsCommunication.computable)
        a.notes.push_back(
            "no compute kernel ran in the window: the nccl_as_communication efficiencies are not "
            "defined (division by zero useful time)");
    for (std::size_t i = 0; i < a.activity.devices.size(); ++i)
        if (a.times[i].kernels == 0 && a.times[i].memoryOperations == 0)
            a.notes.push_back("device " + a.activity.devices[i].id + " ran no kernel or memory operation");
}

} // namespace gpueff::metrics
