// Finding the levels of detail: iteration markers and the phases nested in them on the host rows, where the
// GPU work launched inside them ran (launch lines), iterations detected from the kernel sequence, and the
// plan of windows the device model is then measured in (docs/report.md "Iterations and phases").
#include "engine/common/IntervalPairing.h"
#include "engine/paraver/EventTypes.h"
#include "metrics/LevelParts.h"
#include "metrics/ValueFacts.h"

#include <algorithm>
#include <cctype>
#include <climits>

namespace gpueff::metrics {

void Projection::resize(std::size_t n) {
    begin.assign(n, INT64_MAX);
    end.assign(n, INT64_MIN);
}

void Projection::combine(const Projection& o) {
    if (begin.size() < o.begin.size()) {
        begin.resize(o.begin.size(), INT64_MAX);
        end.resize(o.end.size(), INT64_MIN);
    }
    for (std::size_t i = 0; i < o.begin.size(); ++i) {
        begin[i] = std::min(begin[i], o.begin[i]);
        end[i] = std::max(end[i], o.end[i]);
    }
}

namespace {

// What a name says for the markers: does the pattern match it whole, cached for every task of a look.
struct MarkerNames {
    const semantic::LoadedTrace& trace;
    const NamePattern& pattern;
    ValueFacts<bool> matches; // (type, value) -> name matches
    bool matching(std::uint32_t type, std::int64_t value) {
        return matches.of(type, value, [&] {
            // std::regex costs about a microsecond a name, and PyTorch's ranges carry a unique op_id each
            // (18,000 names in a 300 ms trace): every alternative of the default pattern holds "step", "iter"
            // or "batch", so names without them are not matched.
            auto name = valueName(trace, type, value);
            if (pattern.text() == kDefaultIterationPattern) {
                auto lower = name;
                for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                if (lower.find("step") == std::string::npos && lower.find("iter") == std::string::npos &&
                    lower.find("batch") == std::string::npos)
                    return false;
            }
            return pattern.matchesWhole(name);
        });
    }
};

// One task's markers and phases, appended to out as they end (sortRanges orders them before any use).
class MarkerWalker : public TaskEventWalker<MarkerNames, WindowEvidence> {
public:
    using TaskEventWalker::TaskEventWalker;
    void events(std::uint32_t row, std::span<const HostEvent> group) override {
        auto& pairing = open_.of(row);
        for (const auto& e : group) {
            if (!paraver::types::isNvtxRangeType(e.type)) continue;
            auto begun = [&](const Open* enclosing) {
                bool inside = enclosing && (enclosing->marker || enclosing->insideMarker);
                return Open{e.value, e.time, !inside && names_.matching(e.type, e.value), inside};
            };
            auto ended = [&](const Open& range, const Open* enclosing) {
                bool phase = !range.marker && enclosing && enclosing->marker;
                if (!range.marker && !phase) return;
                HostRange r{task_,
                            range.begin,
                            e.time,
                            valueName(names_.trace, e.type, range.value),
                            phase ? enclosing->begin : 0,
                            static_cast<std::uint64_t>(row) << 32 | e.type};
                (phase ? out_.phases : out_.markers).push_back(std::move(r));
            };
            pairing.event(e.type, e.value, begun, ended);
        }
    }
    void rowEnd(std::uint32_t row) override {
        open_.end(row, [](auto&) {});
    }

private:
    struct Open {
        std::int64_t value, begin;
        bool marker;       // an outermost range whose name matches
        bool insideMarker; // some enclosing range is a marker
    };
    RowStates<IntervalPairing<Open>> open_; // per row, by NVTX type
};

} // namespace

TaskWalkers iterationMarkers(const semantic::LoadedTrace& trace, const NamePattern& pattern,
                             WindowEvidence& out) {
    auto names = std::make_shared<MarkerNames>(MarkerNames{trace, pattern, {}});
    return [names, &out](std::uint32_t task) { return std::make_unique<MarkerWalker>(*names, task, out); };
}

void sortRanges(std::vector<HostRange>& ranges) {
    std::sort(ranges.begin(), ranges.end(), [](const HostRange& a, const HostRange& b) {
        return std::tie(a.task, a.begin, a.end, a.name, a.source) <
               std::tie(b.task, b.begin, b.end, b.name, b.source);
    });
}

namespace {

// Per row of the device, its work (every class) by begin, to find where launched work ends.
struct RowWork {
    std::map<std::size_t, std::vector<std::pair<std::int64_t, std::int64_t>>> rows;

