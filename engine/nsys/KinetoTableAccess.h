#pragma once
// How KinetoRows reads a Kineto trace's tables (engine/kineto/KinetoTables.h) by export table name: the rows
// that can be translated (RowValidity's rules, counted once), their read order, and a row's times. Shared by
// the scans (KinetoRows.cpp) and the query rows (KinetoQueries.cpp).
#include "engine/kineto/KinetoTables.h"
#include "engine/nsys/NsysExport.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::nsys::kinetorows::detail {

using kineto::KinetoTables;

inline constexpr const char* kRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME";
inline constexpr const char* kKernel = "CUPTI_ACTIVITY_KIND_KERNEL";
inline constexpr const char* kMemcpy = "CUPTI_ACTIVITY_KIND_MEMCPY";
inline constexpr const char* kMemset = "CUPTI_ACTIVITY_KIND_MEMSET";
inline constexpr const char* kSync = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
inline constexpr const char* kNvtx = "NVTX_EVENTS";

enum class Table { Runtime, Kernel, Memcpy, Memset, Sync, Nvtx, None };

Table tableOf(const std::string& name);
const KinetoTables& tablesOf(const NsysExport& ex);
std::size_t sizeOf(const KinetoTables& t, Table table);
const kineto::GpuOperation& gpuRow(const KinetoTables& t, Table table, std::size_t i);
std::int64_t startOf(const KinetoTables& t, Table table, std::size_t i);
std::optional<std::int64_t> endOf(const KinetoTables& t, Table table, std::size_t i);
// The rows of `name` that can be translated, in storage order; the others counted by reason, once.
const std::vector<std::uint32_t>& validRows(const NsysExport& ex, const std::string& name);
// The valid rows in the order the translation reads them: storage order when nearly sorted by start (the
// source reorders within its window), else sorted by start, ties in storage order (NsysExport::startOrder).
std::vector<std::uint32_t> readOrder(const NsysExport& ex, const std::string& name);
// A correlation id as SQLite reads a NULL one: 0.
inline std::int64_t correlationOf(const kineto::Field& f) {
    return f.present ? f.value : 0;
}

} // namespace gpueff::nsys::kinetorows::detail
