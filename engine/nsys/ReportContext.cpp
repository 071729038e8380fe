#include "engine/nsys/ReportContext.h"

#include "engine/common/Error.h"

namespace gpueff::nsys {

std::uint32_t ReportContext::threadRow(std::int64_t globalTid) const {
    auto it = threadRows.find(globalTid);
    if (it == threadRows.end())
        throw Error(report.path().string() + ": internal error: thread " + std::to_string(globalTid) +
                    " was not found by the pre-pass");
    return it->second;
}

std::uint32_t ReportContext::streamRow(const StreamKey& key) const {
    auto it = streamRows.find(key);
    if (it == streamRows.end())
        throw Error(report.path().string() + ": internal error: stream " + std::to_string(key.stream) +
                    " of device " + std::to_string(key.device) + " was not found by the pre-pass");
    return it->second;
}

std::uint32_t ReportContext::activityRow(const StreamKey& key, std::int64_t correlationId,
                                         std::int64_t start) const {
    if (!laneOf.empty()) {
        auto lane = laneOf.find({key, correlationId, start});
        if (lane != laneOf.end()) return laneRows.at({key, lane->second});
    }
    return streamRow(key);
}

std::int64_t ReportContext::stringValue(std::uint32_t type, std::int64_t id) {
    auto key = std::make_pair(type, id);
    auto it = stringValues_.find(key);
    if (it != stringValues_.end()) return it->second;
    auto v = catalog.nameValue(type, report.string(id));
    stringValues_.emplace(key, v);
    return v;
}

} // namespace gpueff::nsys
