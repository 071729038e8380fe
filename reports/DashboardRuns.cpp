#include "reports/DashboardRuns.h"

namespace gpueff::reports::dashboard {

std::optional<std::int64_t> DashboardRun::startUtcNs() const {
    // An input's export time is trace time minus its offset, and its UTC time that plus its session start;
    // a Kineto trace on epoch microseconds has a session start of 0 and the epoch in its offset, so only
    // the sum says when the run was.
    std::optional<std::int64_t> first;
    for (const auto& input : report.inputs) {
        if (!input.utcStartNs || !*input.utcStartNs) continue;
        std::int64_t exportTime = 0, utc = 0;
        if (__builtin_sub_overflow(report.window.beginNs, input.offsetNs, &exportTime) ||
            __builtin_add_overflow(**input.utcStartNs, exportTime, &utc))
            continue; // not a time (a report gpueff did not write)
        if (!first || utc < *first) first = utc;
    }
    return first;
}

} // namespace gpueff::reports::dashboard
