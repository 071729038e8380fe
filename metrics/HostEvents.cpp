#include "metrics/HostEvents.h"

#include "engine/paraver/EventTypes.h"
#include "engine/semantic/LoadedTrace.h"

namespace gpueff::metrics {

namespace {

namespace t = paraver::types;
// The one list: the spill sets these apart (hostEventTypes) and the walkers take these (isHostEventType).
constexpr std::pair<std::uint32_t, std::uint32_t> kHostEventTypes[] = {
    {t::kCudaApi, t::kCudaApi},
    {t::kNvtxStartEndRange, t::kNvtxStartEndRange},
    {t::kNvtxDomainTypes.first, t::kNvtxDomainTypes.last},
    {t::kNcclCategoryTypes.first, t::kNcclCategoryTypes.last}};

} // namespace

std::vector<std::pair<std::uint32_t, std::uint32_t>> hostEventTypes() {
    return {std::begin(kHostEventTypes), std::end(kHostEventTypes)};
}

bool isHostEventType(std::uint32_t type) {
    for (auto [first, last] : kHostEventTypes)
        if (first <= type && type <= last) return true;
    return false;
}

void walkColumns(const semantic::LoadedTrace& trace, std::span<const std::size_t> rows,
                 HostEventWalker& walker) {
    std::vector<HostEvent> group;
    for (auto row : rows) {
        const auto& th = trace.trace().threads.at(row);
        const auto r = static_cast<std::uint32_t>(row);
        for (std::size_t i = 0; i < th.eventTime.size();) {
            // The events of one time, those of the host types among them.
            group.clear();
            const auto time = th.eventTime[i];
            for (; i < th.eventTime.size() && th.eventTime[i] == time; ++i)
                if (isHostEventType(th.eventType[i]))
                    group.push_back({time, th.eventType[i], th.eventValue[i]});
            if (!group.empty()) walker.events(r, group);
        }
        walker.rowEnd(r);
    }
    walker.end();
}

void walkHostColumns(const semantic::LoadedTrace& trace, const TaskInfo& task, HostEventWalker& walker) {
    walkColumns(trace, task.cpuRows, walker);
}

void HostEventGroups::add(std::uint32_t row, const HostEvent& event) {
    auto& group = waiting_[row];
    if (!group.empty() && group.front().time != event.time) {
        walker_.events(row, group);
        group.clear();
    }
    group.push_back(event);
}

void HostEventGroups::end(const std::vector<std::size_t>& rows) {
    for (auto row : rows) {
        const auto r = static_cast<std::uint32_t>(row);
        if (auto it = waiting_.find(r); it != waiting_.end() && !it->second.empty())
            walker_.events(r, it->second);
        walker_.rowEnd(r);
    }
    waiting_.clear();
    walker_.end();
}

} // namespace gpueff::metrics
