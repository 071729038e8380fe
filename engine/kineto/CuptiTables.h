#pragma once
// The Nsight Systems export tables a staged Kineto trace fills (CuptiStaging.h): their schema, the enum
// codes Kineto's names map to, and the NVTX domains the host ranges are put in.
#include <cstdint>
#include <string>

namespace gpueff::kineto {

// The export schema the staged tables follow (the columns of nsys 2024.6's exports).
constexpr const char* kStagedSchemaVersion = "3.16.1";
// ENUM_NSYS_EVENT_CLASS of CUPTI_ACTIVITY_KIND_RUNTIME rows.
constexpr std::int64_t kRuntimeClass = 0, kDriverClass = 1;
// NVTX domains (domainId) of Kineto's host events, named after their category; cuda_sync's holds only the
// synchronizations that name a stream (CuptiStaging.cpp, streamPayload).
constexpr std::int64_t kCpuOpDomain = 1, kUserAnnotationDomain = 2, kPythonDomain = 3, kNcclDomain = 4,
                       kCudaSyncDomain = 5;
std::string domainName(std::int64_t domain);

// CREATE TABLE statements (and the enum tables' rows) of an empty staged export.
std::string cuptiTablesSql();

// "Memcpy HtoD (Pageable -> Device)": ENUM_CUDA_MEMCPY_OPER (0 unknown) and ENUM_CUDA_MEM_KIND codes
// (7 unknown) of the source and destination.
struct CopyKinds {
    std::int64_t copy = 0, source = 7, destination = 7;
};
CopyKinds copyKinds(const std::string& name);
// "Memset (Device)": the ENUM_CUDA_MEM_KIND code of the memory set.
std::int64_t memsetKind(const std::string& name);
// "Stream Sync", "Event Sync", "Stream Wait Event", "Context Sync": ENUM_CUPTI_SYNC_TYPE (0 unknown).
std::int64_t syncType(const std::string& kind);

} // namespace gpueff::kineto
