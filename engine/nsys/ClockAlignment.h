#pragma once
#include <cstdint>
#include <optional>

#include "engine/nsys/NsysExport.h"

namespace gpueff::nsys {

// End of MPI_Init in a report's own clock (from MPI_OTHER_EVENTS, or the older NVTX "MPI" domain): every rank
// leaves MPI_Init together, so it is the sync point that refines the UTC alignment of several reports.
std::optional<std::int64_t> mpiInitEnd(const NsysExport& report);

} // namespace gpueff::nsys
