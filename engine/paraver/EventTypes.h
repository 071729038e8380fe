#pragma once
#include <cstdint>

// Paraver event types written by `gpueff translate`. The numbers are nsys2prv 0.6.0's, so its cfgs and BSC's
// basicanalysis work on our traces; where nsys2prv's type loses information, ours is written beside it as an
// extra type. docs/events.md is the full encoding, type by type against nsys2prv's.
namespace gpueff::paraver::types {

// An inclusive range of event types: a family of types one kind of record is written under, or what a
// reader keeps (ReadOptions::eventTypes).
struct TypeRange {
    std::uint32_t first, last;
    constexpr bool contains(std::uint32_t type) const { return first <= type && type <= last; }
};

inline constexpr std::uint32_t kCudaApi = 63000000; // value: CUDA runtime/driver call (dense name value)
inline constexpr std::uint32_t kMemoryOperation = 63000001; // value: copyKind id, or kMemsetValue for memset
inline constexpr std::uint32_t kMemoryBytes = 63000002;
inline constexpr std::uint32_t kMemcpySrcKind = 63000003; // ENUM_CUDA_MEM_KIND id + 1 (0 is "end")
inline constexpr std::uint32_t kMemcpyDstKind = 63000004;
inline constexpr std::uint32_t kMemsetByte = 63000005;
inline constexpr std::uint32_t kKernel = 63000006;
inline constexpr std::uint32_t kNcclKernel = 63000007;
inline constexpr std::uint32_t kGraphLaunch = 63000008;
inline constexpr std::uint32_t kSynchronization = 63000009; // value: syncType + 1
inline constexpr std::uint32_t kGraphId = 63000100;
inline constexpr std::uint32_t kGraphExecId = 63000101;
inline constexpr std::uint32_t kGraphNodeId = 63000102;
inline constexpr std::uint32_t kGpuMemoryUsage = 63000200; // bytes in use on the device (gpueff)
// nsys2prv's: bytes of each allocation / deallocation (a zero-length event; its cfg sums them).
inline constexpr std::uint32_t kGpuMemoryAllocation = 66500001, kGpuMemoryDeallocation = 66500002;

inline constexpr std::uint32_t kGridX = 9101, kGridY = 9102, kGridZ = 9103;
inline constexpr std::uint32_t kBlockX = 9104, kBlockY = 9105, kBlockZ = 9106;
inline constexpr std::uint32_t kStaticSharedMemory = 9107, kDynamicSharedMemory = 9108;
inline constexpr std::uint32_t kLocalMemory = 9109, kRegistersPerThread = 9110;
inline constexpr std::uint32_t kCorrelationId = 9200;

// GPU metric samples: nsys2prv's 9400 + metricId (the id depends on the GPU's metric set), and gpueff's
// 63000300 + index of the metric name in a fixed catalogue (the same metric keeps its type on every GPU).
inline constexpr std::uint32_t kGpuMetricBase = 9400;
inline constexpr std::int64_t kGpuMetricIdLimit = 100; // 9400 + id stays below the NCCL types
inline constexpr std::uint32_t kGpuMetricByNameBase = 63000300;
inline constexpr std::uint32_t kGpuMetricByNameSlots = 100; // + 0..49 the catalogue, + 50..99 unknown names
inline constexpr TypeRange kGpuMetricIdTypes{
    kGpuMetricBase, kGpuMetricBase + static_cast<std::uint32_t>(kGpuMetricIdLimit) - 1};
inline constexpr TypeRange kGpuMetricByNameTypes{kGpuMetricByNameBase,
                                                 kGpuMetricByNameBase + kGpuMetricByNameSlots - 1};

// NVTX. Ranges of category c of a domain: domain base + c; nsys2prv's bases are 9600 (default domain), 9500
// (NCCL), 81000 (neSmiK) and 9600 + 100 * k for the k-th other domain in name order.
inline constexpr std::uint32_t kNcclDomainBase = 9500;
inline constexpr std::uint32_t kNcclCategoryBase =
    63000400; // NCCL ranges of category c > 0 (9500 + c are payloads)
inline constexpr std::uint32_t kNeSmiKDomainBase = 81000;
inline constexpr std::uint32_t kNvtxStartEndRange = 9004; // start/end ranges of every domain (nsys2prv's cfg)
inline constexpr std::uint32_t kNcclMessageSize = 9501, kNcclReduceOp = 9502, kNcclRootRank = 9503;
inline constexpr std::uint32_t kNcclPeerRank = 9504, kNcclCommunicator = 9505, kNcclRanks = 9506;
inline constexpr std::uint32_t kNcclRank = 9507;
inline constexpr std::uint32_t kNvtxDefaultDomainBase = 9600;
inline constexpr std::uint32_t kNvtxMaxOtherDomains = 700; // 9600 + 100 * 700 stays below 81000
inline constexpr std::uint32_t kNvtxJsonPayloadOffset = 97;
inline constexpr std::uint32_t kNvtxNumericPayloadOffset = 98;
inline constexpr std::uint32_t kNvtxMarkOffset = 99;
// Every type of a domain numbered from its base (categories, payloads, marks), over all domains: from the
// NCCL domain's 9500 to neSmiK's last, and gpueff's NCCL categories.
inline constexpr TypeRange kNvtxDomainTypes{kNcclDomainBase, kNeSmiKDomainBase + kNvtxMarkOffset};
inline constexpr TypeRange kNcclCategoryTypes{kNcclCategoryBase, kNcclCategoryBase + kNvtxMarkOffset};

// An NVTX range type: a domain's base + category, not its payload fields (NCCL's 9501.., every domain's
// +97..+99) nor the start/end type 9004 (docs/events.md).
constexpr bool isNvtxRangeType(std::uint32_t type) {
    if (kNcclCategoryTypes.contains(type)) return type - kNcclCategoryBase < kNvtxJsonPayloadOffset;
    if (!kNvtxDomainTypes.contains(type)) return false;
    if (type > kNcclDomainBase && type < kNvtxDefaultDomainBase) return false; // NCCL: 9501.. are payloads
    return type % 100 < kNvtxJsonPayloadOffset; // domain bases are multiples of 100
}

// MPI, with Extrae's types so MPI cfgs apply.
inline constexpr std::uint32_t kMpiPointToPoint = 50000001;
inline constexpr std::uint32_t kMpiCollective = 50000002;
inline constexpr std::uint32_t kMpiOther = 50000003;
inline constexpr std::uint32_t kMpiOneSided = 50000004;
inline constexpr std::uint32_t kMpiIo = 50000005;
inline constexpr std::uint32_t kMpiSendSize = 50100001;
inline constexpr std::uint32_t kMpiRecvSize = 50100002;
inline constexpr TypeRange kMpiCallTypes{kMpiPointToPoint, kMpiIo};

// OpenACC, as nsys2prv: per table (other / data / launch) the event kind (ENUM_OPENACC_EVENT_KIND id + 1),
// the region's name ("name@file:line"), the function name; and the bytes of data events.
inline constexpr std::uint32_t kOpenAccOtherKind = 66000000, kOpenAccDataKind = 66000001;
inline constexpr std::uint32_t kOpenAccLaunchKind = 66000002;
inline constexpr std::uint32_t kOpenAccOtherName = 66100000, kOpenAccDataName = 66100001;
inline constexpr std::uint32_t kOpenAccLaunchName = 66100002;
inline constexpr std::uint32_t kOpenAccOtherFunction = 66200000, kOpenAccDataFunction = 66200001;
inline constexpr std::uint32_t kOpenAccLaunchFunction = 66200002;
inline constexpr std::uint32_t kOpenAccDataBytes = 66300001;
inline constexpr std::uint32_t kOsRuntime = 66400000;
inline constexpr std::uint32_t kPthread = 61000000;

inline constexpr std::int64_t kTagKernelLaunch = 55001;
inline constexpr std::int64_t kTagMemoryLaunch = 55002;

// Read, never written by gpueff: Extrae's PAPI counters (PAPI_TOT_INS, PAPI_TOT_CYC), for the IPC and
// frequency of `gpueff modelfactors`.
inline constexpr std::uint32_t kPapiTotalInstructions = 42000050;
inline constexpr std::uint32_t kPapiTotalCycles = 42000059;

} // namespace gpueff::paraver::types
