#pragma once
#include "engine/nsys/ReportContext.h"

#include <cstdint>
#include <map>
#include <vector>

namespace gpueff::nsys {

// NCCL describes each collective in an NVTX range of its "NCCL" domain whose payload carries the message
// size, reduction operation, root or peer rank and communicator. The kernel that the range launched (an API
// call inside the range, on the same thread, whose correlation id is the kernel's) gets those fields as
// events 9501.. so Paraver can show them on the GPU row.
struct NcclPayload {
    std::vector<paraver::EventPair> fields;
};

class NcclPayloads {
public:
    // Reads JSON payloads of NCCL ranges; binary payloads are counted in `undecoded` (their layout is not
    // documented well enough to decode safely).
    static NcclPayloads read(ReportContext& ctx, std::uint64_t& undecoded);
    const NcclPayload* find(std::int64_t globalPid, std::int64_t correlationId) const;
    bool empty() const { return byLaunch_.empty(); }

private:
    std::map<std::pair<std::int64_t, std::int64_t>, NcclPayload> byLaunch_; // (globalPid, correlationId)
};

} // namespace gpueff::nsys
