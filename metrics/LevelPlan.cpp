// The plan of the levels of detail: iterations from the markers (placed where their work ran) or from the
// detected kernel sequence, clipped to the analysis window and tiling the GPU time, their status (steady,
// warm-up, outlier), the focus, and the phases' windows in the steady iterations (docs/report.md).
#include "metrics/LevelParts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace gpueff::metrics {
namespace {

// off the steady state: further from the median than 3 scaled MADs (a robust 3 sigma) and than 5 % of it.
void markStatus(std::vector<Iteration>& its) {
    for (auto& it : its) it.status = "steady";
    if (its.size() < 3) return;
    std::vector<double> d, dev;
    for (const auto& it : its) d.push_back(static_cast<double>(it.end - it.begin));
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        auto n = v.size();
        return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    };
    const double m = median(d);
    for (auto x : d) dev.push_back(std::fabs(x - m));
    const double tolerance = std::max(3 * 1.4826 * median(dev), 0.05 * m);
    bool leading = true;
    for (std::size_t k = 0; k < its.size(); ++k) {
        bool off = std::fabs(d[k] - m) > tolerance;
        leading = leading && off;
        if (off) its[k].status = leading ? "warm-up" : "outlier";
    }
}

struct Candidate {
    std::string name;
    std::int64_t begin = INT64_MAX, end = INT64_MIN;
    std::size_t marker = 0; // k: the k-th marker of every task
    std::vector<TaskSpan> tasks;
};

// The markers each task is matched by: those of one thread and NVTX type (the one with the most markers;
// two matching sources in a task, ProfilerStep# and a framework's step range, would double its count), and
// only tasks whose markers launched GPU work (a task without GPUs would cut every task's count to its own).
std::map<std::uint32_t, std::vector<std::size_t>> markersByTask(Analysis& a, const WindowEvidence& e,
                                                                bool onGpu) {
    auto& det = a.iterationDetection;
    std::map<std::uint32_t, std::map<std::uint64_t, std::vector<std::size_t>>> sources;
    for (std::size_t i = 0; i < e.markers.size(); ++i)
        sources[e.markers[i].task][e.markers[i].source].push_back(i);
    std::map<std::uint32_t, std::vector<std::size_t>> byTask;
    for (auto& [task, bySource] : sources) {
        auto chosen = bySource.begin();
        for (auto it = bySource.begin(); it != bySource.end(); ++it)
            if (it->second.size() > chosen->second.size()) chosen = it;
        if (bySource.size() > 1)
            det.notes.push_back("task " + std::to_string(task + 1) + " has iteration markers on " +
                                std::to_string(bySource.size()) + " threads or NVTX domains: the " +
                                std::to_string(chosen->second.size()) + " of the one with the most are used");
        det.markersPerTask.push_back({task, chosen->second.size()});
        bool work = !onGpu || std::any_of(chosen->second.begin(), chosen->second.end(),
                                          [&](std::size_t i) { return e.markerWork.begin[i] != INT64_MAX; });
        if (work)
            byTask[task] = std::move(chosen->second);
        else
            det.notes.push_back("task " + std::to_string(task + 1) +
                                "'s iteration markers launched no GPU work: its markers are not matched");
    }
    return byTask;
}

std::vector<Candidate> fromMarkers(Analysis& a, const WindowEvidence& e, bool onGpu,
                                   const std::map<std::uint32_t, std::vector<std::size_t>>& byTask) {
    auto& det = a.iterationDetection;
    std::size_t k = byTask.empty() ? 0 : SIZE_MAX;
    for (const auto& [task, list] : byTask) k = std::min(k, list.size());
    for (const auto& [task, list] : byTask)
        if (list.size() != k) {
            det.notes.push_back("tasks have different numbers of iteration markers: the first " +
                                std::to_string(k) + " of each are matched by order");
            break;
        }
    std::vector<Candidate> out;
    std::size_t empty = 0;
    for (std::size_t m = 0; m < k; ++m) {
        Candidate c{e.markers[byTask.begin()->second[m]].name, INT64_MAX, INT64_MIN, m, {}};
        for (const auto& [task, list] : byTask) {
            auto i = list[m];
            TaskSpan own{task, onGpu ? e.markerWork.begin[i] : e.markers[i].begin,
                         onGpu ? e.markerWork.end[i] : e.markers[i].end};
            if (own.begin >= own.end) continue;
            c.begin = std::min(c.begin, own.begin);
            c.end = std::max(c.end, own.end);
            c.tasks.push_back(own);
        }
        if (c.begin >= c.end) {
            ++empty;
            continue;
        }
        out.push_back(std::move(c));
    }
    if (empty)
        det.notes.push_back(std::to_string(empty) +
                            " iteration marker(s) launched no GPU work and are left out");
    // Work launched in one iteration that runs after the next one's first work belongs to the next: the
    // iterations tile the GPU time from the first one's work to the last one's end.
    if (onGpu)
        for (std::size_t j = 0; j + 1 < out.size(); ++j)
            out[j].end = std::max(out[j].begin, out[j + 1].begin);
    return out;
}

