#include "engine/nsys/HostSources.h"

#include "engine/kineto/KinetoTables.h"
#include "engine/nsys/KinetoRows.h"
#include "engine/nsys/MpiNames.h"
#include "engine/nsys/SqlColumns.h"
#include "engine/nsys/TableScan.h"
#include "engine/paraver/EventTypes.h"

#include <algorithm>
#include <unordered_map>

namespace gpueff::nsys {

namespace types = paraver::types;

namespace {

// CUPTI enum codes are small; value = code + 1 (0 ends the event), so a code must leave room for it.
constexpr std::int64_t kMaxEnumCode = 1 << 30;
constexpr const char* kRuntimeTable = "CUPTI_ACTIVITY_KIND_RUNTIME";
constexpr const char* kSyncTable = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
constexpr const char* kOpenAccTables[] = {"CUPTI_ACTIVITY_KIND_OPENACC_DATA",
                                          "CUPTI_ACTIVITY_KIND_OPENACC_LAUNCH",
                                          "CUPTI_ACTIVITY_KIND_OPENACC_OTHER"};

// How a call name becomes an event: its type and the name shown in the .pcf.
struct CallNaming {
    std::uint32_t (*type)(std::string_view name);
    std::string_view (*label)(std::string_view name);
    bool mpi = false; // sizes as 50100001/2
    // Extrae's value of a name (MPI and pthread calls), 0 when it has none: such names are numbered densely
    // after the largest Extrae value (docs/events.md).
    std::int64_t (*extrae)(std::string_view name) = nullptr;
};

// Extrae's (and nsys2prv's) values of type 61000000: nsys2prv's cfgs select pthread_mutex_lock as 8.
constexpr std::pair<std::string_view, std::int64_t> kExtraePthreadValues[] = {
    {"pthread_exit", 1},          {"pthread_create", 2},          {"pthread_join", 3},
    {"pthread_detach", 4},        {"pthread_rwlock_wrlock", 5},   {"pthread_rwlock_rdlock", 6},
    {"pthread_rwlock_unlock", 7}, {"pthread_mutex_lock", 8},      {"pthread_mutex_unlock", 9},
    {"pthread_cond_signal", 10},  {"pthread_cond_broadcast", 11}, {"pthread_cond_wait", 12},
    {"pthread_barrier_wait", 13},
};

std::int64_t extraePthreadValue(std::string_view n) {
    for (const auto& [name, value] : kExtraePthreadValues)
        if (name == n) return value;
    return 0;
}

} // namespace

std::int64_t largestExtraePthreadValue() {
    std::int64_t m = 0;
    for (const auto& [name, value] : kExtraePthreadValues) m = std::max(m, value);
    return m;
}

namespace {

std::string_view asIs(std::string_view n) {
    return n;
}

// Calls on a CPU thread: query columns are start, end, globalTid, name string id, [size], [correlation id].
class CallSource : public IntervalSource {
public:
    CallSource(ReportContext& ctx, std::unique_ptr<Rows> st, std::string name, CallNaming naming,
               bool hasSize, bool hasCorrelation)
        : IntervalSource(std::move(st), ctx.shift), ctx_(ctx), name_(std::move(name)), naming_(naming),
          hasSize_(hasSize), hasCorrelation_(hasCorrelation) {}
    std::string name() const override { return name_; }

protected:
    bool decode(const Rows& s, TraceRecord& r, Interval& iv) override {
        iv.begin = shifted(s.int64(0));
        iv.end = shifted(s.int64(1));
        iv.row = ctx_.threadRow(s.int64(2));
        const Resolved& call = resolve(s.int64(3));
        r.add(call.type, call.value);
        if (hasSize_ && !s.isNull(4))
            r.add(call.receive ? types::kMpiRecvSize : types::kMpiSendSize, s.int64(4));
        if (hasCorrelation_) r.add(types::kCorrelationId, s.int64(4));
        return true;
    }

private:
    struct Resolved {
        std::uint32_t type;
        std::int64_t value;
        bool receive;
    };
    const Resolved& resolve(std::int64_t nameId) {
        auto it = cache_.find(nameId);
        if (it != cache_.end()) return it->second;
        std::string_view name = naming_.label(ctx_.report.string(nameId));
        if (name.empty()) name = "unnamed";
        Resolved res{naming_.type(name), 0, naming_.mpi && isMpiReceive(name)};
        std::int64_t extrae = naming_.extrae ? naming_.extrae(name) : 0;
        if (extrae != 0) {
            res.value = extrae;
            ctx_.catalog.labelValue(res.type, extrae, std::string(name));
        } else {
            res.value = ctx_.catalog.nameValue(res.type, name);
        }
        return cache_.emplace(nameId, res).first->second;
    }

