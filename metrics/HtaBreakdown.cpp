// HTA's figures of a device (Analysis.h HtaBreakdown), from the same rows as the POP model: HTA's temporal
// breakdown and comm-comp overlap from the merged classes, its idle time by cause from each stream's
// operations in order and the launch lines that queued them; HtaRules.cpp replays HTA's other rules on the
// same operations.
#include "engine/paraver/EventTypes.h"
#include "metrics/AnalysisParts.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <stdexcept>

namespace gpueff::metrics {

namespace {

// |a ∩ b| of two merged span lists.
std::int64_t intersection(const Spans& a, const Spans& b) {
    std::int64_t total = 0;
    for (const auto& s : a) total += overlapWith(b, s.begin, s.end);
    return total;
}

} // namespace

void htaOf(const ShardReader& shard, const Device& d, const DeviceUnions& u, const HtaRuleInputs& rules,
           DevicePartial& out) {
    namespace types = paraver::types;
    HtaBreakdown& h = out.hta;
    Spans all = unite({&u.compute, &u.nccl, &u.memory});
    if (all.empty()) return;
    h.kernelTime = all.back().end - all.front().begin;
    h.idle = h.kernelTime - length(all);
    h.compute = length(u.compute);
    h.nonCompute = h.kernelTime - h.compute - h.idle;
    h.ncclTime = length(u.nccl);
    h.computeDuringNccl = intersection(u.compute, u.nccl);

    // Every operation of the device with the start of the call that launched it: the launch line arriving at
    // the operation's start on its row.
    const auto& trace = shard.trace.trace();
    const auto& rows = shard.trace.layout().rows;
    std::vector<HtaOperation> operations;
    std::size_t count = 0;
    for (std::size_t i = 0; i < d.rows.size(); ++i)
        for (auto c : {kCompute, kGraph, kNccl, kMemory})
            if (i < d.work[c].size()) count += d.work[c][i].size();
    if (count > UINT32_MAX) throw std::logic_error("htaOf: a device of more than 2^32 operations");
    operations.reserve(count);
    // Kernels, copies, memsets (no graphs) by CUDA stream, as indices into `operations` (4 bytes an operation
    // where a copy took 32).
    std::map<std::int64_t, std::vector<std::uint32_t>> byStream;
    // GPU start -> call start, the first line arriving at each start (16 bytes a line, where a map took 64).
    std::vector<std::pair<std::int64_t, std::int64_t>> launches;
    for (std::size_t i = 0; i < d.rows.size(); ++i) {
        launches.clear();
        for (auto c : trace.threads[d.rows[i]].receives) {
            const auto& line = trace.communications[c];
            if (line.tag == types::kTagKernelLaunch || line.tag == types::kTagMemoryLaunch)
                launches.emplace_back(line.logicalRecv, line.logicalSend);
        }
        auto byStart = [](const auto& a, const auto& b) { return a.first < b.first; };
        std::stable_sort(launches.begin(), launches.end(), byStart);
        launches.erase(std::unique(launches.begin(), launches.end(),
                                   [](const auto& a, const auto& b) { return a.first == b.first; }),
                       launches.end());
        auto stream = d.rows[i] < rows.size() ? rows[d.rows[i]].stream : -1;
        for (auto c : {kCompute, kGraph, kNccl, kMemory})
            if (i < d.work[c].size())
                for (const auto& s : d.work[c][i]) {
                    auto l =
                        std::lower_bound(launches.begin(), launches.end(), std::pair{s.begin, INT64_MIN});
                    HtaOperation op{s.begin, s.end,
                                    l == launches.end() || l->first != s.begin ? -1 : l->second,
                                    c == kCompute || c == kGraph};
                    if (c != kGraph)
                        byStream[stream].push_back(static_cast<std::uint32_t>(operations.size()));
                    operations.push_back(op);
                }
    }
    htaRulesOf(shard.window, operations, rules, h);

    // Idle by cause, per CUDA stream (a stream's lanes together): each operation starting in the window
    // after the stream's previous one.
    for (auto& [stream, indices] : byStream) {
        std::erase_if(indices, [&](std::uint32_t i) {
            return operations[i].begin < shard.window.begin || operations[i].begin >= shard.window.end;
        });
        // The same comparisons on the same order as sorting the operations themselves: ties (lanes of a
        // stream with equal bounds and different launches) end where that sort put them.
        std::sort(indices.begin(), indices.end(), [&](std::uint32_t i, std::uint32_t j) {
            const auto &a = operations[i], &b = operations[j];
            return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
        });
        for (std::size_t k = 1; k < indices.size(); ++k) {
            const auto &op = operations[indices[k]], &previous = operations[indices[k - 1]];
            std::int64_t previousEnd = previous.end, gap = op.begin - previousEnd;
            if (op.launch >= 0 && op.launch > previousEnd)
                h.hostWait += gap;
            else if (gap < HtaBreakdown::kConsecutiveKernelDelayNs)
                h.kernelWait += gap;
            else
                h.other += gap;
        }
    }
}

} // namespace gpueff::metrics
