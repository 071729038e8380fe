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
    auto edge = [&](std::size_t i) {
        return B + static_cast<std::int64_t>(static_cast<double>(i) * tl.binNs);
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
                auto first =
                    static_cast<std::size_t>(static_cast<double>(std::max(s.begin, B) - B) / tl.binNs);
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
