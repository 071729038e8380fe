// The device efficiency model (MODEL.md): PE = LB x CommE x OrchE in both conventions.
#include "metrics/Analysis.h"

#include <algorithm>

namespace gpueff::metrics {

namespace {

Efficiency model(const Analysis& a, bool ncclUseful) {
    Efficiency e;
    const auto T = a.window.duration();
    for (const auto& d : a.activity.devices) {
        std::vector<const Spans*> useful, comm;
        for (auto& rows : d.work[kCompute]) useful.push_back(&rows);
        for (auto& rows : d.work[kGraph]) useful.push_back(&rows);
        for (auto& rows : d.work[kNccl]) (ncclUseful ? useful : comm).push_back(&rows);
        for (auto& rows : d.work[kMemory]) comm.push_back(&rows);
        auto u = clip(unite(useful), a.window.begin, a.window.end);
        auto c = clip(unite(comm), a.window.begin, a.window.end);
        Efficiency::PerDevice p;
        p.useful = length(u);
        p.communication = lengthOutside(c, u);
        p.idle = T - p.useful - p.communication;
        e.devices.push_back(p);
        e.usefulSum += p.useful;
        e.usefulMax = std::max(e.usefulMax, p.useful);
        e.activeMax = std::max(e.activeMax, p.useful + p.communication);
    }
    auto n = static_cast<double>(e.devices.size());
    e.computable = !e.devices.empty() && T > 0 && e.usefulMax > 0;
    if (e.computable) {
        e.loadBalance = static_cast<double>(e.usefulSum) / (n * static_cast<double>(e.usefulMax));
        e.communication = static_cast<double>(e.usefulMax) / static_cast<double>(e.activeMax);
        e.orchestration = static_cast<double>(e.activeMax) / static_cast<double>(T);
        e.parallel = static_cast<double>(e.usefulSum) / (n * static_cast<double>(T));
    }
    return e;
}

} // namespace

void computeDeviceModel(Analysis& a) {
    for (const auto& d : a.activity.devices) {
        DeviceTimes t;
        auto classUnion = [&](std::initializer_list<ActivityClass> classes) {
            std::vector<const Spans*> parts;
            for (auto c : classes)
                for (auto& rows : d.work[c]) parts.push_back(&rows);
            return length(clip(unite(parts), a.window.begin, a.window.end));
        };
        t.compute = classUnion({kCompute, kGraph});
        t.nccl = classUnion({kNccl});
        t.memory = classUnion({kMemory});
        for (int c : {kCompute, kNccl})
            for (auto& rows : d.work[static_cast<std::size_t>(c)]) t.kernels += rows.size();
        for (auto& rows : d.work[kMemory]) t.memoryOperations += rows.size();
        a.times.push_back(t);
    }
    a.ncclAsCommunication = model(a, false);
    a.ncclAsUseful = model(a, true);
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
