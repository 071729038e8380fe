#pragma once
#include "engine/nsys/ReportContext.h"

#include <memory>
#include <string>
#include <vector>

namespace gpueff::nsys {

inline constexpr std::int64_t kMemsetOperation = 100; // value of types::kMemoryOperation for memsets

std::string kernelNameColumn(const sqlite::Database& db);

void discoverKernels(const NsysExport&, ReportObjects&);
void discoverMemory(const NsysExport&, ReportObjects&);
void discoverGraphs(const NsysExport&, ReportObjects&);
void openKernels(ReportContext&, std::vector<std::unique_ptr<RecordSource>>&);
void openMemory(ReportContext&, std::vector<std::unique_ptr<RecordSource>>&);
void openGraphs(ReportContext&, std::vector<std::unique_ptr<RecordSource>>&);

} // namespace gpueff::nsys
