#pragma once
// A Kineto trace held in memory as the CUPTI activity records it serializes: runtime and driver calls,
// kernels, copies, memsets and synchronizations with CUPTI's correlation ids, and host ranges (operators,
// annotations) as NVTX ranges of one domain per category. These are the records Nsight Systems exports from
// the same CUPTI, in the same columns, ids and enum codes, so the translator reads a Kineto trace through the
// decoders of an nsys export (engine/nsys/KinetoRows.h): one encoding, launch lines, NCCL payloads and
// validation for both formats. Built event by event as the file is parsed (ChromeTrace.h).
#include "engine/kineto/ChromeTrace.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace gpueff::kineto {

// The export schema whose columns and enum codes the tables follow (nsys 2024.6).
constexpr const char* kExportSchemaVersion = "3.16.1";
// ENUM_NSYS_EVENT_CLASS of runtime rows.
constexpr std::int64_t kRuntimeClass = 0, kDriverClass = 1;
// NVTX domains (domainId) of Kineto's host events, named after their category; cuda_sync's holds only the
// synchronizations that name a stream.
constexpr std::int64_t kCpuOpDomain = 1, kUserAnnotationDomain = 2, kPythonDomain = 3, kNcclDomain = 4,
                       kCudaSyncDomain = 5;
std::string domainName(std::int64_t domain);

// "Memcpy HtoD (Pageable -> Device)": ENUM_CUDA_MEMCPY_OPER (0 unknown) and ENUM_CUDA_MEM_KIND codes
// (7 unknown) of the source and destination.
struct CopyKinds {
    std::int64_t copy = 0, source = 7, destination = 7;
};
CopyKinds copyKinds(std::string_view name);
// "Memset (Device)": the ENUM_CUDA_MEM_KIND code of the memory set.
std::int64_t memsetKind(std::string_view name);
// "Stream Sync", "Event Sync", "Stream Wait Event", "Context Sync": ENUM_CUPTI_SYNC_TYPE (0 unknown).
std::int64_t syncType(std::string_view kind);
// The last ENUM_CUDA_MEMCPY_OPER code copyKinds() gives (Peer-to-Peer): the tables use nsys' enum codes, and
// label the codes up to this one (nsys 2024.6's table).
constexpr std::int64_t kLastCopyKind = 10;

// nsys packs process and thread ids in 24 bits each: <PID:24><TID:24>.
struct RuntimeCall {
    std::int64_t start, end, globalTid;
    Field correlation;
    std::int64_t nameId, eventClass;
};
struct GpuOperation {
    std::int64_t start, end, device, stream;
    Field correlation;
};
struct KernelRecord : GpuOperation {
    std::int64_t nameId, registers, sharedMemory;
    std::array<std::int64_t, 3> grid, block;
};
struct MemcpyRecord : GpuOperation {
    std::int64_t bytes;
    CopyKinds kinds;
};
struct MemsetRecord : GpuOperation {
    std::int64_t bytes, memoryKind;
};
struct SyncRecord : GpuOperation {
    std::int64_t syncType;
};
// NVTX_EVENTS rows: ranges (eventType 59) on a thread, and the names of the domains (eventType 75, no time,
// no thread). Names and JSON payloads are string ids (0: none); 40 bytes a row, the most numerous one.
struct NvtxRecord {
    std::int64_t start, end, globalTid;
    std::int32_t textId, jsonId;
    std::uint8_t eventType, domain;
    bool isRange() const { return eventType != 75; }
};

struct KinetoTables {
    std::vector<std::string> strings; // StringIds: id i + 1 -> strings[i]
    std::vector<RuntimeCall> runtime;
    std::vector<KernelRecord> kernels;
    std::vector<MemcpyRecord> memcpys;
    std::vector<MemsetRecord> memsets;
    std::vector<SyncRecord> syncs;
    std::vector<NvtxRecord> nvtx;
    std::int64_t globalPid = 0; // the process of every record (Kineto: one per trace)
    std::string processName;
    std::map<std::int64_t, std::int64_t> threadNames;          // globalTid -> string id
    std::optional<std::pair<std::int64_t, std::int64_t>> rank; // MPI_RANKS: globalTid, rank
    std::int64_t sessionUtcNs = 0;
    std::string host, productVersion;
    std::map<std::string, std::uint64_t> skipped; // events left out, by reason

    std::string_view string(std::int64_t id) const {
        return id >= 1 && static_cast<std::size_t>(id) <= strings.size() ? std::string_view(strings[id - 1])
                                                                         : std::string_view();
    }
};

// Builds the tables from the events of one trace, in file order.
class TableBuilder {
public:
    // `input` names the trace in messages and in the tables.
    explicit TableBuilder(std::filesystem::path input) : input_(std::move(input)) {}
    void add(const ChromeEvent& event);
    // What needs the whole trace (process and thread names, session start, host, rank, NCCL ranges around
    // their launch calls).
    KinetoTables finish(const TraceMetadata& metadata);

private:
    std::int64_t stringId(const std::string& text);
    std::int32_t textId(const std::string& text);
    std::int64_t globalTid(std::int64_t pid, std::int64_t tid);
    std::int64_t packedId(std::int64_t id, std::map<std::int64_t, std::int64_t>& remapped);
    void hostRange(const ChromeEvent& e, std::int64_t end, std::int64_t domain);
    // end: the event's ts + dur, checked by add()
    void runtimeCall(const ChromeEvent& e, std::int64_t end);
    void gpuActivity(const ChromeEvent& e, std::int64_t end);
    void synchronization(const ChromeEvent& e, std::int64_t end);
    void metadataEvent(const ChromeEvent& e);
    void skip(const std::string& why) { ++t_.skipped[why]; }
    void ncclRanges(const TraceMetadata& metadata);
    void syncRanges();

    std::filesystem::path input_;
    KinetoTables t_;
    std::unordered_map<std::string, std::int64_t> stringIds_;
    std::map<std::int64_t, std::int64_t> pids_, tids_; // ids beyond nsys' 24 bits -> ids stored
    std::int64_t cpuPid_ = -1;                         // the process of the host events (Kineto: one)
    std::map<std::int64_t, std::string> processNames_;
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> threadNames_;
    std::map<std::int64_t, std::string> domains_; // NVTX domain id -> name, of the domains used
    struct NcclLaunch {
        std::int64_t correlation;
        std::string name, payload;
    };
    std::vector<NcclLaunch> ncclLaunches_;
    struct StreamSync {
        std::int64_t start, end, correlation;
        std::string name, payload;
    };
    std::vector<StreamSync> streamSyncs_;
};

} // namespace gpueff::kineto
