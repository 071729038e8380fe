// Device activity over time, binned for plots: exact per bin (integrals of the unions and of the kernel
// count), only the time resolution is lost. Runs after the device model (Analysis::unions).
#include "metrics/AnalysisParts.h"

#include <algorithm>

namespace gpueff::metrics {

namespace {

// Integer edges B + floor(T * i / bins), exact and never beyond the window's end however long it is (a
// double bin width rounds T up near INT64_MAX); T = q * bins + r keeps every product in range.
struct Bins {
    std::int64_t B, T, q, r;
    std::size_t count;
    double width;
    Bins(const AnalysisWindow& w, std::size_t bins)
        : B(w.begin), T(w.duration()), q(0), r(0),
          count(T > 0 ? std::min<std::size_t>(bins, static_cast<std::size_t>(T)) : 0), width(0) {
        if (count == 0) return;
        q = T / static_cast<std::int64_t>(count);
        r = T % static_cast<std::int64_t>(count);
        width = static_cast<double>(T) / static_cast<double>(count);
    }
    std::int64_t edge(std::size_t i) const {
        auto n = static_cast<std::int64_t>(i);
        return B + q * n + r * n / static_cast<std::int64_t>(count);
    }
    // The bin holding time x (B <= x < window end): a floating-point guess, corrected against the edges.
    std::size_t of(std::int64_t x) const {
        auto i = std::min(static_cast<std::size_t>(static_cast<double>(x - B) / width), count - 1);
        while (i > 0 && edge(i) > x) --i;
        while (i + 1 < count && edge(i + 1) <= x) ++i;
        return i;
    }
};

} // namespace

void timelineOf(const AnalysisWindow& window, std::size_t binCount, const Device& d, const DeviceUnions& u,
                DevicePartial& partial) {
    const Bins bins(window, binCount);
    if (bins.count == 0) return;
    const auto B = window.begin;
    // Communication hidden under useful work counts as useful time, as in the model's D.
    auto communicationOnly = subtract(unite({&u.nccl, &u.memory}), u.compute);
    auto& out = partial.timeline;
    out.inFlight.assign(bins.count, 0.0);
    // Each kernel adds its time inside a bin; divided by the bin width this is the mean count.
    for (const auto* rows : d.rowsOf({kCompute, kGraph, kNccl}))
        for (const auto& s : *rows) {
            if (s.end <= B || s.begin >= window.end) continue;
            auto first = bins.of(std::max(s.begin, B));
            for (std::size_t i = std::min(first, bins.count - 1); i < bins.count && bins.edge(i) < s.end;
                 ++i) {
                auto lo = std::max(s.begin, bins.edge(i)), hi = std::min(s.end, bins.edge(i + 1));
                if (hi > lo) out.inFlight[i] += static_cast<double>(hi - lo);
            }
        }
    for (std::size_t i = 0; i < bins.count; ++i) {
        auto lo = bins.edge(i), hi = bins.edge(i + 1);
        auto width = static_cast<double>(hi - lo);
        if (width <= 0) width = 1;
        out.inFlight[i] /= width;
        out.useful.push_back(static_cast<double>(overlapWith(u.compute, lo, hi)) / width);
        out.communication.push_back(static_cast<double>(overlapWith(communicationOnly, lo, hi)) / width);
    }
}

void reduceTimeline(Analysis& a, std::size_t binCount, const std::vector<DevicePartial>& partials) {
    const Bins bins(a.window, binCount);
    if (bins.count == 0 || partials.empty()) return;
    a.timeline.binNs = bins.width;
    for (const auto& p : partials) a.timeline.devices.push_back(p.timeline);
}

} // namespace gpueff::metrics
