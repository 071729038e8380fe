// Three rules of Meta's Holistic Trace Analysis (HTA) that gpueff's `hta` figures do not follow, replayed on
// one device so that the report can say by how much HTA itself would show other figures for the trace
// (docs/report.md "HTA's definitions"). Each is replayed alone against gpueff's figures:
// - HTA keeps only the GPU work whose launch call began before the last ProfilerStep#<n> range began (when
//   the trace holds two such names or more), so the last step's work and work without a launch call drop out;
// - HTA reads the trace's times as float64 microseconds and rounds every start up and every end down to a
//   whole microsecond (a kernel shorter than that may end before it starts, and HTA sums it so);
// - HTA counts any event with a CUDA stream argument as GPU work, host events included (cuda_sync events,
//   operators of Triton kernels), as compute unless its name says otherwise.
#include "engine/common/IntervalPairing.h"
#include "engine/paraver/EventTypes.h"
#include "metrics/AnalysisParts.h"
#include "metrics/ValueFacts.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>
#include <tuple>

namespace gpueff::metrics {

void HtaTaskEvidence::combine(const HtaTaskEvidence& o) {
    lastStepBegin = std::max(lastStepBegin, o.lastStepBegin);
    std::set<std::string> names(stepNames.begin(), stepNames.end());
    names.insert(o.stepNames.begin(), o.stepNames.end());
    stepNames.assign(names.begin(), names.end());
    streamEvents.insert(streamEvents.end(), o.streamEvents.begin(), o.streamEvents.end());
    std::sort(streamEvents.begin(), streamEvents.end(), [](const Span& a, const Span& b) {
        return std::tie(a.begin, a.end, a.value) < std::tie(b.begin, b.end, b.value);
    });
}

namespace {

// HTA's profiler steps: a name that begins with "ProfilerStep#" and a digit.
bool isProfilerStep(const std::string& name) {
    static const std::string prefix = "ProfilerStep#";
    return name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
           std::isdigit(static_cast<unsigned char>(name[prefix.size()]));
}

// HTA's kernel types by name: communication, memory and the names of synchronizations, launches and other
// runtimes' work are not compute; every other name is (HTA's utils, get_kernel_type).
bool htaComputeName(const std::string& name) {
    auto startsWith = [&](const char* p) { return name.rfind(p, 0) == 0; };
    auto contains = [&](const char* p) { return name.find(p) != std::string::npos; };
    for (const char* p : {"nccl", "Stream Wait Event", "runFunction", "hip", "job_exe", "packet", "pe_exe",
                          "cpum_exe_subgraph", "hccl", "collective_subgraph_execution"})
        if (startsWith(p)) return false;
    for (const char* p : {"Memcpy", "Memset", "dma", "Sync"})
        if (contains(p)) return false;
    return !(startsWith("cuda") && name.find("LaunchKernel", 4) != std::string::npos);
}

// The JSON payload the Kineto importer gives a host event's NVTX range when the event names a CUDA stream.
bool isStreamPayload(const std::string& label) {
    return label.rfind("{\"stream\":", 0) == 0;
}

// The double nearest to ns / 1000: the trace's decimal microseconds as HTA's float64 columns hold them (a
// Kineto time of 1.7e15 us keeps quarter microseconds only).
double microsecondsAsDouble(std::int64_t ns) {
    char text[48];
    const auto magnitude =
        ns < 0 ? -static_cast<unsigned long long>(ns) : static_cast<unsigned long long>(ns);
    int n = std::snprintf(text, sizeof text, "%s%llu.%03llu", ns < 0 ? "-" : "", magnitude / 1000,
                          magnitude % 1000);
    double value = 0;
    std::from_chars(text, text + n, value);
    return value;
}

HtaBreakdown::Reading readingOf(const Spans& all, const Spans& compute) {
    HtaBreakdown::Reading r;
    if (all.empty()) return r;
    r.kernelTime = all.back().end - all.front().begin;
    r.idle = r.kernelTime - length(all);
    r.compute = length(compute);
    return r;
}

// The device's operations in the window (clipped to it), all and the compute ones, merged.
struct Unions {
    Spans all, compute;
    void add(std::int64_t begin, std::int64_t end, bool isCompute) {
        all.push_back({begin, end, 1});
        if (isCompute) compute.push_back({begin, end, 1});
    }
    HtaBreakdown::Reading reading(const AnalysisWindow& w) const {
        return readingOf(clip(unite({&all}), w.begin, w.end), clip(unite({&compute}), w.begin, w.end));
    }
};

bool inWindow(const AnalysisWindow& w, std::int64_t begin, std::int64_t end) {
    return begin < w.end && end > w.begin;
}

std::optional<HtaBreakdown::AfterLastStep>
afterLastStep(const AnalysisWindow& w, const std::vector<HtaOperation>& ops, std::int64_t stepBegin) {
    HtaBreakdown::AfterLastStep rule;
    rule.stepBegin = stepBegin;
    Unions kept, dropped;
    for (const auto& op : ops) {
        if (!inWindow(w, op.begin, op.end)) continue;
        if (op.launch >= 0 && op.launch < stepBegin) {
            kept.add(op.begin, op.end, op.compute);
        } else {
            dropped.add(op.begin, op.end, op.compute);
            ++rule.dropped;
        }
    }
    if (rule.dropped == 0) return std::nullopt;
    rule.droppedTime = length(clip(unite({&dropped.all}), w.begin, w.end));
    rule.reading = kept.reading(w);
    return rule;
}

std::optional<HtaBreakdown::StreamHostEvents>
streamHostEvents(AnalysisWindow w, const std::vector<HtaOperation>& ops, const Spans& events) {
    // The default window is the span of the GPU work; HTA's GPU work holds these events too, even those
    // beyond it (a synchronization after the last kernel).
    if (w.source == "gpu-activity")
        for (const auto& e : events) w.begin = std::min(w.begin, e.begin), w.end = std::max(w.end, e.end);
    HtaBreakdown::StreamHostEvents rule;
    Unions gpu;
    for (const auto& e : events) {
        if (!inWindow(w, e.begin, e.end)) continue;
        ++rule.events;
        rule.time += std::min(e.end, w.end) - std::max(e.begin, w.begin);
        gpu.add(e.begin, e.end, e.value == 1);
    }
    if (rule.events == 0) return std::nullopt;
    for (const auto& op : ops)
        if (inWindow(w, op.begin, op.end)) gpu.add(op.begin, op.end, op.compute);
    rule.reading = gpu.reading(w);
    return rule;
}

// HTA's union of intervals that may be inverted: in order of start, an interval joins the group before it
// unless it starts after every earlier end; each group counts from its first start to its last end (an
// inverted interval alone counts negative), the span from the first group's start to the last one's end.
HtaBreakdown::Reading htaMerged(std::vector<std::pair<std::int64_t, std::int64_t>> all,
                                std::vector<std::pair<std::int64_t, std::int64_t>> compute) {
    auto merge = [](std::vector<std::pair<std::int64_t, std::int64_t>>& v, std::int64_t& first,
                    std::int64_t& last) {
        std::sort(v.begin(), v.end());
        std::int64_t total = 0, groupBegin = 0, groupEnd = 0, latestEnd = INT64_MIN;
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (i == 0 || v[i].first > latestEnd) {
                if (i > 0) total += groupEnd - groupBegin;
                groupBegin = v[i].first, groupEnd = v[i].second;
                if (i == 0) first = groupBegin;
            } else {
                groupEnd = std::max(groupEnd, v[i].second);
            }
            latestEnd = std::max(latestEnd, v[i].second);
        }
        if (!v.empty()) total += groupEnd - groupBegin, last = groupEnd;
        return total;
    };
    HtaBreakdown::Reading r;
    std::int64_t first = 0, last = 0, unused = 0;
    if (all.empty()) return r;
    std::int64_t busy = merge(all, first, last);
    r.kernelTime = last - first;
    r.idle = r.kernelTime - busy;
    r.compute = compute.empty() ? 0 : merge(compute, unused, unused);
    return r;
}

// Every operation in the window (clipped to it) as HTA reads it: start and end as float64 microseconds of
// the Kineto clock, the end computed from them, then the start rounded up and the end down.
HtaBreakdown::Reading wholeMicroseconds(const AnalysisWindow& w, const std::vector<HtaOperation>& ops,
                                        std::int64_t shift) {
    std::vector<std::pair<std::int64_t, std::int64_t>> all, compute;
    for (const auto& op : ops) {
        if (!inWindow(w, op.begin, op.end)) continue;
        std::int64_t begin = std::max(op.begin, w.begin), end = std::min(op.end, w.end);
        double ts = microsecondsAsDouble(begin - shift), dur = microsecondsAsDouble(end - begin);
        auto up = static_cast<std::int64_t>(std::ceil(ts)),
             down = static_cast<std::int64_t>(std::floor(ts + dur));
        std::pair<std::int64_t, std::int64_t> rounded{up * 1000 + shift, down * 1000 + shift};
        all.push_back(rounded);
        if (op.compute) compute.push_back(rounded);
    }
    return htaMerged(std::move(all), std::move(compute));
}

// What HTA's rules ask of a name: a payload's and a range's facts, cached for every task of a look.
struct HtaNames {
    struct Facts {
        bool streamPayload = false, profilerStep = false, compute = false;
    };
    const semantic::LoadedTrace& trace;
    ValueFacts<Facts> facts;
    const Facts& of(std::uint32_t type, std::int64_t value) {
        return facts.of(type, value, [&] {
            auto name = valueName(trace, type, value);
            return Facts{isStreamPayload(name), isProfilerStep(name), htaComputeName(name)};
        });
    }
};

// One task's evidence; the order of its stream events does not matter (combine sorts them).
class HtaTaskWalker : public TaskEventWalker<HtaNames, WindowEvidence> {
public:
    using TaskEventWalker::TaskEventWalker;
    void events(std::uint32_t row, std::span<const HostEvent> group) override {
        namespace types = paraver::types;
        // Named, not a structured binding: lambdas below capture them (clang before 16 refuses bindings).
        auto& state = rows_.of(row);
        auto& open = state.open;
        auto& lastType = state.lastType;
        for (const auto& ev : group) {
            const auto type = ev.type;
            const auto value = ev.value;
            if (types::kNvtxDomainTypes.contains(type) && type % 100 == types::kNvtxJsonPayloadOffset) {
                // A payload comes in the record of its range's begin, after it.
                auto* o = open.innermost(lastType);
                if (value != 0 && o && lastType - lastType % 100 + types::kNvtxJsonPayloadOffset == type &&
                    o->begin == ev.time && names_.of(type, value).streamPayload)
                    o->stream = true;
                continue;
            }
            if (!types::isNvtxRangeType(type)) continue;
            open.event(
                type, value,
                [&](const Open*) {
                    lastType = type;
                    if (names_.of(type, value).profilerStep) {
                        e_.lastStepBegin = std::max(e_.lastStepBegin, ev.time);
                        steps_.insert(valueName(names_.trace, type, value));
                    }
                    return Open{value, ev.time};
                },
                [&](const Open& range, const Open*) {
                    if (range.stream)
                        e_.streamEvents.push_back(
                            {range.begin, ev.time, names_.of(type, range.value).compute ? 1 : 0});
                });
        }
    }
    void rowEnd(std::uint32_t row) override {
        rows_.end(row, [](auto&) {});
    }
    void end() override {
        if (steps_.empty() && e_.streamEvents.empty()) return;
        e_.stepNames.assign(steps_.begin(), steps_.end());
        out_.hta[task_].combine(e_);
    }

private:
    struct Open {
        std::int64_t value, begin;
        bool stream = false;
    };
    struct Row {
        IntervalPairing<Open> open{Nesting::Stack}; // by NVTX type
        std::uint32_t lastType = 0;                 // of the range opened last
    };
    HtaTaskEvidence e_;
    std::set<std::string> steps_;
    RowStates<Row> rows_;
};

} // namespace

