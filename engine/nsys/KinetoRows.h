#pragma once
// A Kineto trace's tables (engine/kineto/KinetoTables.h) read by the translator as it reads an nsys export:
// the same rows each query of the export would give, in the same columns and order, so that the same
// decoders (one per kind of record) turn both into records (the query rows: KinetoQueries.cpp; the scans and
// joins the pre-pass and NCCL payloads need: KinetoRows.cpp). Rows that cannot be placed are left out and
// counted by the rules of RowValidity.h, as on an export.
#include "engine/nsys/NcclPayloads.h"
#include "engine/nsys/ReportContext.h"
#include "engine/nsys/Rows.h"
#include "engine/nsys/TableScan.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gpueff::nsys::kinetorows {

// Whether `table` (an export table name) is one a Kineto trace fills; its valid rows, counted on first use.
bool has(const NsysExport& ex, const std::string& table);
bool hasRows(const NsysExport& ex, const std::string& table);
// Worst lateness of the valid rows in storage order (TableScan.h's Lateness), for the read order.
std::int64_t lateness(const NsysExport& ex, const std::string& table);

// Discovery scans (TableScan.h): GPU tables keyed by globalPid, deviceId, streamId; the runtime table by
// globalTid; NVTX ranges by globalTid and domain.
ScanSpan scan(const NsysExport& ex, const std::string& table, int keyCount,
              const std::function<void(const std::int64_t* keys)>& onKey,
              const std::function<void(std::int64_t start, std::int64_t end)>& onRow = {});
// start, end, correlation id of one stream's rows of a GPU table, by start then end.
std::vector<std::array<std::int64_t, 3>> streamRows(const NsysExport& ex, const std::string& table,
                                                    const StreamKey& key);

// The rows of the translation's queries (their columns are documented where the SQL versions are built).
std::unique_ptr<Rows> kernels(const NsysExport& ex);
std::unique_ptr<Rows> memcpys(const NsysExport& ex);
std::unique_ptr<Rows> memsets(const NsysExport& ex);
std::unique_ptr<Rows> runtimeCalls(const NsysExport& ex);
std::unique_ptr<Rows> launches(const NsysExport& ex);
std::unique_ptr<Rows> synchronizations(const NsysExport& ex);
std::unique_ptr<Rows> nvtxRanges(const NsysExport& ex);
// NCCL ranges with a payload, joined to the calls they enclose: globalTid, correlation id, JSON text.
std::vector<std::tuple<std::int64_t, std::int64_t, std::string>> ncclPayloadRows(const NsysExport& ex,
                                                                                 std::int64_t domain);
// NVTX meta rows: domain names (eventType 75).
std::map<std::int64_t, std::string> domainNames(const NsysExport& ex);
// End of the last MPI_Init range, if any (clock alignment).
std::optional<std::int64_t> mpiInitEnd(const NsysExport& ex);

} // namespace gpueff::nsys::kinetorows