// The detected repetitions as iterations; beyond kMaxDetected, consecutive repetitions are grouped (a loop
// of one kernel repeats a million times: a million iterations would say nothing a thousand do not).
constexpr std::size_t kMaxDetected = 5000;

std::vector<Candidate> fromDetection(Analysis& a, const DetectedIterations& d) {
    const auto& b = d.begins;
    const std::size_t stride = (b.size() + kMaxDetected - 1) / kMaxDetected;
    if (stride > 1)
        a.iterationDetection.notes.push_back(std::to_string(b.size()) +
                                             " repetitions of the kernel sequence, " +
                                             std::to_string(stride) + " to an iteration");
    std::vector<Candidate> out;
    for (std::size_t k = 0; k < b.size(); k += stride)
        out.push_back({"", b[k], k + stride < b.size() ? b[k + stride] : d.lastEnd, k, {}});
    return out;
}

// Per steady iteration, each phase name's window: the GPU work launched inside its ranges on every task
// (or their host span), inside the iteration's window.
// Phases are matched by name with digits masked: "Compute 0" of one iteration is "Compute 10" of the next.
std::string phaseKey(const std::string& name) {
    std::string key;
    for (std::size_t i = 0; i < name.size(); ++i)
        if (name[i] >= '0' && name[i] <= '9') {
            if (key.empty() || key.back() != '#') key += '#';
        } else {
            key += name[i];
        }
    return key;
}

void planPhases(Analysis& a, const WindowEvidence& e, bool onGpu,
                const std::map<std::uint32_t, std::vector<std::size_t>>& byTask,
                const std::vector<std::size_t>& markerOf, LevelPlan& plan) {
    std::map<std::pair<std::uint32_t, std::int64_t>, std::vector<std::size_t>> children; // (task, parent)
    for (std::size_t i = 0; i < e.phases.size(); ++i)
        children[{e.phases[i].task, e.phases[i].parentBegin}].push_back(i);
    std::map<std::string, std::size_t> phaseOf; // name -> index into plan.phases, in order of appearance
    for (const auto& it : a.iterations) {
        if (it.status != "steady") continue;
        std::vector<std::pair<std::string, LevelPlan::Window>> windows; // in order of appearance
        std::map<std::string, std::size_t> at;                          // name -> index into windows
        for (const auto& [task, list] : byTask) {
            auto kids = children.find({task, e.markers[list[markerOf[it.index]]].begin});
            if (kids == children.end()) continue;
            for (auto i : kids->second) {
                const auto& r = e.phases[i];
                auto b = onGpu ? e.phaseWork.begin[i] : r.begin, en = onGpu ? e.phaseWork.end[i] : r.end;
                auto [w, fresh] = at.try_emplace(phaseKey(r.name), windows.size());
                if (fresh)
                    windows.push_back({w->first, {b, en}});
                else
                    windows[w->second].second = {std::min(windows[w->second].second.begin, b),
                                                 std::max(windows[w->second].second.end, en)};
            }
        }
        for (auto& [name, w] : windows) {
            w = {std::max(w.begin, it.begin), std::min(w.end, it.end)};
            if (w.end <= w.begin) continue;
            auto [p, fresh] = phaseOf.try_emplace(name, plan.phases.size());
            if (fresh) plan.phases.push_back({name, {}});
            plan.phases[p->second].windows.push_back(plan.windows.size());
            plan.windows.push_back(w);
        }
    }
    // Framework ranges under a step (PyTorch's emit_nvtx puts every top-level operator there) can make
    // hundreds of phases: the kMaxPhases with the most time are kept, in order of appearance.
    constexpr std::size_t kMaxPhases = 30;
    if (plan.phases.size() <= kMaxPhases) return;
    std::vector<std::pair<std::int64_t, std::size_t>> time; // (-time, index)
    for (std::size_t p = 0; p < plan.phases.size(); ++p) {
        std::int64_t t = 0;
        for (auto w : plan.phases[p].windows) t += plan.windows[w].end - plan.windows[w].begin;
        time.push_back({-t, p});
    }
    std::sort(time.begin(), time.end());
    std::vector<bool> keep(plan.phases.size(), false);
    for (std::size_t i = 0; i < kMaxPhases; ++i) keep[time[i].second] = true;
    a.iterationDetection.notes.push_back(std::to_string(plan.phases.size()) + " phases: the " +
                                         std::to_string(kMaxPhases) + " with the most time are listed");
    std::vector<LevelPlan::PhaseWindows> kept;
    for (std::size_t p = 0; p < plan.phases.size(); ++p)
        if (keep[p]) kept.push_back(std::move(plan.phases[p]));
    plan.phases = std::move(kept);
}

} // namespace