TaskWalkers htaEvidence(const semantic::LoadedTrace& trace, WindowEvidence& out) {
    auto names = std::make_shared<HtaNames>(HtaNames{trace, {}});
    return [names, &out](std::uint32_t task) { return std::make_unique<HtaTaskWalker>(*names, task, out); };
}

std::vector<HtaRuleInputs> htaRuleInputs(const WindowEvidence& evidence, const AnalysisOptions& options,
                                         const DeviceActivity& activity) {
    // HTA filters by the last step only when the trace (all its ranks) names two steps or more.
    std::set<std::string> steps;
    for (const auto& [task, e] : evidence.hta) steps.insert(e.stepNames.begin(), e.stepNames.end());
    // A task's host events go to its lowest-numbered device: HTA counts a rank, all its GPUs as one.
    std::map<std::size_t, std::size_t> firstDevice; // task -> device index
    for (std::size_t i = 0; i < activity.devices.size(); ++i) {
        auto [it, fresh] = firstDevice.try_emplace(activity.devices[i].task, i);
        if (!fresh && activity.devices[i].gpu < activity.devices[it->second].gpu) it->second = i;
    }
    std::vector<HtaRuleInputs> out(activity.devices.size());
    for (std::size_t i = 0; i < activity.devices.size(); ++i) {
        const auto task = activity.devices[i].task;
        auto& in = out[i];
        const auto input = task < activity.tasks.size() ? activity.tasks[task].input : 0;
        if (input < options.kinetoClockShifts.size()) in.clockShift = options.kinetoClockShifts[input];
        auto e = evidence.hta.find(static_cast<std::uint32_t>(task));
        if (e == evidence.hta.end()) continue;
        if (steps.size() >= 2 && e->second.lastStepBegin != INT64_MIN) in.stepBegin = e->second.lastStepBegin;
        if (firstDevice[task] == i && !e->second.streamEvents.empty())
            in.streamEvents = &e->second.streamEvents;
    }
    return out;
}

void htaRulesOf(const AnalysisWindow& w, const std::vector<HtaOperation>& ops, const HtaRuleInputs& in,
                HtaBreakdown& h) {
    const HtaBreakdown::Reading ours{h.kernelTime, h.idle, h.compute};
    if (in.stepBegin) h.afterLastStep = afterLastStep(w, ops, *in.stepBegin);
    if (in.clockShift)
        if (auto r = wholeMicroseconds(w, ops, *in.clockShift); !(r == ours)) h.wholeMicroseconds = r;
    if (in.streamEvents) h.streamHostEvents = streamHostEvents(w, ops, *in.streamEvents);
}

} // namespace gpueff::metrics
