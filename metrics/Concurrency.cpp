// Kernels in flight, kernels queued, and communication/computation overlap per device: sweeps over the
// device's activity (model/device_activity.cfg) and launches in transit (analysis/kernels_queued.cfg).
#include "engine/paraver/EventTypes.h"
#include "metrics/AnalysisParts.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gpueff::metrics {

namespace {

std::vector<Change> classChanges(const Device& d, std::initializer_list<ActivityClass> classes, int counter) {
    std::vector<Change> out;
    addSpanChanges(d.rowsOf(classes), counter, out);
    return out;
}

std::int64_t total(const std::vector<std::int64_t>& counts) {
    std::int64_t sum = 0;
    for (auto c : counts) sum += c;
    return sum;
}

// A row of a counting window (values are counts) as changes of one counter, read without holding the row.
void addLevelChanges(const CfgRows& cfg, std::size_t row, int counter, std::vector<Change>& out) {
    std::int64_t previous = 0;
    cfg.walk(0, row, true, [&](const Span& s) {
        if (s.value != previous) {
            const auto delta = s.value - previous;
            // A count of kernels queued on a device: a value beyond 32 bits is no count.
            if (delta < INT32_MIN || delta > INT32_MAX)
                throw std::logic_error("kernels queued: a count changes by " + std::to_string(delta));
            out.push_back({s.begin, counter, static_cast<std::int32_t>(delta)});
        }
        previous = s.value;
    });
}

} // namespace

void concurrencyOf(const ShardReader& shard, std::size_t index, const Device& d, const DeviceUnions& u,
                   DevicePartial& out) {
    const auto B = shard.window.begin, E = shard.window.end;
    auto& c = out.concurrency;
    c.inFlight = timeAtLevel(classChanges(d, {kCompute, kGraph, kNccl}, 0), 1, B, E,
                             [](const auto& n) { return n[0]; });
    c.inFlightWithMemory = timeAtLevel(classChanges(d, {kCompute, kGraph, kNccl, kMemory}, 0), 1, B, E,
                                       [](const auto& n) { return n[0]; });
    // Counter 0: communication (NCCL, memory); counter 1: computation.
    auto communication = d.rowsOf({kNccl, kMemory}), compute = d.rowsOf({kCompute, kGraph});
    std::vector<Change> changes;
    changes.reserve(2 * (spansIn(communication) + spansIn(compute)));
    addSpanChanges(communication, 0, changes);
    addSpanChanges(compute, 1, changes);
    c.overlap =
        timeAtLevel(std::move(changes), 2, B, E, [](const auto& n) { return n[0] > 0 ? total(n) : -1; });
    for (const auto& [level, ns] : c.overlap) c.communication += ns;
    if (shard.queuedAvailable) {
        std::vector<Change> q;
        for (auto row : d.rows) addLevelChanges(shard.queued, row, 0, q);
        c.queued = timeAtLevel(q, 1, B, E, [](const auto& n) { return n[0]; });
    }
    // Per NCCL kernel name: the part of its executions during which other work ran on the device.
    auto busy = unite({&u.compute, &u.memory});
    std::map<std::int64_t, NcclKernelOverlap> byName;
    for (const auto& rows : d.work[kNccl])
        for (const auto& s : rows) {
            // Clipped to the window in place (clip() would copy the row).
            const auto b = std::max(s.begin, B), e = std::min(s.end, E);
            if (e <= b) continue;
            auto& o = byName.try_emplace(s.value, NcclKernelOverlap{index, {}, 0, 0, 0}).first->second;
            ++o.instances;
            o.time += e - b;
            o.overlapped += overlapWith(busy, b, e);
        }
    for (auto& [value, o] : byName) {
        o.kernel = valueName(shard.trace, paraver::types::kNcclKernel, value);
        out.ncclOverlap.push_back(std::move(o));
    }
}

void reduceConcurrency(Analysis& a, const std::vector<DevicePartial>& partials, const TraceFacts& facts,
                       const ShardAnswers& answers) {
    const auto launchTag = std::to_string(paraver::types::kTagKernelLaunch);
    a.queuedAvailable = answers.queuedAvailable;
    if (!answers.queuedLines && !a.activity.devices.empty())
        a.notes.push_back("kernels queued: the trace has no launch communications (tag " + launchTag +
                          "), so the time between a launch call and the kernel start is unknown");
    else if (!facts.launchLinesCarryCallEnds && !a.activity.devices.empty())
        a.notes.push_back("kernels queued: not computed, the trace's launch lines (tag " + launchTag +
                          ") leave at the start of the launch call (physical send = logical send on every "
                          "line, as nsys2prv writes them), so when the "
                          "call returned, where a kernel's time in the queue begins, is unknown");
    for (const auto& p : partials) {
        a.concurrency.push_back(p.concurrency);
        a.ncclOverlap.insert(a.ncclOverlap.end(), p.ncclOverlap.begin(), p.ncclOverlap.end());
    }
    std::stable_sort(a.ncclOverlap.begin(), a.ncclOverlap.end(), [](const auto& x, const auto& y) {
        return x.device != y.device ? x.device < y.device : x.time > y.time;
    });
}

} // namespace gpueff::metrics