    ReportContext& ctx_;
    std::string name_;
    CallNaming naming_;
    bool hasSize_, hasCorrelation_;
    std::unordered_map<std::int64_t, Resolved> cache_;
};

void discoverThreads(const NsysExport& ex, const std::string& table, ReportObjects& objects) {
    auto onThread = [&](const std::int64_t* k) { objects.process(k[0]).threads.insert(k[0]); };
    ScanSpan span;
    if (ex.kineto()) {
        if (!kinetorows::has(ex, table) || !objects.firstScan(table)) return;
        span = kinetorows::scan(ex, table, 1, onThread);
    } else {
        const auto& db = ex.db();
        if (!db.hasTable(table) || !objects.firstScan(table)) return;
        requireColumns(db, table, {"start", "end", "globalTid"});
        span = scanTable(ex, table, "globalTid", 1, onThread);
    }
    objects.span(span.first, span.last);
}

std::uint32_t apiType(std::string_view) {
    return types::kCudaApi;
}
std::uint32_t osrtType(std::string_view n) {
    return n.substr(0, 8) == "pthread_" ? types::kPthread : types::kOsRuntime;
}
std::string nameColumn(const sqlite::Database& db, const std::string& table) {
    if (db.hasColumn(table, "nameId")) return "nameId";
    if (db.hasColumn(table, "textId")) return "textId";
    db.fail("table " + table + " has neither nameId nor textId");
}

} // namespace

std::string_view stripVersionSuffix(std::string_view name) {
    // Only nsys' 4+ digit ABI suffix goes: "_v2" is part of real names (cudaStreamGetCaptureInfo_v2).
    auto pos = name.rfind("_v");
    if (pos == std::string_view::npos || pos + 6 > name.size()) return name;
    for (std::size_t i = pos + 2; i < name.size(); ++i)
        if (name[i] < '0' || name[i] > '9') return name;
    return name.substr(0, pos);
}

void discoverApi(const NsysExport& ex, ReportObjects& o) {
    discoverThreads(ex, kRuntimeTable, o);
}

void openApi(ReportContext& ctx, std::vector<std::unique_ptr<RecordSource>>& out) {
    if (ctx.report.kineto()) {
        out.push_back(std::make_unique<CallSource>(ctx, kinetorows::runtimeCalls(ctx.report), "api",
                                                   CallNaming{apiType, stripVersionSuffix}, false, true));
        out.back()->setReorderWindow(ctx.report.readWindow(kRuntimeTable));
        return;
    }
    const auto& db = ctx.report.db();
    if (!db.hasTable(kRuntimeTable)) return;
    requireColumns(db, kRuntimeTable, {"nameId", "correlationId"});
    out.push_back(std::make_unique<CallSource>(
        ctx,
        query(db, std::string("SELECT start, end, globalTid, nameId, correlationId FROM ") + kRuntimeTable +
                      " WHERE " + ctx.report.validRows(kRuntimeTable) + " ORDER BY " +
                      ctx.order(kRuntimeTable)),
        "api", CallNaming{apiType, stripVersionSuffix}, false, true));
    out.back()->setReorderWindow(ctx.report.readWindow(kRuntimeTable));
}

void discoverOsrt(const NsysExport& ex, ReportObjects& o) {
    discoverThreads(ex, "OSRT_API", o);
}

void openOsrt(ReportContext& ctx, std::vector<std::unique_ptr<RecordSource>>& out) {
    if (ctx.report.kineto()) return; // no OS runtime calls in a Kineto trace
    const auto& db = ctx.report.db();
    if (!db.hasTable("OSRT_API")) return;
    out.push_back(std::make_unique<CallSource>(
        ctx,
        query(db, "SELECT start, end, globalTid, nameId FROM OSRT_API WHERE " +
                      ctx.report.validRows("OSRT_API") + " ORDER BY " + ctx.order("OSRT_API")),
        "osrt", CallNaming{osrtType, asIs, false, extraePthreadValue}, false, false));
    out.back()->setReorderWindow(ctx.report.readWindow("OSRT_API"));
}

// Synchronization rows carry only the process; the thread is the one whose API call has the same
// correlation id.
static const std::string kSyncJoin = std::string(" FROM ") + kSyncTable + " s LEFT JOIN " + kRuntimeTable +
                                     " r ON r.correlationId = s.correlationId AND r.globalTid >= s.globalPid "
                                     "AND r.globalTid < s.globalPid + 16777216";

// A synchronization row lies within its API call, so the runtime table's threads and span cover it.
void discoverSync(const NsysExport& ex, ReportObjects& o) {
    if (ex.kineto() ? kinetorows::has(ex, kSyncTable) : ex.db().hasTable(kSyncTable))
        discoverThreads(ex, kRuntimeTable, o);
}

namespace {
class SyncSource : public IntervalSource {
public:
    SyncSource(ReportContext& ctx, std::unique_ptr<Rows> st)
        : IntervalSource(std::move(st), ctx.shift), ctx_(ctx) {}
    std::string name() const override { return "sync"; }

protected:
    // Rows without a matching API call have no thread to go on: skipped, and counted like every other.
    bool decode(const Rows& s, TraceRecord& r, Interval& iv) override {
        if (s.isNull(2)) {
            ++ctx_.skipped[kSyncTable]["no CUDA API call with its correlation id (no thread to put it on)"];
            return false;
        }
        iv.begin = shifted(s.int64(0));
        iv.end = shifted(s.int64(1));
        iv.row = ctx_.threadRow(s.int64(2));
        std::int64_t syncType = s.int64(3);
        if (syncType >= 0 && syncType < kMaxEnumCode) r.add(types::kSynchronization, syncType + 1);
        r.add(types::kCorrelationId, s.int64(4));
        return true;
    }

private:
    ReportContext& ctx_;
};
} // namespace

void openSync(ReportContext& ctx, std::vector<std::unique_ptr<RecordSource>>& out) {
    if (!ctx.report.kineto() &&
        (!ctx.report.db().hasTable(kSyncTable) || !ctx.report.db().hasTable(kRuntimeTable)))
        return;
    for (auto [code, label] : ctx.report.enumLabels("ENUM_CUPTI_SYNC_TYPE"))
        if (code >= 0 && code < kMaxEnumCode)
            ctx.catalog.labelValue(types::kSynchronization, code + 1, label);
    if (ctx.report.kineto()) {
        out.push_back(std::make_unique<SyncSource>(ctx, kinetorows::synchronizations(ctx.report)));
        out.back()->setReorderWindow(ctx.report.readWindow(kSyncTable));
        return;
    }
    const auto& db = ctx.report.db();
    std::string syncType = columnOr(db, kSyncTable, "syncType", "0");
    // Only valid API calls give a thread (the pre-pass found only theirs).
    out.push_back(std::make_unique<SyncSource>(
        ctx,
        query(db, "SELECT s.start, s.end, r.globalTid, s." + syncType + ", s.correlationId" + kSyncJoin +
                      " AND " + ctx.report.validRows(kRuntimeTable, "r") + " WHERE " +
                      ctx.report.validRows(kSyncTable, "s") + " ORDER BY " + ctx.order(kSyncTable, "s"))));
    out.back()->setReorderWindow(ctx.report.readWindow(kSyncTable));
}

void discoverMpi(const NsysExport& ex, ReportObjects& o) {
    for (const char* t : kMpiTables) discoverThreads(ex, t, o);
    if (const auto* k = ex.kineto()) {
        if (k->rank) o.process(k->rank->first).mpiRank = k->rank->second;
        return;
    }
    const auto& db = ex.db();
    if (db.hasTable("MPI_RANKS")) {
        sqlite::Statement st(db, "SELECT globalTid, rank FROM MPI_RANKS");
        while (st.step()) o.process(st.int64(0)).mpiRank = st.int64(1);
    }
}

void openMpi(ReportContext& ctx, std::vector<std::unique_ptr<RecordSource>>& out) {
    if (ctx.report.kineto()) return; // no MPI calls in a Kineto trace
    const auto& db = ctx.report.db();
    for (const char* t : kMpiTables) {
        if (!db.hasTable(t)) continue;
        std::string size = columnOr(db, t, "size");
        bool hasSize = size != "NULL";
        out.push_back(std::make_unique<CallSource>(
            ctx,
            // `end` is nullable in the MPI tables (a call the run ended in): such a call is zero-length.
            query(db, "SELECT start, coalesce(end, start), globalTid, " + nameColumn(db, t) +
                          (hasSize ? ", " + size : std::string()) + " FROM " + t + " WHERE " +
                          ctx.report.validRows(t) + " ORDER BY " + ctx.order(t)),
            std::string("mpi ") + t, CallNaming{mpiEventType, asIs, true, extraeMpiValue}, hasSize, false));
        out.back()->setReorderWindow(ctx.report.readWindow(t));
    }
}

void discoverOpenAcc(const NsysExport& ex, ReportObjects& o) {
    for (const char* t : kOpenAccTables) discoverThreads(ex, t, o);
}

namespace {
// One OpenACC table (docs/events.md): columns start, end, globalTid, eventKind, region name, function name,
// bytes (data table, else NULL).
class OpenAccSource : public IntervalSource {
public:
    struct Types {
        std::uint32_t kind, name, function;
    };
    OpenAccSource(ReportContext& ctx, std::unique_ptr<Rows> st, std::string table, Types types)
        : IntervalSource(std::move(st), ctx.shift), ctx_(ctx), table_(std::move(table)), types_(types),
          names_(ctx.catalog.names(types.name)), functions_(ctx.catalog.names(types.function)) {}
    std::string name() const override { return "openacc " + table_; }

protected:
    bool decode(const Rows& s, TraceRecord& r, Interval& iv) override {
        iv.begin = shifted(s.int64(0));
        iv.end = shifted(s.int64(1));
        iv.row = ctx_.threadRow(s.int64(2));
        if (!s.isNull(3) && s.int64(3) >= 0 && s.int64(3) < kMaxEnumCode) r.add(types_.kind, s.int64(3) + 1);
        std::string_view name = s.isNull(4) ? "unnamed" : ctx_.report.utf8(s.text(4), table_.c_str(), text_);
        r.add(types_.name, names_.valueOf(name.empty() ? "unnamed" : name));
        if (!s.isNull(5))
            r.add(types_.function, functions_.valueOf(ctx_.report.utf8(s.text(5), table_.c_str(), text_)));
        if (!s.isNull(6)) r.add(types::kOpenAccDataBytes, s.int64(6));
        return true;
    }

private:
    ReportContext& ctx_;
    std::string table_;
    Types types_;
    NameDictionary &names_, &functions_;
    std::string text_;
};
} // namespace

void openOpenAcc(ReportContext& ctx, std::vector<std::unique_ptr<RecordSource>>& out) {
    if (ctx.report.kineto()) return; // no OpenACC in a Kineto trace
    const auto& db = ctx.report.db();
    static constexpr OpenAccSource::Types kTypes[] = {
        {types::kOpenAccDataKind, types::kOpenAccDataName, types::kOpenAccDataFunction},
        {types::kOpenAccLaunchKind, types::kOpenAccLaunchName, types::kOpenAccLaunchFunction},
        {types::kOpenAccOtherKind, types::kOpenAccOtherName, types::kOpenAccOtherFunction}};
    auto kinds = ctx.report.enumLabels("ENUM_OPENACC_EVENT_KIND");
    for (std::size_t i = 0; i < std::size(kOpenAccTables); ++i) {
        const std::string t = kOpenAccTables[i];
        if (!db.hasTable(t)) continue;
        for (const auto& [code, label] : kinds)
            if (code >= 0 && code < kMaxEnumCode) ctx.catalog.labelValue(kTypes[i].kind, code + 1, label);
        // The region is named as nsys2prv names it: "name@file:line" when the source file is known.
        auto str = [&](const std::string& col) {
            return db.hasColumn(t, col) ? "(SELECT value FROM StringIds WHERE id = a." + col + ")"
                                        : std::string("NULL");
        };
        std::string name = str(nameColumn(db, t));
        if (db.hasColumn(t, "srcFile") && db.hasColumn(t, "lineNo"))
            name = "CASE WHEN a.srcFile IS NOT NULL THEN " + name + " || '@' || " + str("srcFile") +
                   " || ':' || a.lineNo ELSE " + name + " END";
        std::string bytes = i == 0 && db.hasColumn(t, "bytes") ? "a.bytes" : "NULL";
        out.push_back(std::make_unique<OpenAccSource>(
            ctx,
            query(db, "SELECT a.start, a.end, a.globalTid, " + columnOr(db, t, "eventKind") + ", " + name +
                          ", " + str("funcName") + ", " + bytes + " FROM " + t + " a WHERE " +
                          ctx.report.validRows(t, "a") + " ORDER BY " + ctx.order(t, "a")),
            t, kTypes[i]));
        out.back()->setReorderWindow(ctx.report.readWindow(t));
    }
}

} // namespace gpueff::nsys
