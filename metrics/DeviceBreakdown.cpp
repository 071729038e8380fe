// What a device's totals are made of: its memory operations by kind (a run whose "communication" is
// host-to-device copies is not a network problem), and how many of its kernels were matched to the launch
// call that queued them (the kernels-queued and gap figures stand on those alone).
#include "engine/paraver/EventTypes.h"
#include "metrics/AnalysisParts.h"

#include <algorithm>

namespace gpueff::metrics {

void breakdownOf(const ShardReader& shard, const Device& d, DevicePartial& out) {
    namespace types = paraver::types;
    // Per kind, the union of its operations inside the window.
    std::map<std::int64_t, Spans> byKind;
    for (const auto& rows : d.work[kMemory])
        for (const auto& s : rows) byKind[s.value].push_back(s);
    for (auto& [kind, spans] : byKind) {
        std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });
        auto merged = clip(unite({&spans}), shard.window.begin, shard.window.end);
        if (auto ns = length(merged))
            out.times.memoryByKind[valueName(shard.trace, types::kMemoryOperation, kind)] += ns;
    }
    // A kernel is matched when a launch line arrives on its row at its start.
    const auto& comms = shard.trace.trace().communications;
    for (std::size_t i = 0; i < d.rows.size(); ++i) {
        std::vector<std::int64_t> arrivals;
        for (auto c : shard.trace.trace().threads[d.rows[i]].receives)
            if (comms[c].tag == types::kTagKernelLaunch) arrivals.push_back(comms[c].logicalRecv);
        std::sort(arrivals.begin(), arrivals.end());
        for (auto c : {kCompute, kNccl})
            if (i < d.work[c].size())
                for (const auto& k : d.work[c][i])
                    out.times.launchedKernels +=
                        std::binary_search(arrivals.begin(), arrivals.end(), k.begin);
    }
}

} // namespace gpueff::metrics