    explicit RowWork(const Device& d) {
        for (std::size_t i = 0; i < d.rows.size(); ++i) {
            auto& w = rows[d.rows[i]];
            for (const auto& cls : d.work)
                if (i < cls.size())
                    for (const auto& s : cls[i]) w.push_back({s.begin, s.end});
            std::sort(w.begin(), w.end());
        }
    }
    std::int64_t endOf(std::size_t row, std::int64_t begin) const {
        auto r = rows.find(row);
        if (r == rows.end()) return begin;
        auto it = std::lower_bound(r->second.begin(), r->second.end(), std::pair{begin, INT64_MIN});
        return it != r->second.end() && it->first == begin ? it->second : begin;
    }
};

// The launched work of `lines` ((call begin, GPU begin, GPU end), by call begin) whose call began inside
// each range of `ranges` that belongs to task `task`.
void project(const std::vector<std::array<std::int64_t, 3>>& lines, std::size_t task,
             const std::vector<HostRange>& ranges, Projection& out) {
    // Sorted by task first (sortRanges): the task's ranges are one run.
    auto first = std::lower_bound(ranges.begin(), ranges.end(), task,
                                  [](const HostRange& x, std::size_t t) { return x.task < t; });
    for (auto r = static_cast<std::size_t>(first - ranges.begin());
         r < ranges.size() && ranges[r].task == task; ++r) {
        auto it = std::lower_bound(lines.begin(), lines.end(), ranges[r].begin,
                                   [](const auto& l, std::int64_t t) { return l[0] < t; });
        for (; it != lines.end() && (*it)[0] < ranges[r].end; ++it) {
            out.begin[r] = std::min(out.begin[r], (*it)[1]);
            out.end[r] = std::max(out.end[r], (*it)[2]);
        }
    }
}

} // namespace

bool projectWork(const semantic::LoadedTrace& trace, const Device& d, const WindowEvidence& evidence,
                 Projection& markerWork, Projection& phaseWork) {
    namespace types = paraver::types;
    RowWork work(d);
    std::vector<std::array<std::int64_t, 3>> lines; // call begin, GPU begin, GPU end
    const auto& comms = trace.trace().communications;
    for (auto row : d.rows)
        for (auto c : trace.trace().threads[row].receives) {
            const auto& line = comms[c];
            if (line.tag != types::kTagKernelLaunch && line.tag != types::kTagMemoryLaunch) continue;
            lines.push_back({line.logicalSend, line.logicalRecv, work.endOf(row, line.logicalRecv)});
        }
    std::sort(lines.begin(), lines.end());
    project(lines, d.task, evidence.markers, markerWork);
    project(lines, d.task, evidence.phases, phaseWork);
    return !lines.empty();
}

std::optional<DetectedIterations> detectIterations(const std::vector<std::int64_t>& names,
                                                   const std::vector<std::int64_t>& begins,
                                                   const std::vector<std::int64_t>& ends,
                                                   const std::vector<std::string>& nameOf) {
    // The period is the smallest lag at which the name sequence matches itself at 3 kernels in 4: a loop
    // repeats its launches in order, and an inserted kernel (a check every N steps) only shifts a few. Only
    // the middle 20000 kernels are compared, which holds a few iterations of any training step we have seen
    // and keeps the search O(20000 x lags).
    constexpr std::size_t kSegment = 20000, kMaxPeriod = 5000;
    const std::size_t n = names.size();
    if (n < 6) return std::nullopt;
    const std::size_t length = std::min(n, kSegment), low = (n - length) / 2;
    std::size_t period = 0;
    for (std::size_t p = 1; p <= std::min(length / 3, kMaxPeriod) && !period; ++p) {
        std::size_t same = 0;
        for (std::size_t i = low; i + p < low + length; ++i) same += names[i] == names[i + p];
        if (same * 4 >= (length - p) * 3) period = p;
    }
    if (!period) return std::nullopt;
    // The anchor: of the names that occur about once per period, the one seen first (the loop's first launch
    // in its first iteration).
    std::map<std::int64_t, std::pair<std::size_t, std::size_t>> seen; // name -> (count, first index)
    for (std::size_t i = 0; i < n; ++i) {
        auto [it, fresh] = seen.try_emplace(names[i], 0, i);
        ++it->second.first;
    }
    const double perPeriod = static_cast<double>(n) / static_cast<double>(period);
    std::optional<std::pair<std::size_t, std::int64_t>> anchor; // (first index, name)
    for (const auto& [name, s] : seen) {
        auto count = static_cast<double>(s.first);
        if (s.first >= 3 && count >= 0.8 * perPeriod && count <= 1.25 * perPeriod &&
            (!anchor || s.second < anchor->first))
            anchor = std::pair{s.second, name};
    }
    if (!anchor) return std::nullopt;
    DetectedIterations out;
    out.anchor = nameOf.at(static_cast<std::size_t>(anchor->second));
    out.period = period;
    std::size_t last = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (names[i] == anchor->second) out.begins.push_back(begins[i]), last = i;
    out.lastEnd = begins[last];
    for (std::size_t i = last; i < std::min(n, last + period); ++i)
        out.lastEnd = std::max(out.lastEnd, ends[i]);
    return out;
}

std::optional<DetectedIterations> detectOnDevice(const semantic::LoadedTrace& trace, const Device& d) {
    struct Kernel {
        std::int64_t begin, end, name;
    };
    std::vector<Kernel> kernels;
    std::map<std::pair<int, std::int64_t>, std::int64_t> ids; // (class, value) -> dense name id
    std::vector<std::string> nameOf;
    for (auto [c, type] :
         {std::pair{kCompute, paraver::types::kKernel}, std::pair{kNccl, paraver::types::kNcclKernel}})
        for (const auto& row : d.work[c])
            for (const auto& s : row) {
                auto [it, fresh] = ids.try_emplace({c, s.value}, static_cast<std::int64_t>(nameOf.size()));
                if (fresh) nameOf.push_back(valueName(trace, type, s.value));
                kernels.push_back({s.begin, s.end, it->second});
            }
    std::stable_sort(kernels.begin(), kernels.end(),
                     [](const Kernel& a, const Kernel& b) { return a.begin < b.begin; });
    std::vector<std::int64_t> names, begins, ends;
    for (const auto& k : kernels) names.push_back(k.name), begins.push_back(k.begin), ends.push_back(k.end);
    return detectIterations(names, begins, ends, nameOf);
}

} // namespace gpueff::metrics
