#include "metrics/HostEvents.h"

#include "engine/paraver/EventTypes.h"
#include "engine/semantic/LoadedTrace.h"

namespace gpueff::metrics {

std::vector<std::pair<std::uint32_t, std::uint32_t>> hostEventTypes() {
    namespace t = paraver::types;
    return {{t::kCudaApi, t::kCudaApi},
            {t::kNvtxStartEndRange, t::kNvtxStartEndRange},
            {t::kNvtxDomainTypes.first, t::kNvtxDomainTypes.last},
            {t::kNcclCategoryTypes.first, t::kNcclCategoryTypes.last}};
}

bool isHostEventType(std::uint32_t type) {
    namespace t = paraver::types;
    return type == t::kCudaApi || type == t::kNvtxStartEndRange || t::kNvtxDomainTypes.contains(type) ||
           t::kNcclCategoryTypes.contains(type);
}

void walkHostColumns(const semantic::LoadedTrace& trace, const TaskInfo& task, HostEventWalker& walker) {
    std::vector<HostEvent> group;
    for (auto row : task.cpuRows) {
        const auto& th = trace.trace().threads[row];
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
