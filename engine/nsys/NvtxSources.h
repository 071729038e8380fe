#pragma once
#include "engine/nsys/ReportContext.h"

#include <memory>
#include <optional>
#include <vector>

namespace gpueff::nsys {

// NVTX push/pop and start/end ranges and marks, by domain and category, with payloads; the "MPI" domain of
// older exports becomes Extrae MPI events, the "NCCL" domain its own type range.
void discoverNvtx(const NsysExport&, ReportObjects&);
void openNvtx(ReportContext&, std::vector<std::unique_ptr<RecordSource>>&);
// The id of NCCL's NVTX domain in this report, named or recognised by its nccl* ranges.
std::optional<std::int64_t> ncclDomainId(const NsysExport&);

} // namespace gpueff::nsys
