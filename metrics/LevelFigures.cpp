// Measuring the levels of detail: each device's figures in every window of the plan (binary searches on its
// merged unions), the reductions over devices, the collectives matched across devices and the compute kernels
// split by overlap (docs/report.md).
#include "engine/common/Parallel.h"
#include "engine/paraver/EventTypes.h"
#include "metrics/DurationModes.h"
#include "metrics/LevelParts.h"

#include <algorithm>

namespace gpueff::metrics {
namespace {

// Kernels in flight as steps: after times[i], levels[i] kernels run (until times[i + 1]).
struct Steps {
    std::vector<std::int64_t> times, levels;

    explicit Steps(const Device& d) {
        std::vector<Change> changes;
        addSpanChanges(d.rowsOf({kCompute, kGraph, kNccl}), 0, changes);
        std::sort(changes.begin(), changes.end(),
                  [](const Change& x, const Change& y) { return x.time < y.time; });
        std::int64_t level = 0;
        for (const auto& c : changes) {
            level += c.delta;
            if (!times.empty() && times.back() == c.time)
                levels.back() = level;
            else
                times.push_back(c.time), levels.push_back(level);
        }
    }
    // (∫ level dt, time at level >= 1) over [b, e).
    std::pair<std::int64_t, std::int64_t> over(std::int64_t b, std::int64_t e) const {
        std::int64_t integral = 0, busy = 0;
        auto i = static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), b) - times.begin());
        std::int64_t t = b, level = i > 0 ? levels[i - 1] : 0;
        for (; t < e; ++i) {
            auto next = i < times.size() ? std::min(times[i], e) : e;
            integral += level * (next - t);
            busy += level > 0 ? next - t : 0;
            t = next;
            if (i < times.size()) level = levels[i];
        }
        return {integral, busy};
    }
};

// Compute kernels (by name value) split by whether they ran during communication, and NCCL kernels' starts.
void instancesOf(const ShardReader& shard, const Device& d, DevicePartial& out) {
    const auto B = shard.window.begin, E = shard.window.end;
    auto communication = unite(d.rowsOf({kNccl, kMemory}));
    auto samples = tensorSamples(shard, d);
    std::map<std::int64_t, std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>> byValue;
    std::map<std::int64_t, std::array<double, 4>> tensor;
    for (const auto& rows : d.work[kCompute])
        for (const auto& s : rows)
            if (s.begin >= B && s.begin < E) {
                auto& [during, alone] = byValue[s.value];
                bool overlapped = overlapWith(communication, s.begin, s.end) > 0;
                (overlapped ? during : alone).push_back(s.end - s.begin);
                if (!samples) continue;
                auto& t = tensor[s.value];
                std::int64_t covered = 0;
                addTensorActivity(*samples, s.begin, s.end, t[overlapped ? 0 : 2], covered);
                t[overlapped ? 1 : 3] += static_cast<double>(covered);
            }
    std::map<std::string, std::vector<std::int64_t>> overlapped, alone, arrivals;
    for (auto& [value, groups] : byValue) {
        auto name = valueName(shard.trace, paraver::types::kKernel, value);
        // Appended: two values may share one label in a trace gpueff did not write.
        if (auto t = tensor.find(value); t != tensor.end())
            for (std::size_t i = 0; i < 4; ++i) out.tensorByOverlap[name][i] += t->second[i];
        for (auto [from, to] : {std::pair{&groups.first, &overlapped}, std::pair{&groups.second, &alone}})
            if (!from->empty()) (*to)[name].insert((*to)[name].end(), from->begin(), from->end());
    }
    byValue.clear();
    out.overlappedDurations = spillRuns(shard.store, overlapped);
    out.aloneDurations = spillRuns(shard.store, alone);
    // Every instance, not only the window's: a window boundary between two devices' k-th instances would
    // shift every later pair by one; the collectives are kept by their first arrival afterwards.
    for (const auto& rows : d.work[kNccl])
        for (const auto& s : rows)
            arrivals[valueName(shard.trace, paraver::types::kNcclKernel, s.value)].push_back(s.begin);
    out.ncclArrivals = spillRuns(shard.store, arrivals);
}

} // namespace

void levelsOf(const LevelPlan& plan, const ShardReader& shard, const Device& d, const DeviceUnions& u,
              DevicePartial& out) {
    instancesOf(shard, d, out);
    if (plan.empty()) return;
    auto computeNccl = unite({&u.compute, &u.nccl});
    auto communication = unite({&u.nccl, &u.memory});
    auto commNotUseful = subtract(communication, u.compute);
    auto memoryNotUseful = subtract(u.memory, computeNccl);
    auto overlap = subtract(u.compute, subtract(u.compute, communication));
    Steps steps(d);
    for (const auto& w : plan.windows) {
        LevelPartial p;
        p.useful = overlapWith(u.compute, w.begin, w.end);
        p.usefulWithNccl = overlapWith(computeNccl, w.begin, w.end);
        p.commNotUseful = overlapWith(commNotUseful, w.begin, w.end);
        p.memoryNotUseful = overlapWith(memoryNotUseful, w.begin, w.end);
        p.communication = overlapWith(communication, w.begin, w.end);
        p.overlap = overlapWith(overlap, w.begin, w.end);
        std::tie(p.inFlight, p.busy) = steps.over(w.begin, w.end);
        auto last = std::lower_bound(u.compute.begin(), u.compute.end(), w.end,
                                     [](const Span& s, std::int64_t t) { return s.begin < t; });
        if (last != u.compute.begin() && std::prev(last)->end > w.begin)
            p.usefulEnd = std::min(std::prev(last)->end, w.end);
        out.levels.push_back(p);
    }
}

