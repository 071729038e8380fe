#include "metrics/TraceOrigin.h"

#include "engine/paraver/EventTypes.h"

#include <map>

namespace gpueff::metrics {

const char* writerName(TraceWriter writer) {
    switch (writer) {
    case TraceWriter::Gpueff:
        return "gpueff";
    case TraceWriter::Nsys2prv:
        return "nsys2prv";
    case TraceWriter::Other:
        return "other";
    }
    return "other";
}

TraceWriter recogniseWriter(const semantic::LoadedTrace& trace) {
    if (trace.trace().provenance.translation) return TraceWriter::Gpueff;
    const auto& types = trace.context().labels.eventTypes;
    auto labelled = [&](std::uint32_t type, const char* label) {
        auto it = types.find(type);
        return it != types.end() && it->second == label;
    };
    namespace t = paraver::types;
    if (labelled(t::kKernel, "CUDA kernel") &&
        (labelled(t::kMemoryOperation, "CUDA memcpy kernel") || labelled(t::kCudaApi, "CUDA library call")))
        return TraceWriter::Nsys2prv;
    return TraceWriter::Other;
}

bool launchLinesCarryCallEnds(const semantic::LoadedTrace& trace) {
    bool any = false;
    for (const auto& c : trace.trace().communications) {
        if (c.tag != paraver::types::kTagKernelLaunch) continue;
        if (c.physicalSend != c.logicalSend) return true;
        any = true;
    }
    return !any;
}

std::uint64_t overlappingWorkRecords(const semantic::LoadedTrace& trace,
                                     const std::vector<std::size_t>& rows) {
    namespace t = paraver::types;
    std::uint64_t overlaps = 0;
    for (auto row : rows) {
        const auto& th = trace.trace().threads.at(row);
        std::map<std::uint32_t, bool> running; // work type -> a record of it is open on this row
        for (std::size_t i = 0; i < th.eventType.size(); ++i) {
            auto type = th.eventType[i];
            if (type != t::kKernel && type != t::kNcclKernel && type != t::kGraphLaunch &&
                type != t::kMemoryOperation)
                continue;
            bool& open = running[type];
            if (th.eventValue[i] != 0 && open) ++overlaps;
            open = th.eventValue[i] != 0;
        }
    }
    return overlaps;
}

} // namespace gpueff::metrics
