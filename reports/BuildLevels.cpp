// The levels of detail of the report model (docs/report.md "Iterations and phases"): iterations with their
// device model, the focus, phases, collectives and the kernels split by overlap.
#include "reports/BuildReport.h"

#include <algorithm>

namespace gpueff::reports {

namespace {

model::LevelFigures figures(const metrics::LevelFigures& f, const metrics::Analysis& a) {
    return {{convention(f.ncclAsCommunication, a), convention(f.ncclAsUseful, a)},
            model::finite(f.overlapShare),
            model::finite(f.inFlightMean)};
}

std::optional<model::DurationGroup> group(const std::optional<metrics::DurationGroup>& g) {
    if (!g) return std::nullopt;
    model::DurationGroup out;
    out.instances = static_cast<std::int64_t>(g->instances);
    out.totalNs = g->total;
    out.avgNs = model::finite(g->average);
    out.medNs = model::finite(g->median);
    out.minNs = g->min;
    out.maxNs = g->max;
    out.modesNs = g->modes;
    out.tensorActivePercent = model::finite(g->tensorActive);
    return out;
}

model::IterationDetection detection(const metrics::Analysis& a) {
    const auto& det = a.iterationDetection;
    auto orNone = [](const std::string& s) {
        return s.empty() ? std::nullopt : std::optional<std::string>(s);
    };
    model::IterationDetection out;
    out.source = det.source;
    out.pattern = orNone(det.pattern);
    out.anchor = orNone(det.anchor);
    out.placement = orNone(det.placement);
    out.count = static_cast<std::int64_t>(a.iterations.size());
    out.steady = std::ranges::count(a.iterations, std::string("steady"), &metrics::IterationLevel::status);
    for (const auto& [task, count] : det.markersPerTask)
        out.markersPerTask.push_back({static_cast<std::int64_t>(task) + 1, static_cast<std::int64_t>(count)});
    out.notes = det.notes;
    return out;
}

model::Iteration iteration(const metrics::Analysis& a, const metrics::IterationLevel& it,
                           const metrics::LevelFigures& f) {
    model::Iteration out;
    out.index = static_cast<std::int64_t>(it.index);
    out.name = it.name;
    out.beginNs = it.begin;
    out.endNs = it.end;
    out.durationNs = it.end - it.begin;
    out.status = it.status;
    std::vector<model::Iteration::TaskSpan> tasks;
    for (const auto& t : it.tasks) tasks.push_back({static_cast<std::int64_t>(t.task) + 1, t.begin, t.end});
    out.tasks = std::move(tasks);
    if (const auto& st = f.straggler)
        out.straggler =
            model::Iteration::Straggler{a.activity.devices[st->device].id, st->usefulEnd, st->lag};
    out.figures = figures(f, a);
    return out;
}

model::Collectives collectives(const metrics::Analysis& a) {
    const auto& c = a.collectives;
    model::Collectives out;
    out.matched = static_cast<std::int64_t>(c.matched);
    for (const auto& in : c.top)
        out.instances.push_back({in.kernel, static_cast<std::int64_t>(in.sequence), in.firstArrival, in.skew,
                                 a.activity.devices[in.lastDevice].id});
    for (const auto& d : c.devices)
        out.devices.push_back(
            {a.activity.devices[d.device].id, static_cast<std::int64_t>(d.last),
             c.matched ? model::finite(100.0 * static_cast<double>(d.last) / static_cast<double>(c.matched))
                       : std::nullopt,
             d.waitCaused});
    out.notes = c.notes;
    return out;
}

} // namespace

void addLevels(model::Report& report, const metrics::Analysis& a) {
    report.iterationDetection = detection(a);
    std::vector<model::Iteration> iterations;
    for (const auto& it : a.iterations) iterations.push_back(iteration(a, it, it.figures));
    report.iterations = std::move(iterations);
    std::optional<model::Focus> focus;
    if (const auto& f = a.focus)
        focus = model::Focus{static_cast<std::int64_t>(f->first),
                             static_cast<std::int64_t>(f->last),
                             f->begin,
                             f->end,
                             f->end - f->begin,
                             figures(f->figures, a)};
    report.focus = focus;
    std::vector<model::Phase> phases;
    for (const auto& p : a.phases)
        phases.push_back(
            {p.name, static_cast<std::int64_t>(p.iterations), p.time,
             static_cast<double>(p.time) / static_cast<double>(std::max<std::size_t>(1, p.iterations)),
             figures(p.figures, a)});
    report.phases = std::move(phases);
    report.collectives = collectives(a);
    std::vector<model::KernelOverlap> overlap;
    for (const auto& k : a.kernelOverlap) {
        std::optional<double> slowdown;
        if (k.overlapped && k.alone && k.alone->median > 0)
            slowdown = model::finite(k.overlapped->median / k.alone->median);
        overlap.push_back({k.name, group(k.overlapped), group(k.alone), slowdown});
    }
    report.kernelOverlap = std::move(overlap);
}

} // namespace gpueff::reports