namespace {

LevelFigures figuresOf(const LevelPlan& plan, const std::vector<std::size_t>& windows,
                       const std::vector<DevicePartial>& partials) {
    std::int64_t T = 0;
    for (auto w : windows) T += plan.windows[w].end - plan.windows[w].begin;
    std::vector<Efficiency::PerDevice> asCommunication, asUseful;
    std::int64_t communication = 0, overlap = 0, inFlight = 0, busy = 0;
    std::vector<std::int64_t> ends;
    for (const auto& d : partials) {
        LevelPartial sum;
        for (auto w : windows) {
            const auto& p = d.levels.at(w);
            sum.useful += p.useful;
            sum.usefulWithNccl += p.usefulWithNccl;
            sum.commNotUseful += p.commNotUseful;
            sum.memoryNotUseful += p.memoryNotUseful;
            sum.communication += p.communication;
            sum.overlap += p.overlap;
            sum.inFlight += p.inFlight;
            sum.busy += p.busy;
            sum.usefulEnd = std::max(sum.usefulEnd, p.usefulEnd);
        }
        asCommunication.push_back({sum.useful, sum.commNotUseful, T - sum.useful - sum.commNotUseful});
        asUseful.push_back(
            {sum.usefulWithNccl, sum.memoryNotUseful, T - sum.usefulWithNccl - sum.memoryNotUseful});
        communication += sum.communication;
        overlap += sum.overlap;
        inFlight += sum.inFlight;
        busy += sum.busy;
        ends.push_back(sum.usefulEnd);
    }
    LevelFigures f;
    f.ncclAsCommunication = efficiencyOf(std::move(asCommunication), T);
    f.ncclAsUseful = efficiencyOf(std::move(asUseful), T);
    if (communication > 0) f.overlapShare = static_cast<double>(overlap) / static_cast<double>(communication);
    if (busy > 0) f.inFlightMean = static_cast<double>(inFlight) / static_cast<double>(busy);
    // The device whose useful work ended last, against the one whose ended first.
    std::optional<std::size_t> first, last;
    std::size_t working = 0;
    for (std::size_t i = 0; i < ends.size(); ++i) {
        if (ends[i] == INT64_MIN) continue;
        ++working;
        if (!first || ends[i] < ends[*first]) first = i;
        if (!last || ends[i] > ends[*last]) last = i;
    }
    if (working >= 2 && windows.size() == 1)
        f.straggler = Straggler{*last, ends[*last], ends[*last] - ends[*first]};
    return f;
}

Collectives collectivesOf(const AnalysisWindow& window, const std::vector<DevicePartial>& partials,
                          const SpillStore& store) {
    Collectives c;
    // NCCL kernel name -> the devices running it, their arrivals read back one name at a time.
    std::map<std::string, std::vector<std::pair<std::size_t, const SpilledRun*>>> runners;
    for (std::size_t d = 0; d < partials.size(); ++d)
        for (const auto& [name, starts] : partials[d].ncclArrivals) runners[name].push_back({d, &starts});
    std::vector<Collectives::DeviceShare> share(partials.size());
    for (std::size_t d = 0; d < share.size(); ++d) share[d].device = d;
    struct Kept {
        std::int64_t skew, first;
        const std::string* name;
        std::size_t sequence, last;
    };
    std::vector<Kept> kept;
    for (const auto& [name, spilled] : runners) {
        if (spilled.size() < 2) continue;
        std::vector<std::pair<std::size_t, std::vector<std::int64_t>>> devices;
        for (const auto& [d, run] : spilled) devices.emplace_back(d, store.loadValues(run->ref));
        std::size_t count = SIZE_MAX, most = 0;
        for (const auto& [d, starts] : devices) {
            count = std::min(count, starts.size());
            most = std::max(most, starts.size());
        }
        if (count != most)
            c.notes.push_back(name + ": the devices ran " + std::to_string(count) + " to " +
                              std::to_string(most) + " instances; the first " + std::to_string(count) +
                              " of each are matched by order");
        for (std::size_t k = 0; k < count; ++k) {
            std::int64_t first = INT64_MAX, last = INT64_MIN;
            std::size_t lastDevice = devices.front().first;
            for (const auto& [d, starts] : devices) {
                auto t = starts[k];
                first = std::min(first, t);
                if (t > last) last = t, lastDevice = d;
            }
            if (first < window.begin || first >= window.end) continue;
            for (const auto& [d, starts] : devices) share[lastDevice].waitCaused += last - starts[k];
            ++share[lastDevice].last;
            ++c.matched;
            kept.push_back({last - first, first, &name, k, lastDevice});
        }
    }
    // Largest skew first; ties by first arrival, name and sequence, so every process orders them alike.
    auto larger = [](const Kept& x, const Kept& y) {
        return std::tie(y.skew, x.first, *x.name, x.sequence) <
               std::tie(x.skew, y.first, *y.name, y.sequence);
    };
    auto top = std::min<std::size_t>(kept.size(), 20);
    std::partial_sort(kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(top), kept.end(), larger);
    for (std::size_t i = 0; i < top; ++i)
        c.top.push_back({*kept[i].name, kept[i].sequence, kept[i].last, kept[i].first, kept[i].skew});
    if (c.matched) c.devices = std::move(share);
    return c;
}

} // namespace

