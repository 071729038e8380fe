#include "engine/kineto/CuptiStaging.h"

#include "engine/common/Error.h"
#include "engine/common/Text.h"
#include "engine/kineto/CuptiTables.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

namespace gpueff::kineto {

// One prepared INSERT, its values bound by position and the row written by row(); no allocation per row.
class Insert {
public:
    Insert(sqlite3* db, const std::string& sql) : db_(db) {
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK)
            throw Error("staging a Kineto trace: " + std::string(sqlite3_errmsg(db)) + " in " + sql);
    }
    ~Insert() { sqlite3_finalize(stmt_); }
    Insert(const Insert&) = delete;
    Insert& operator=(const Insert&) = delete;
    Insert& operator()(std::int64_t v) {
        sqlite3_bind_int64(stmt_, ++n_, v);
        return *this;
    }
    Insert& operator()(const Field& f) {
        if (f.present)
            sqlite3_bind_int64(stmt_, ++n_, f.value);
        else
            sqlite3_bind_null(stmt_, ++n_);
        return *this;
    }
    Insert& null() {
        sqlite3_bind_null(stmt_, ++n_);
        return *this;
    }
    Insert& operator()(const std::string& s) {
        sqlite3_bind_text(stmt_, ++n_, s.data(), static_cast<int>(s.size()), SQLITE_STATIC);
        return *this;
    }
    void row() {
        if (sqlite3_step(stmt_) != SQLITE_DONE)
            throw Error("staging a Kineto trace: " + std::string(sqlite3_errmsg(db_)));
        sqlite3_reset(stmt_);
        n_ = 0;
    }

private:
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
    int n_ = 0;
};