LevelPlan planLevels(Analysis& a, const WindowEvidence& e, const AnalysisOptions& options, bool onGpu) {
    auto& det = a.iterationDetection;
    LevelPlan plan;
    if (options.iterationSource == IterationSource::Off) {
        det.source = "off";
        return plan;
    }
    std::vector<Candidate> found;
    std::map<std::uint32_t, std::vector<std::size_t>> byTask;
    bool markers = options.iterationSource == IterationSource::Markers && !e.markers.empty();
    if (markers) {
        byTask = markersByTask(a, e, onGpu);
        found = fromMarkers(a, e, onGpu, byTask);
        markers = !found.empty();
        if (markers) {
            det.source = "markers";
            det.pattern = options.iterationPattern.text();
            det.placement = onGpu ? "gpu-projection" : "host";
        }
    }
    if (!markers && e.detected) {
        det.source = "detected";
        det.anchor = e.detected->anchor;
        det.placement = "gpu-sequence";
        found = fromDetection(a, *e.detected);
        if (options.iterationSource == IterationSource::Markers)
            det.notes.push_back(std::string(e.markers.empty() ? "no NVTX range matches the iteration pattern"
                                                              : "no iteration marker launched GPU work") +
                                ": iterations detected from the kernel sequence of device " +
                                a.activity.devices.front().id);
        if (!e.markers.empty()) {
            std::set<std::uint32_t> tasks;
            for (const auto& m : e.markers) tasks.insert(m.task);
            auto perTask = static_cast<double>(e.markers.size()) / static_cast<double>(tasks.size());
            const auto detected = e.detected->begins.size();
            char ratio[64];
            std::snprintf(ratio, sizeof ratio, "%.2f", static_cast<double>(detected) / perTask);
            det.notes.push_back(std::to_string(detected) + " iterations detected (" +
                                std::to_string(e.detected->period) + " kernels each) for " +
                                std::to_string(e.markers.size() / tasks.size()) +
                                " marked per task: " + ratio + " detected per marked iteration");
        }
    } else if (!markers) {
        det.notes.push_back(
            options.iterationSource == IterationSource::Markers
                ? "no NVTX range matches the iteration pattern and no repeating kernel sequence "
                  "was found: no iterations"
                : "no repeating kernel sequence was found: no iterations");
    }
    // Iterations whose work began with the next one's (tiled to nothing, or two anchors at one instant).
    auto merged = std::erase_if(found, [](const Candidate& c) { return c.end <= c.begin; });
    if (merged)
        det.notes.push_back(std::to_string(merged) +
                            " iteration(s) whose GPU work began no earlier than the next one's are counted "
                            "in the next");
    // Inside the analysis window only.
    std::vector<std::size_t> markerOf;
    for (auto& c : found) {
        auto b = std::max(c.begin, a.window.begin), en = std::min(c.end, a.window.end);
        if (en <= b) continue;
        Iteration it;
        it.index = a.iterations.size();
        it.name = c.name.empty() ? "iteration " + std::to_string(it.index) : c.name;
        it.begin = b;
        it.end = en;
        it.tasks = std::move(c.tasks);
        a.iterations.push_back(std::move(it));
        markerOf.push_back(c.marker);
        plan.windows.push_back({b, en});
    }
    if (found.size() > a.iterations.size())
        det.notes.push_back(std::to_string(found.size() - a.iterations.size()) +
                            " iteration(s) outside the analysis window are left out");
    plan.iterations = a.iterations.size();
    markStatus(a.iterations);
    std::vector<std::size_t> steady;
    for (const auto& it : a.iterations)
        if (it.status == "steady") steady.push_back(it.index);
    if (markers) planPhases(a, e, onGpu, byTask, markerOf, plan);
    if (!steady.empty()) {
        plan.focus = plan.windows.size();
        plan.windows.push_back({a.iterations[steady.front()].begin, a.iterations[steady.back()].end});
    }
    return plan;
}

} // namespace gpueff::metrics
