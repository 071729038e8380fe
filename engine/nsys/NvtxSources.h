#pragma once
#include "engine/nsys/ReportContext.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::nsys {

// NVTX push/pop and start/end ranges and marks, by domain and category, with payloads; the "MPI" domain of
// older exports becomes Extrae MPI events, the "NCCL" domain its own type range.
void discoverNvtx(const NsysExport&, ReportObjects&);
void openNvtx(ReportContext&, std::vector<std::unique_ptr<RecordSource>>&);
// Base event types of the NVTX domains other than the default, NCCL and neSmiK ones, over every report of the
// trace: 9600 + 100 * k for the k-th domain name (1-based, byte order), as nsys2prv numbers them. The names
// of a report come with its objects when the pre-pass discovered its NVTX (by whichever process scanned it).
std::map<std::string, std::uint32_t> nvtxDomainBases(const std::vector<std::unique_ptr<NsysExport>>& reports,
                                                     const std::vector<ReportObjects>& objects);
// The id of NCCL's NVTX domain in this report, named or recognised by its nccl* ranges.
std::optional<std::int64_t> ncclDomainId(const NsysExport&);

} // namespace gpueff::nsys