namespace {

// The stream argument of a host event, which HTA reads as GPU work (docs/report.md "HTA's definitions"), kept
// as the JSON payload of its NVTX range; empty when the event names none (-1 is Kineto's "no stream").
std::string streamPayload(const ChromeEvent& e) {
    if (!e.stream.present || e.stream.value == -1) return {};
    return "{\"stream\":" + std::to_string(e.stream.value) + "}";
}

// nsys packs process and thread ids in 24 bits each (NsysExport.h); larger ids are stored as others,
// counted down from the top of that range (a Kineto trace holds a handful of processes and threads).
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

CuptiStaging::CuptiStaging(const std::filesystem::path& database) {
    if (sqlite3_open_v2(database.c_str(), &db_,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK)
        throw Error(database.string() +
                    ": cannot create the staging database: " + (db_ ? sqlite3_errmsg(db_) : "out of memory"));
    // A scratch file read once by this process: no journal, no fsync.
    exec("PRAGMA page_size = 65536; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode "
         "= EXCLUSIVE; PRAGMA cache_size = -16384;");
    exec(cuptiTablesSql());
    exec("BEGIN");
    strings_ = std::make_unique<Insert>(db_, "INSERT INTO StringIds VALUES (?, ?)");
    runtime_ =
        std::make_unique<Insert>(db_, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, "
                                      "globalTid, correlationId, nameId, returnValue) VALUES "
                                      "(?, ?, ?, ?, ?, ?, 0)");
    kernel_ = std::make_unique<Insert>(
        db_,
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, "
        "demangledName, shortName, launchType, registersPerThread, gridX, gridY, gridZ, blockX, blockY, "
        "blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId) "
        "VALUES (?, ?, ?, 0, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, 0)");
    memcpy_ = std::make_unique<Insert>(db_, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, "
                                            "contextId, streamId, correlationId, bytes, copyKind, srcKind, "
                                            "dstKind) VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?)");
    memset_ =
        std::make_unique<Insert>(db_, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, "
                                      "contextId, streamId, correlationId, value, bytes, memKind) VALUES "
                                      "(?, ?, ?, 0, ?, ?, 0, ?, ?)");
    sync_ = std::make_unique<Insert>(db_, "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start, end, "
                                          "deviceId, contextId, streamId, correlationId, syncType, eventId) "
                                          "VALUES (?, ?, ?, 0, ?, ?, ?, 0)");
    nvtx_ = std::make_unique<Insert>(db_, "INSERT INTO NVTX_EVENTS (start, end, eventType, textId, "
                                          "globalTid, domainId, jsonText) VALUES (?, ?, 59, ?, ?, ?, ?)");
    nccl_ = std::make_unique<Insert>(db_, "INSERT INTO temp.nccl_launch VALUES (?, ?, ?)");
    streamSync_ = std::make_unique<Insert>(db_, "INSERT INTO temp.stream_sync VALUES (?, ?, ?, ?, ?)");
}

CuptiStaging::~CuptiStaging() {
    strings_.reset(), runtime_.reset(), kernel_.reset(), memcpy_.reset(), memset_.reset(), sync_.reset();
    nvtx_.reset(), nccl_.reset(), streamSync_.reset();
    sqlite3_close(db_);
}

void CuptiStaging::exec(const std::string& sql) {
    char* message = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
        std::string what = message ? message : "unknown error";
        sqlite3_free(message);
        throw Error("staging a Kineto trace: " + what);
    }
}

std::int64_t CuptiStaging::stringId(const std::string& text) {
    auto [it, added] = stringIds_.try_emplace(text, static_cast<std::int64_t>(stringIds_.size()) + 1);
    if (added) (*strings_)(it->second)(text).row();
    return it->second;
}

std::int64_t CuptiStaging::packedId(std::int64_t id, std::map<std::int64_t, std::int64_t>& remapped) {
    if (id >= 0 && id < kIdLimit) return id;
    auto [it, added] = remapped.try_emplace(id, kIdLimit - 1 - static_cast<std::int64_t>(remapped.size()));
    return it->second;
}

std::int64_t CuptiStaging::globalTid(std::int64_t pid, std::int64_t tid) {
    return (packedId(pid, pids_) << 24) | packedId(tid, tids_);
}

void CuptiStaging::add(const ChromeEvent& e) {
    if (e.ph == 'M') return metadataEvent(e);
    // Flows (ac2g: the launch of a kernel, drawn from its correlation ids, which the records carry
    // themselves), instants and counters carry nothing the model needs.
    if (e.ph != 'X') return;
    if (!e.badNumber.empty()) return skip("complete event whose " + e.badNumber + " is not a number");
    if (!e.ts.present || !e.dur.present) return skip("complete event without ts or dur");
    const std::string& c = e.cat;
    if (c == "kernel" || c == "gpu_memcpy" || c == "gpu_memset") return gpuActivity(e);
    if (c == "cuda_runtime" || c == "cuda_driver") return runtimeCall(e);
    if (c == "cuda_sync") return synchronization(e);
    if (c == "cpu_op") return hostRange(e, kCpuOpDomain);
    if (c == "user_annotation") return hostRange(e, kUserAnnotationDomain);
    if (c == "python_function") return hostRange(e, kPythonDomain);
    // GPU-side copies of user annotations (the host range already has them) and the profiler's own span.
    if (c == "gpu_user_annotation" || c == "Trace") return;
    skip("category '" + c + "' is not translated");
}

void CuptiStaging::metadataEvent(const ChromeEvent& e) {
    if (!e.pid.present) return;
    if (e.name == "process_name")
        processNames_[e.pid.value] = e.metadataName;
    else if (e.name == "thread_name" && e.tid.present)
        threadNames_[{e.pid.value, e.tid.value}] = e.metadataName;
}

void CuptiStaging::hostRange(const ChromeEvent& e, std::int64_t domain) {
    if (!e.pid.present || !e.tid.present) return skip(e.cat + " event without a numeric pid and tid");
    if (cpuPid_ < 0) cpuPid_ = e.pid.value;
    domains_.try_emplace(domain, domainName(domain));
    std::int64_t text = stringId(e.name); // names repeat: one StringIds row each
    auto& row =
        (*nvtx_)(e.ts.value)(e.ts.value + e.dur.value)(text)(globalTid(e.pid.value, e.tid.value))(domain);
    std::string payload = streamPayload(e);
    (payload.empty() ? row.null() : row(payload)).row();
}

void CuptiStaging::runtimeCall(const ChromeEvent& e) {
    if (!e.pid.present || !e.tid.present) return skip(e.cat + " event without a numeric pid and tid");
    if (cpuPid_ < 0) cpuPid_ = e.pid.value;
    (*runtime_)(e.ts.value)(e.ts.value + e.dur.value)(e.cat == "cuda_driver" ? kDriverClass : kRuntimeClass)(
        globalTid(e.pid.value, e.tid.value))(e.correlation)(stringId(e.name))
        .row();
}

void CuptiStaging::gpuActivity(const ChromeEvent& e) {
    // Kineto draws a GPU as a process whose pid is the device and a stream as a thread whose tid is the
    // stream: the args say it again, and win where both exist.
    Field device = e.device.present ? e.device : e.pid;
    Field stream = e.stream.present ? e.stream : e.tid;
    if (!device.present || device.value < 0) return skip(e.cat + " event without a device");
    if (!stream.present) return skip(e.cat + " event without a stream");
    ++gpuEvents_;
    std::int64_t begin = e.ts.value, end = e.ts.value + e.dur.value;
    if (e.cat == "kernel") {
        std::int64_t name = stringId(e.name);
        (*kernel_)(begin)(end)(device.value)(stream.value)(e.correlation)(name)(name)(e.registers.value)(
            e.grid[0])(e.grid[1])(e.grid[2])(e.block[0])(e.block[1])(e.block[2])(e.sharedMemory.value)
            .row();
        if (isCollectiveKernel(e.name) && e.correlation.present) {
            // NCCL's own NVTX ranges carry this payload in an nsys export; Kineto puts it on the kernel.
            nlohmann::json payload = nlohmann::json::object();
            if (auto size = elementBytes(e.dtype); size > 0 && e.inElements.present)
                payload["Message size [bytes]"] = e.inElements.value * size;
            if (e.groupSize.present) payload["No. of ranks"] = e.groupSize.value;
            const std::string& range = e.collective.empty() ? e.name : e.collective;
            (*nccl_)(e.correlation.value)(range)(payload.dump()).row();
        }
    } else if (e.cat == "gpu_memcpy") {
        CopyKinds kinds = copyKinds(e.name);
        (*memcpy_)(begin)(end)(device.value)(stream.value)(e.correlation)(e.bytes.value)(kinds.copy)(
            kinds.source)(kinds.destination)
            .row();
    } else {
        (*memset_)(begin)(end)(device.value)(stream.value)(e.correlation)(e.bytes.value)(memsetKind(e.name))
            .row();
    }
}

void CuptiStaging::synchronization(const ChromeEvent& e) {
    Field device = e.device.present ? e.device : e.pid;
    if (!device.present) return skip("cuda_sync event without a device");
    (*sync_)(e.ts.value)(e.ts.value + e.dur.value)(device.value)(e.stream.present ? e.stream.value : -1)(
        e.correlation)(syncType(e.syncKind.empty() ? e.name : e.syncKind))
        .row();
    // One that names a stream is also an NVTX range of the domain cuda_sync, placed on its call's thread at
    // the end (finish).
    if (std::string payload = streamPayload(e); !payload.empty() && e.correlation.present)
        (*streamSync_)(e.ts.value)(e.ts.value + e.dur.value)(e.correlation)(e.name.empty() ? e.syncKind
                                                                                           : e.name)(payload)
            .row();
}

void CuptiStaging::finish(const TraceMetadata& metadata, const std::filesystem::path& input) {
    const std::int64_t pid = cpuPid_ < 0 ? 0 : cpuPid_;
    const std::int64_t globalPid = packedId(pid, pids_) << 24;
    Insert process(db_, "INSERT INTO PROCESSES VALUES (?, ?, ?)");
    auto name = processNames_.find(pid);
    process(globalPid)(pid)(name == processNames_.end() ? std::string("python") : name->second).row();
    for (const auto& [ids, thread] : threadNames_) {
        if (ids.first != pid) continue;
        std::int64_t nameId = stringId(thread);
        Insert(db_, "INSERT INTO ThreadNames VALUES (?, 0, ?)")(nameId)(globalTid(ids.first, ids.second))
            .row();
    }
    std::string gp = std::to_string(globalPid);
    for (const char* table : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                              "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"})
        exec(std::string("UPDATE ") + table + " SET globalPid = " + gp);
    // This rank in every collective (distributedInfo may follow the events in the file).
    if (metadata.rank)
        Insert(db_, "UPDATE temp.nccl_launch SET payload = json_set(payload, '$.Rank', ?)")(*metadata.rank)
            .row();
    // The translator joins GPU work to calls by correlation id, and so do the joins below.
    exec("CREATE INDEX runtime_correlation ON CUPTI_ACTIVITY_KIND_RUNTIME (correlationId)");
    // The NCCL payloads as NCCL's NVTX ranges would hold them: around the call that launched the kernel.
    exec("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId, jsonText) "
         "SELECT r.start, r.end, 59, n.name, r.globalTid, " +
         std::to_string(kNcclDomain) +
         ", n.payload FROM temp.nccl_launch n JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = "
         "n.correlationId");
    if (sqlite3_changes(db_) > 0) domains_.try_emplace(kNcclDomain, domainName(kNcclDomain));
    // The synchronizations that name a stream, on the thread of their call (the earliest one of that id).
    exec("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId, jsonText) "
         "SELECT start, end, 59, name, tid, " +
         std::to_string(kCudaSyncDomain) +
         ", payload FROM (SELECT s.start, s.end, s.name, s.payload, (SELECT r.globalTid FROM "
         "CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = s.correlationId ORDER BY r.start LIMIT 1) "
         "AS tid FROM temp.stream_sync s) WHERE tid IS NOT NULL");
    if (sqlite3_changes(db_) > 0) domains_.try_emplace(kCudaSyncDomain, domainName(kCudaSyncDomain));
    for (const auto& [id, domain] : domains_)
        Insert(db_,
               "INSERT INTO NVTX_EVENTS (start, eventType, text, domainId) VALUES (0, 75, ?, ?)")(domain)(id)
            .row();
    // Kineto's clock: epoch microseconds, or an offset from baseTimeNanoseconds when the trace has it.
    Insert session(db_, "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (?, NULL, NULL)");
    session(metadata.baseTimeNs.value_or(0)).row();
    Insert(db_, "INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (0, 'Local', 'Hostname', 0, ?)")(
        metadata.hostName.empty() ? std::string("localhost") : metadata.hostName)
        .row();
    if (metadata.rank)
        Insert(db_, "INSERT INTO MPI_RANKS VALUES (?, ?)")(globalTid(pid, pid))(*metadata.rank).row();
    Insert meta(db_, "INSERT INTO META_DATA_EXPORT VALUES (?, ?)");
    meta(std::string("EXPORT_PRODUCT_NAME"))(std::string("PyTorch profiler (Kineto)")).row();
    meta(std::string("EXPORT_PRODUCT_VERSION"))("Kineto trace" + (metadata.schemaVersion.empty()
                                                                      ? std::string()
                                                                      : " schema " + metadata.schemaVersion))
        .row();
    meta(std::string("EXPORT_SCHEMA_VERSION"))(std::string(kStagedSchemaVersion)).row();
    meta(std::string("EXPORT_PARAM_INPUT_FILE"))(input.filename().string()).row();
    // The translator joins calls to NCCL ranges by thread and time: nsys' exports are not indexed for it, but
    // a staged trace is written once and read at once.
    exec("CREATE INDEX runtime_thread_start ON CUPTI_ACTIVITY_KIND_RUNTIME (globalTid, start)");
    exec("COMMIT");
}

} // namespace gpueff::kineto
