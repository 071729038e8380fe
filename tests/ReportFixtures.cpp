#include "tests/ReportFixtures.h"

#include "reports/model/ReportIo.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace testsupport {

using nlohmann::json;

namespace {

// Times in ns written as doubles by a fixture (1000.0) as the integers report.json holds.
void nsAsIntegers(json& j) {
    for (auto& [key, value] : j.items()) {
        bool ns = key.size() > 3 && key.compare(key.size() - 3, 3, "_ns") == 0;
        if (ns && value.is_number_float() && std::trunc(value.get<double>()) == value.get<double>())
            value = static_cast<std::int64_t>(value.get<double>());
        else if (value.is_structured())
            nsAsIntegers(value);
    }
}

// A level's figures (iterations, phases, focus) with the parts a fixture leaves out: both conventions
// complete (the run's, overlaid with what the fixture sets), no overlap share or kernels-in-flight mean.
void completeFigures(json& level, const json& efficiency) {
    json given = level.value("efficiency", json::object());
    json full = efficiency;
    for (const char* c : {"nccl_as_communication", "nccl_as_useful"})
        if (given.contains(c))
            for (const auto& [key, value] : given[c].items()) full[c][key] = value;
    level["efficiency"] = full;
    if (!level.contains("overlap_share")) level["overlap_share"] = nullptr;
    if (!level.contains("kernels_in_flight_mean")) level["kernels_in_flight_mean"] = nullptr;
}

json durationGroup(const json& given) {
    json g = {{"instances", 1}, {"total_ns", 0}, {"avg_ns", 0.0}, {"med_ns", 0.0}, {"min_ns", 0},
              {"max_ns", 0},    {"modes_ns", json::array({0})},   {"tensor_active_percent", nullptr}};
    for (const auto& [key, value] : given.items()) g[key] = value;
    return g;
}

// The levels a fixture sets, completed: iterations numbered and placed one after the other from the
// window's start, phases over one iteration, the detection's unstated parts null or empty.
void completeLevels(json& r) {
    const json efficiency = r["efficiency"];
    if (r.contains("iteration_detection")) {
        json& d = r["iteration_detection"];
        for (const char* key : {"pattern", "anchor", "placement"})
            if (!d.contains(key)) d[key] = nullptr;
        if (!d.contains("count")) d["count"] = r.value("iterations", json::array()).size();
        if (!d.contains("markers_per_task")) d["markers_per_task"] = json::array();
        if (!d.contains("notes")) d["notes"] = json::array();
    }
    if (r.contains("iterations")) {
        std::int64_t at = r["window"].value("begin_ns", std::int64_t{0});
        std::size_t index = 0;
        for (auto& it : r["iterations"]) {
            completeFigures(it, efficiency);
            std::int64_t duration = it.value("duration_ns", std::int64_t{1});
            if (!it.contains("index")) it["index"] = index;
            if (!it.contains("name")) it["name"] = "iteration " + std::to_string(index);
            if (!it.contains("begin_ns")) it["begin_ns"] = at;
            if (!it.contains("end_ns")) it["end_ns"] = at + duration;
            if (!it.contains("straggler")) it["straggler"] = nullptr;
            at += duration, ++index;
        }
    }
    if (r.contains("focus") && r["focus"].is_object()) {
        json& f = r["focus"];
        completeFigures(f, efficiency);
        for (const char* key : {"first", "last", "begin_ns", "end_ns", "duration_ns"})
            if (!f.contains(key)) f[key] = 0;
    }
    if (r.contains("phases"))
        for (auto& p : r["phases"]) {
            completeFigures(p, efficiency);
            if (!p.contains("iterations")) p["iterations"] = 1;
            if (!p.contains("time_ns")) p["time_ns"] = std::llround(p.value("mean_ns", 0.0));
        }
    if (r.contains("kernel_overlap"))
        for (auto& k : r["kernel_overlap"])
            for (const char* key : {"alone", "overlapped"})
                if (k.contains(key) && k[key].is_object()) k[key] = durationGroup(k[key]);
}

} // namespace

// Reports are read against docs/report.schema.json (compare, the report model): the hand-made reports get
// the required parts they do not exercise (empty lists, no tensor-core metric, per-device details), where
// the fixture does not set them.
json completeForSchema(json r) {
    auto fill = [](json& j, const char* key, json value) {
        if (!j.contains(key)) j[key] = std::move(value);
    };
    fill(r, "inputs",
         json::array({{{"path", "x.sqlite"}, {"nsys_version", nullptr}, {"host", nullptr}, {"offset_ns", 0}}}));
    for (const char* key : {"kernels_in_flight", "overlap", "gaps", "notes"}) fill(r, key, json::array());
    fill(r["kernel_summary"], "devices", json::array());
    fill(r, "tensor_core", {{"available", false}, {"reason", "hand-made report"}});
    for (auto& d : r["devices"]) {
        if (!d.is_object()) continue;
        fill(d, "name", "GPU");
        fill(d, "rows", 1);
        fill(d, "compute_ns", d["useful_ns"]);
        fill(d, "nccl_ns", d["communication_ns"]);
        fill(d, "memory_ns", 0);
        fill(d, "kernels", 1);
        fill(d, "memory_operations", 0);
    }
    for (auto& e : r["kernels_in_flight"])
        if (e.is_object() && e.contains("time_ns_by_count"))
            fill(e, "with_memory_time_ns_by_count", e["time_ns_by_count"]);
    if (r.contains("kernels_queued"))
        for (auto& e : r["kernels_queued"]) {
            long long deepest = 0;
            for (const auto& [depth, ns] : e["time_ns_by_depth"].items())
                if (ns.get<double>() > 0) deepest = std::max(deepest, std::stoll(depth));
            fill(e, "maximum", deepest);
            fill(e, "mean", nullptr); // the renderer's own mean of the histogram
        }
    for (auto& g : r["gaps"])
        for (const char* key : {"host_wait_count", "host_wait_ns", "kernel_wait_count", "kernel_wait_ns"})
            fill(g, key, 0);
    completeLevels(r);
    nsAsIntegers(r);
    return r;
}


gpueff::reports::model::Report modelOf(const json& document) {
    // Through its text, as a saved report is read (a NaN of the fixture becomes null).
    return gpueff::reports::model::readReport(json::parse(completeForSchema(document).dump()), "fixture.json");
}

std::vector<gpueff::reports::model::Report> modelsOf(const std::vector<json>& documents) {
    std::vector<gpueff::reports::model::Report> out;
    for (const auto& d : documents) out.push_back(modelOf(d));
    return out;
}

} // namespace testsupport
