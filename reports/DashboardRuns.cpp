#include "reports/DashboardRuns.h"

namespace gpueff::reports::dashboard {

std::optional<std::int64_t> DashboardRun::startUtcNs() const {
    std::optional<std::int64_t> first;
    for (const auto& input : report.inputs)
        if (input.utcStartNs && *input.utcStartNs && (!first || **input.utcStartNs < *first))
            first = **input.utcStartNs;
    return first;
}

} // namespace gpueff::reports::dashboard
