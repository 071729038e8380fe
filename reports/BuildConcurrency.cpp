// The concurrency families of the report model (reports/model/ConcurrencyFamilies.h, docs/report.md):
// kernels_in_flight, kernels_queued, overlap, overlap_table, timeline and nccl_overlap, from an analysis.
#include "reports/BuildReport.h"
#include "reports/Spread.h"

#include <algorithm>

namespace gpueff::reports {

namespace {

std::int64_t maxLevel(const metrics::TimeByLevel& t) {
    std::int64_t m = 0;
    for (const auto& [level, ns] : t)
        if (ns > 0) m = std::max(m, level);
    return m;
}

std::optional<double> meanLevel(const metrics::TimeByLevel& t) {
    double weighted = 0, total = 0;
    for (const auto& [level, ns] : t) {
        weighted += static_cast<double>(level) * static_cast<double>(ns);
        total += static_cast<double>(ns);
    }
    return total > 0 ? std::optional<double>(weighted / total) : std::nullopt;
}

// The statistics rows over devices of each column of `perDevice` (a row of `columns` values per device).
model::OverlapRows statRows(const std::vector<std::vector<double>>& perDevice, std::size_t columns) {
    model::OverlapRows rows;
    for (std::size_t c = 0; c < columns; ++c) {
        std::vector<double> column;
        for (const auto& d : perDevice) column.push_back(d[c]);
        auto s = spreadOf(column);
        rows.total.push_back(model::finite(s.sum));
        rows.average.push_back(model::finite(s.average));
        rows.maximum.push_back(model::finite(s.maximum));
        rows.minimum.push_back(model::finite(s.minimum));
        rows.stddev.push_back(model::finite(s.stddev));
        rows.avgMax.push_back(s.avgMax);
    }
    return rows;
}

// The columns 1..the largest concurrency of any device; a device's missing level counts 0, and so do all of
// a device without communication (or a window without duration).
model::OverlapTable overlapTable(const metrics::Analysis& a) {
    std::int64_t top = 0;
    for (const auto& c : a.concurrency) top = std::max(top, maxLevel(c.overlap));
    model::OverlapTable table;
    for (std::int64_t k = 1; k <= top; ++k) table.concurrency.push_back(k);
    std::vector<std::vector<double>> ofComm, ofWindow;
    for (const auto& c : a.concurrency) {
        std::vector<double> x, y;
        for (std::int64_t k = 1; k <= top; ++k) {
            auto it = c.overlap.find(k);
            double ns = it == c.overlap.end() ? 0.0 : static_cast<double>(it->second);
            x.push_back(c.communication > 0 ? ns / static_cast<double>(c.communication) : 0.0);
            y.push_back(a.window.duration() > 0 ? ns / static_cast<double>(a.window.duration()) : 0.0);
        }
        ofComm.push_back(std::move(x));
        ofWindow.push_back(std::move(y));
    }
    table.fractionOfCommunication = statRows(ofComm, static_cast<std::size_t>(top));
    table.fractionOfWindow = statRows(ofWindow, static_cast<std::size_t>(top));
    return table;
}

model::Overlap overlap(const metrics::DeviceConcurrency& c, const std::string& device, std::int64_t window) {
    model::Overlap out{device, c.communication, c.overlap, {}, {}};
    for (const auto& [level, ns] : c.overlap) {
        out.fractionOfCommunication[level] =
            c.communication > 0 ? static_cast<double>(ns) / static_cast<double>(c.communication) : NAN;
        out.fractionOfWindow[level] =
            static_cast<double>(ns) / static_cast<double>(window); // NaN: written null
    }
    return out;
}

model::Timeline timeline(const metrics::Analysis& a) {
    model::Timeline out;
    out.binNs = a.timeline.binNs;
    for (std::size_t i = 0; i < a.timeline.devices.size(); ++i) {
        const auto& d = a.timeline.devices[i];
        out.bins = static_cast<std::int64_t>(d.inFlight.size());
        out.devices.push_back({a.activity.devices[i].id, d.inFlight, d.useful, d.communication});
    }
    return out;
}

} // namespace

void addConcurrencyFamilies(model::Report& m, const metrics::Analysis& a) {
    std::vector<model::KernelsQueued> queued;
    for (std::size_t i = 0; i < a.concurrency.size(); ++i) {
        const auto& c = a.concurrency[i];
        const auto& id = a.activity.devices[i].id;
        m.kernelsInFlight.push_back(
            {id, c.inFlight, c.inFlightWithMemory, maxLevel(c.inFlight), meanLevel(c.inFlight)});
        if (a.queuedAvailable) queued.push_back({id, c.queued, maxLevel(c.queued), meanLevel(c.queued)});
        m.overlap.push_back(overlap(c, id, a.window.duration()));
    }
    m.kernelsQueued = std::move(queued);
    m.overlapTable = overlapTable(a);
    m.timeline = timeline(a);
    std::vector<model::NcclOverlap> nccl;
    for (const auto& o : a.ncclOverlap)
        nccl.push_back({a.activity.devices[o.device].id, o.kernel, static_cast<std::int64_t>(o.instances),
                        o.time, o.overlapped,
                        o.time > 0
                            ? model::finite(static_cast<double>(o.overlapped) / static_cast<double>(o.time))
                            : std::nullopt});
    m.ncclOverlap = std::move(nccl);
}

} // namespace gpueff::reports
