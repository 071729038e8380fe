#include "engine/kineto/KinetoTables.h"

#include "engine/common/Error.h"
#include "engine/common/Text.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string_view>

namespace gpueff::kineto {

namespace {

// Kineto's memory names ("Pageable", "Pinned", "Device", ...) as ENUM_CUDA_MEM_KIND codes.
std::int64_t memoryKind(std::string_view name) {
    static constexpr std::array<std::string_view, 7> kinds = {
        "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static", "Managed Static"};
    for (std::size_t i = 0; i < kinds.size(); ++i)
        if (name == kinds[i]) return static_cast<std::int64_t>(i);
    return 7;
}

std::string_view between(std::string_view s, char open, char close) {
    auto a = s.find(open), b = s.rfind(close);
    if (a == std::string_view::npos || b == std::string_view::npos || b <= a) return {};
    return s.substr(a + 1, b - a - 1);
}

// The stream argument of a host event, which HTA reads as GPU work (docs/report.md "HTA's definitions"), kept
// as the JSON payload of its NVTX range; empty when the event names none (-1 is Kineto's "no stream").
std::string streamPayload(const ChromeEvent& e) {
    if (!e.stream.present || e.stream.value == -1) return {};
    return "{\"stream\":" + std::to_string(e.stream.value) + "}";
}

// nsys packs process and thread ids in 24 bits each; larger ids are stored as others, counted down from the
// top of that range (a Kineto trace holds a handful of processes and threads).
constexpr std::int64_t kIdLimit = 1 << 24;

// Bytes per element of the dtypes PyTorch writes in "dtype" of collectives (c10::ScalarType names).
std::int64_t elementBytes(const std::string& dtype) {
    static const std::map<std::string, std::int64_t> sizes = {{"Float", 4},
                                                              {"Double", 8},
                                                              {"Half", 2},
                                                              {"BFloat16", 2},
                                                              {"Long", 8},
                                                              {"Int", 4},
                                                              {"Short", 2},
                                                              {"Char", 1},
                                                              {"Byte", 1},
                                                              {"Bool", 1},
                                                              {"ComplexFloat", 8},
                                                              {"ComplexDouble", 16},
                                                              {"ComplexHalf", 4},
                                                              {"Float8_e4m3fn", 1},
                                                              {"Float8_e5m2", 1},
                                                              {"Float8_e4m3fnuz", 1},
                                                              {"Float8_e5m2fnuz", 1},
                                                              {"UInt16", 2},
                                                              {"UInt32", 4},
                                                              {"UInt64", 8}};
    auto it = sizes.find(dtype);
    return it == sizes.end() ? 0 : it->second;
}

} // namespace

std::string domainName(std::int64_t domain) {
    switch (domain) {
    case kCpuOpDomain:
        return "cpu_op";
    case kUserAnnotationDomain:
        return "user_annotation";
    case kPythonDomain:
        return "python_function";
    case kCudaSyncDomain:
        return "cuda_sync";
    default:
        return "NCCL";
    }
}

CopyKinds copyKinds(std::string_view s) {
    CopyKinds k;
    if (s.rfind("Memcpy ", 0) != 0) return k;
    static constexpr std::array<std::string_view, 11> ops = {"",     "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                                             "AtoD", "DtoA", "DtoD", "HtoH", "PtoP"};
    std::string_view op = s.substr(7, 4);
    for (std::size_t i = 1; i < ops.size(); ++i)
        if (op == ops[i]) k.copy = static_cast<std::int64_t>(i);
    // "(Pageable -> Device)"
    std::string_view kinds = between(s, '(', ')');
    if (auto arrow = kinds.find(" -> "); arrow != std::string_view::npos) {
        k.source = memoryKind(kinds.substr(0, arrow));
        k.destination = memoryKind(kinds.substr(arrow + 4));
    }
    return k;
}

std::int64_t memsetKind(std::string_view name) {
    return memoryKind(between(name, '(', ')'));
}

std::int64_t syncType(std::string_view kind) {
    if (kind == "Event Sync") return 1;
    if (kind == "Stream Wait Event") return 2;
    if (kind == "Stream Sync") return 3;
    if (kind == "Context Sync") return 4;
    return 0;
}

std::int64_t TableBuilder::stringId(const std::string& text) {
    auto [it, added] = stringIds_.try_emplace(text, static_cast<std::int64_t>(stringIds_.size()) + 1);
    if (added) t_.strings.push_back(text);
    return it->second;
}

std::int32_t TableBuilder::textId(const std::string& text) {
    return static_cast<std::int32_t>(stringId(text));
}

std::int64_t TableBuilder::packedId(std::int64_t id, std::map<std::int64_t, std::int64_t>& remapped) {
    if (id >= 0 && id < kIdLimit) return id;
    // Ids are stored counting down from the top of nsys' range: a trace with 2^23 such ids (none real) would
    // reach the ids stored as themselves.
    if (remapped.size() >= static_cast<std::size_t>(kIdLimit / 2) && !remapped.count(id))
        throw Error(input_.string() + ": more than " + std::to_string(kIdLimit / 2) +
                    " process or thread ids outside 0..2^24");
    auto [it, added] = remapped.try_emplace(id, kIdLimit - 1 - static_cast<std::int64_t>(remapped.size()));
    return it->second;
}

std::int64_t TableBuilder::globalTid(std::int64_t pid, std::int64_t tid) {
    return (packedId(pid, pids_) << 24) | packedId(tid, tids_);
}

void TableBuilder::add(const ChromeEvent& e) {
    if (e.ph == 'M') return metadataEvent(e);
    // Flows (ac2g: the launch of a kernel, drawn from its correlation ids, which the records carry
    // themselves), instants and counters carry nothing the model needs.
    if (e.ph != 'X') return;
    if (!e.badNumber.empty()) return skip("complete event whose " + e.badNumber + " is not a number");
    if (!e.ts.present || !e.dur.present) return skip("complete event without ts or dur");
    // ts + dur beyond int64 ns (times themselves are checked when they are read): no end to place it by.
    std::int64_t end = 0;
    if (__builtin_add_overflow(e.ts.value, e.dur.value, &end))
        return skip("complete event ending beyond int64 ns");
    const std::string& c = e.cat;
    if (c == "kernel" || c == "gpu_memcpy" || c == "gpu_memset") return gpuActivity(e, end);
    if (c == "cuda_runtime" || c == "cuda_driver") return runtimeCall(e, end);
    if (c == "cuda_sync") return synchronization(e, end);
    if (c == "cpu_op") return hostRange(e, end, kCpuOpDomain);
    if (c == "user_annotation") return hostRange(e, end, kUserAnnotationDomain);
    if (c == "python_function") return hostRange(e, end, kPythonDomain);
    // GPU-side copies of user annotations (the host range already has them) and the profiler's own span.
    if (c == "gpu_user_annotation" || c == "Trace") return;
    skip("category '" + c + "' is not translated");
}

void TableBuilder::metadataEvent(const ChromeEvent& e) {
    if (!e.pid.present) return;
    if (e.name == "process_name")
        processNames_[e.pid.value] = e.metadataName;
    else if (e.name == "thread_name" && e.tid.present)
        threadNames_[{e.pid.value, e.tid.value}] = e.metadataName;
}

void TableBuilder::hostRange(const ChromeEvent& e, std::int64_t end, std::int64_t domain) {
    if (!e.pid.present || !e.tid.present) return skip(e.cat + " event without a numeric pid and tid");
    if (cpuPid_ < 0) cpuPid_ = e.pid.value;
    domains_.try_emplace(domain, domainName(domain));
    std::string payload = streamPayload(e);
    t_.nvtx.push_back({e.ts.value, end, globalTid(e.pid.value, e.tid.value), textId(e.name),
                       payload.empty() ? 0 : textId(payload), 59, static_cast<std::uint8_t>(domain)});
}

void TableBuilder::runtimeCall(const ChromeEvent& e, std::int64_t end) {
    if (!e.pid.present || !e.tid.present) return skip(e.cat + " event without a numeric pid and tid");
    if (cpuPid_ < 0) cpuPid_ = e.pid.value;
    t_.runtime.push_back({e.ts.value, end, globalTid(e.pid.value, e.tid.value), e.correlation,
                          stringId(e.name), e.cat == "cuda_driver" ? kDriverClass : kRuntimeClass});
}

void TableBuilder::gpuActivity(const ChromeEvent& e, std::int64_t end) {
    // Kineto draws a GPU as a process whose pid is the device and a stream as a thread whose tid is the
    // stream: the args say it again, and win where both exist.
    Field device = e.device.present ? e.device : e.pid;
    Field stream = e.stream.present ? e.stream : e.tid;
    if (!device.present || device.value < 0) return skip(e.cat + " event without a device");
    if (!stream.present) return skip(e.cat + " event without a stream");
    GpuOperation op{e.ts.value, end, device.value, stream.value, e.correlation};
    if (e.cat == "kernel") {
        t_.kernels.push_back(
            {op, stringId(e.name), e.registers.value, e.sharedMemory.value, e.grid, e.block});
        if (isCollectiveKernel(e.name) && e.correlation.present) {
            // NCCL's own NVTX ranges carry this payload in an nsys export; Kineto puts it on the kernel.
            nlohmann::json payload = nlohmann::json::object();
            std::int64_t bytes = 0;
            if (auto size = elementBytes(e.dtype);
                size > 0 && e.inElements.present && !__builtin_mul_overflow(e.inElements.value, size, &bytes))
                payload["Message size [bytes]"] = bytes;
            if (e.groupSize.present) payload["No. of ranks"] = e.groupSize.value;
            ncclLaunches_.push_back(
                {e.correlation.value, e.collective.empty() ? e.name : e.collective, payload.dump()});
        }
    } else if (e.cat == "gpu_memcpy") {
        t_.memcpys.push_back({op, e.bytes.value, copyKinds(e.name)});
    } else {
        t_.memsets.push_back({op, e.bytes.value, memsetKind(e.name)});
    }
}

void TableBuilder::synchronization(const ChromeEvent& e, std::int64_t end) {
    Field device = e.device.present ? e.device : e.pid;
    if (!device.present) return skip("cuda_sync event without a device");
    t_.syncs.push_back(
        {{e.ts.value, end, device.value, e.stream.present ? e.stream.value : -1, e.correlation},
         syncType(e.syncKind.empty() ? e.name : e.syncKind)});
    // One that names a stream is also an NVTX range of the domain cuda_sync, placed on its call's thread at
    // the end (finish).
    if (std::string payload = streamPayload(e); !payload.empty() && e.correlation.present)
        streamSyncs_.push_back(
            {e.ts.value, end, e.correlation.value, e.name.empty() ? e.syncKind : e.name, payload});
}

// The NCCL payloads as NCCL's NVTX ranges would hold them: around each call that launched the kernel (calls
// sharing the correlation id in their order), with this rank in every collective (distributedInfo may follow
// the events in the file).
void TableBuilder::ncclRanges(const TraceMetadata& metadata) {
    if (ncclLaunches_.empty()) return;
    std::unordered_map<std::int64_t, std::vector<std::size_t>> calls; // correlation id -> runtime rows
    for (std::size_t i = 0; i < t_.runtime.size(); ++i)
        if (t_.runtime[i].correlation.present) calls[t_.runtime[i].correlation.value].push_back(i);
    bool any = false;
    for (auto& launch : ncclLaunches_) {
        if (metadata.rank) {
            // {"a":1} -> {"a":1,"Rank":r}: a member appended, as SQLite's json_set writes it.
            launch.payload.pop_back();
            launch.payload += std::string(launch.payload.size() > 1 ? "," : "") +
                              "\"Rank\":" + std::to_string(*metadata.rank) + "}";
        }
        auto it = calls.find(launch.correlation);
        if (it == calls.end()) continue;
        for (std::size_t i : it->second) {
            const auto& call = t_.runtime[i];
            t_.nvtx.push_back({call.start, call.end, call.globalTid, textId(launch.name),
                               textId(launch.payload), 59, static_cast<std::uint8_t>(kNcclDomain)});
            any = true;
        }
    }
    if (any) domains_.try_emplace(kNcclDomain, domainName(kNcclDomain));
}

// The synchronizations that name a stream, on the thread of their call (the earliest one of that id).
void TableBuilder::syncRanges() {
    if (streamSyncs_.empty()) return;
    std::unordered_map<std::int64_t, std::size_t> first; // correlation id -> its earliest runtime row
    for (std::size_t i = 0; i < t_.runtime.size(); ++i) {
        const auto& call = t_.runtime[i];
        if (!call.correlation.present) continue;
        auto [it, added] = first.try_emplace(call.correlation.value, i);
        if (!added && call.start < t_.runtime[it->second].start) it->second = i;
    }
    bool any = false;
    for (const auto& s : streamSyncs_) {
        auto it = first.find(s.correlation);
        if (it == first.end()) continue;
        t_.nvtx.push_back({s.start, s.end, t_.runtime[it->second].globalTid, textId(s.name),
                           textId(s.payload), 59, static_cast<std::uint8_t>(kCudaSyncDomain)});
        any = true;
    }
    if (any) domains_.try_emplace(kCudaSyncDomain, domainName(kCudaSyncDomain));
}

KinetoTables TableBuilder::finish(const TraceMetadata& metadata) {
    const std::int64_t pid = cpuPid_ < 0 ? 0 : cpuPid_;
    t_.globalPid = packedId(pid, pids_) << 24;
    auto name = processNames_.find(pid);
    t_.processName = name == processNames_.end() ? std::string("python") : name->second;
    for (const auto& [ids, thread] : threadNames_)
        if (ids.first == pid) t_.threadNames[globalTid(ids.first, ids.second)] = stringId(thread);
    ncclRanges(metadata);
    syncRanges();
    for (const auto& [id, domain] : domains_)
        t_.nvtx.push_back({0, 0, 0, textId(domain), 0, 75, static_cast<std::uint8_t>(id)});
    // Kineto's clock: epoch microseconds, or an offset from baseTimeNanoseconds when the trace has it.
    t_.sessionUtcNs = metadata.baseTimeNs.value_or(0);
    t_.host = metadata.hostName.empty() ? std::string("localhost") : metadata.hostName;
    if (metadata.rank) t_.rank = std::pair(globalTid(pid, pid), *metadata.rank);
    t_.productVersion =
        "Kineto trace" +
        (metadata.schemaVersion.empty() ? std::string() : " schema " + metadata.schemaVersion);
    return std::move(t_);
}

} // namespace gpueff::kineto
