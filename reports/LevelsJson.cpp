// The levels of detail in report.json (docs/report.md "Iterations and phases"): iterations with their
// device model, the focus, phases, collectives and the kernels split by overlap.
#include "reports/ReportJson.h"

namespace gpueff::reports {

using nlohmann::json;

namespace {

json optionalNumber(const std::optional<double>& v) {
    return v ? finiteOrNull(*v) : json(nullptr);
}

json figures(const metrics::LevelFigures& f, const metrics::Analysis& a, json out) {
    out["efficiency"] = {{"nccl_as_communication", efficiencyJson(f.ncclAsCommunication, a)},
                         {"nccl_as_useful", efficiencyJson(f.ncclAsUseful, a)}};
    out["overlap_share"] = optionalNumber(f.overlapShare);
    out["kernels_in_flight_mean"] = optionalNumber(f.inFlightMean);
    return out;
}

json group(const std::optional<metrics::DurationGroup>& g) {
    if (!g) return nullptr;
    return {{"instances", g->instances},
            {"total_ns", g->total},
            {"avg_ns", finiteOrNull(g->average)},
            {"med_ns", finiteOrNull(g->median)},
            {"min_ns", g->min},
            {"max_ns", g->max},
            {"modes_ns", g->modes},
            {"tensor_active_percent", optionalNumber(g->tensorActive)}};
}

} // namespace

void addLevels(json& r, const metrics::Analysis& a) {
    const auto& det = a.iterationDetection;
    auto orNull = [](const std::string& s) { return s.empty() ? json(nullptr) : json(s); };
    std::size_t steady = 0;
    for (const auto& it : a.iterations) steady += it.status == "steady";
    json perTask = json::array();
    for (const auto& [task, count] : det.markersPerTask)
        perTask.push_back({{"task", task + 1}, {"count", count}});
    r["iteration_detection"] = {{"source", det.source},         {"pattern", orNull(det.pattern)},
                                {"anchor", orNull(det.anchor)}, {"placement", orNull(det.placement)},
                                {"count", a.iterations.size()}, {"steady", steady},
                                {"markers_per_task", perTask},  {"notes", det.notes}};
    r["iterations"] = json::array();
    for (const auto& it : a.iterations) {
        json s = nullptr;
        if (const auto& st = it.figures.straggler)
            s = {{"device", a.activity.devices[st->device].id},
                 {"useful_end_ns", st->usefulEnd},
                 {"lag_ns", st->lag}};
        json tasks = json::array();
        for (const auto& t : it.tasks)
            tasks.push_back({{"task", t.task + 1}, {"begin_ns", t.begin}, {"end_ns", t.end}});
        r["iterations"].push_back(figures(it.figures, a,
                                          {{"tasks", tasks},
                                           {"index", it.index},
                                           {"name", it.name},
                                           {"begin_ns", it.begin},
                                           {"end_ns", it.end},
                                           {"duration_ns", it.end - it.begin},
                                           {"status", it.status},
                                           {"straggler", s}}));
    }
    r["focus"] = nullptr;
    if (const auto& f = a.focus)
        r["focus"] = figures(f->figures, a,
                             {{"first", f->first},
                              {"last", f->last},
                              {"begin_ns", f->begin},
                              {"end_ns", f->end},
                              {"duration_ns", f->end - f->begin}});
    r["phases"] = json::array();
    for (const auto& p : a.phases)
        r["phases"].push_back(figures(
            p.figures, a,
            {{"name", p.name},
             {"iterations", p.iterations},
             {"time_ns", p.time},
             {"mean_ns", finiteOrNull(static_cast<double>(p.time) /
                                      static_cast<double>(std::max<std::size_t>(1, p.iterations)))}}));
    const auto& c = a.collectives;
    json instances = json::array(), devices = json::array();
    for (const auto& in : c.top)
        instances.push_back({{"kernel", in.kernel},
                             {"sequence", in.sequence},
                             {"first_arrival_ns", in.firstArrival},
                             {"skew_ns", in.skew},
                             {"last_device", a.activity.devices[in.lastDevice].id}});
    for (const auto& d : c.devices)
        devices.push_back({{"device", a.activity.devices[d.device].id},
                           {"last_count", d.last},
                           {"last_percent", c.matched ? finiteOrNull(100.0 * static_cast<double>(d.last) /
                                                                     static_cast<double>(c.matched))
                                                      : json(nullptr)},
                           {"wait_caused_ns", d.waitCaused}});
    r["collectives"] = {
        {"matched", c.matched}, {"instances", instances}, {"devices", devices}, {"notes", c.notes}};
    r["kernel_overlap"] = json::array();
    for (const auto& k : a.kernelOverlap) {
        json slowdown = nullptr;
        if (k.overlapped && k.alone && k.alone->median > 0)
            slowdown = finiteOrNull(k.overlapped->median / k.alone->median);
        r["kernel_overlap"].push_back({{"name", k.name},
                                       {"overlapped", group(k.overlapped)},
                                       {"alone", group(k.alone)},
                                       {"slowdown", slowdown}});
    }
}

} // namespace gpueff::reports
