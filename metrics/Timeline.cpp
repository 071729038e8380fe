// Device activity over time, binned for plots: exact per bin (integrals of the unions and of the kernel
// count), only the time resolution is lost. Runs after the device model (Analysis::unions).
#include "metrics/Analysis.h"

#include <algorithm>

namespace gpueff::metrics {

void computeTimeline(Analysis& a, std::size_t bins) {
    const auto B = a.window.begin, T = a.window.duration();
    if (T <= 0 || a.activity.devices.empty()) return;
    bins = std::min<std::size_t>(bins, static_cast<std::size_t>(T));
    auto& tl = a.timeline;
    tl.binNs = static_cast<double>(T) / static_cast<double>(bins);
    // Integer edges B + floor(T * i / bins), exact and never beyond the window's end however long it is (a
    // double bin width rounds T up near INT64_MAX); T = q * bins + r keeps every product in range.
    const auto q = T / static_cast<std::int64_t>(bins), r = T % static_cast<std::int64_t>(bins);
    auto edge = [&](std::size_t i) {
        auto n = static_cast<std::int64_t>(i);
        return B + q * n + r * n / static_cast<std::int64_t>(bins);
    };
    // The bin holding time x (B <= x < window end): a floating-point guess, corrected against the edges.
    auto binOf = [&](std::int64_t x) {
        auto i = std::min(static_cast<std::size_t>(static_cast<double>(x - B) / tl.binNs), bins - 1);
        while (i > 0 && edge(i) > x) --i;
        while (i + 1 < bins && edge(i + 1) <= x) ++i;
        return i;
    };
    for (std::size_t device = 0; device < a.activity.devices.size(); ++device) {
        const auto& u = a.unions[device];
        // Communication hidden under useful work counts as useful time, as in the model's D.
        auto communicationOnly = subtract(unite({&u.nccl, &u.memory}), u.compute);
        auto kernels = a.activity.devices[device].rowsOf({kCompute, kGraph, kNccl});
        Timeline::Device out;
        out.inFlight.assign(bins, 0.0);
        // Each kernel adds its time inside a bin; divided by the bin width this is the mean count.
        for (const auto* rows : kernels)
            for (const auto& s : *rows) {
                if (s.end <= B || s.begin >= a.window.end) continue;
                auto first = binOf(std::max(s.begin, B));
                for (std::size_t i = std::min(first, bins - 1); i < bins && edge(i) < s.end; ++i) {
                    auto lo = std::max(s.begin, edge(i)), hi = std::min(s.end, edge(i + 1));
                    if (hi > lo) out.inFlight[i] += static_cast<double>(hi - lo);
                }
            }
        for (std::size_t i = 0; i < bins; ++i) {
            auto lo = edge(i), hi = edge(i + 1);
            auto width = static_cast<double>(hi - lo);
            if (width <= 0) width = 1;
            out.inFlight[i] /= width;
            out.useful.push_back(static_cast<double>(overlapWith(u.compute, lo, hi)) / width);
            out.communication.push_back(static_cast<double>(overlapWith(communicationOnly, lo, hi)) / width);
        }
        tl.devices.push_back(std::move(out));
    }
}

} // namespace gpueff::metrics
