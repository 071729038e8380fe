#pragma once
#include "engine/nsys/NsysExport.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::nsys {

struct SyncPoint {
    std::string name;      // "MPI_Init end", or "end of the first MPI_Allreduce", ...
    std::int64_t time = 0; // in the report's own clock
};

// A moment every rank reaches together, to refine the UTC alignment of several reports: the end of MPI_Init
// (MPI_OTHER_EVENTS, or the older NVTX "MPI" domain), else the end of the first MPI collective call.
std::optional<SyncPoint> syncPoint(const NsysExport& report);

// Shifts (ns, added to each report's already UTC-aligned clock) that make the sync points coincide, when all
// reports have the same kind of sync point and no correction exceeds `limitNs` (a larger one means the
// reports are not one run, or the sync point is not shared: then nothing is refined and `why` says so).
std::vector<std::int64_t> syncCorrections(const std::vector<std::optional<SyncPoint>>& points,
                                          const std::vector<std::int64_t>& utcShifts, std::int64_t limitNs,
                                          std::string& why);

} // namespace gpueff::nsys