DurationGroup describeDurations(const std::vector<std::int64_t>& sorted) {
    DurationGroup g;
    auto n = sorted.size();
    g.instances = n;
    for (auto x : sorted) g.total += x;
    g.min = sorted.front();
    g.max = sorted.back();
    g.average = static_cast<double>(g.total) / static_cast<double>(n);
    g.median = n % 2 ? static_cast<double>(sorted[n / 2])
                     : (static_cast<double>(sorted[n / 2 - 1]) + static_cast<double>(sorted[n / 2])) / 2;
    return g;
}

std::optional<DurationGroup> durationGroup(std::vector<std::int64_t> d) {
    if (d.empty()) return std::nullopt;
    std::sort(d.begin(), d.end());
    auto g = describeDurations(d);
    for (const auto& m : durationModes(d)) g.modes.push_back(m.at);
    return g;
}

void reduceLevels(Analysis& a, const LevelPlan& plan, const std::vector<DevicePartial>& partials,
                  unsigned jobs, const SpillStore& store) {
    // Each iteration's figures, and below each top kernel's row, are their own: the workers share them.
    forEachIndex(plan.iterations, jobs,
                 [&](std::size_t i) { a.iterations[i].figures = figuresOf(plan, {i}, partials); });
    std::size_t steady = 0;
    for (const auto& it : a.iterations) steady += it.status == "steady";
    if (plan.focus && steady) {
        Focus f;
        for (const auto& it : a.iterations)
            if (it.status == "steady") f.last = it.index;
        for (auto it = a.iterations.rbegin(); it != a.iterations.rend(); ++it)
            if (it->status == "steady") f.first = it->index;
        f.begin = plan.windows[*plan.focus].begin;
        f.end = plan.windows[*plan.focus].end;
        f.figures = figuresOf(plan, {*plan.focus}, partials);
        f.figures.straggler.reset();
        a.focus = std::move(f);
    }
    for (const auto& p : plan.phases) {
        Phase ph;
        ph.name = p.name;
        ph.iterations = p.windows.size();
        for (auto w : p.windows) ph.time += plan.windows[w].end - plan.windows[w].begin;
        ph.figures = figuresOf(plan, p.windows, partials);
        a.phases.push_back(std::move(ph));
    }
    a.collectives = collectivesOf(a.window, partials, store);
    // Compute kernels by total time, split by overlap; the instances read back for the rows listed.
    auto overlapped = runsByName(partials, &DevicePartial::overlappedDurations);
    auto alone = runsByName(partials, &DevicePartial::aloneDurations);
    std::map<std::string, std::array<double, 4>> tensor;
    std::map<std::string, std::int64_t> totals;
    for (const auto& p : partials) {
        for (const auto& [name, t] : p.tensorByOverlap)
            for (std::size_t i = 0; i < 4; ++i) tensor[name][i] += t[i];
        for (const auto* runs : {&p.overlappedDurations, &p.aloneDurations})
            for (const auto& [name, run] : *runs) totals[name] += run.total;
    }
    std::vector<std::pair<std::int64_t, std::string>> order;
    for (const auto& [name, total] : totals) order.push_back({-total, name});
    std::sort(order.begin(), order.end());
    std::vector<KernelOverlapRow> rows(std::min<std::size_t>(order.size(), 20));
    forEachIndex(rows.size(), jobs, [&](std::size_t i) {
        const auto& name = order[i].second;
        auto group = [&](const std::map<std::string, std::vector<const SpilledRun*>>& runs) {
            auto it = runs.find(name);
            return durationGroup(it == runs.end() ? std::vector<std::int64_t>()
                                                  : mergeRuns(store, it->second));
        };
        KernelOverlapRow row{name, group(overlapped), group(alone)};
        if (auto t = tensor.find(row.name); t != tensor.end()) {
            if (row.overlapped && t->second[1] > 0)
                row.overlapped->tensorActive = t->second[0] / t->second[1];
            if (row.alone && t->second[3] > 0) row.alone->tensorActive = t->second[2] / t->second[3];
        }
        rows[i] = std::move(row);
    });
    for (auto& row : rows) a.kernelOverlap.push_back(std::move(row));
}

} // namespace gpueff::metrics
