#include "engine/nsys/NsysExport.h"

#include "engine/common/Error.h"
#include "engine/common/Utf8.h"
#include "engine/kineto/KinetoTables.h"
#include "engine/nsys/KinetoRows.h"
#include "engine/nsys/KnownEnums.h"
#include "engine/nsys/RowValidity.h"
#include "engine/nsys/TableScan.h"

#include <charconv>
#include <fstream>

namespace gpueff::nsys {

namespace {
// Schema majors we have read real exports of (2022.1 .. 2026.2); a newer major may move columns we rely on.
constexpr int kNewestSchemaMajor = 3;

} // namespace

NsysExport::NsysExport(const std::filesystem::path& path, int cacheKiB, std::int64_t mapBytes)
    : path_(path), db_(std::make_unique<sqlite::Database>(path, cacheKiB, mapBytes)) {
    readAll();
}

NsysExport::NsysExport(const std::filesystem::path& name, std::vector<unsigned char> image, int cacheKiB)
    : path_(name), db_(std::make_unique<sqlite::Database>(name, std::move(image), cacheKiB)) {
    readAll();
}

NsysExport::NsysExport(const std::filesystem::path& input, std::shared_ptr<const kineto::KinetoTables> tables)
    : path_(input), kineto_(std::move(tables)) {
    const auto& t = *kineto_;
    productVersion_ = utf8(t.productVersion, "META_DATA_EXPORT");
    schemaVersion_ = kineto::kExportSchemaVersion;
    host_ = utf8(t.host, "TARGET_INFO_SYSTEM_ENV");
    if (t.sessionUtcNs < 0 || t.sessionUtcNs > kMaxUtcNs)
        fail("baseTimeNanoseconds " + std::to_string(t.sessionUtcNs) +
             " is not a UTC time gpueff can use (an integer from 0 to 2^62 ns since 1970)");
    utcEpochNs_ = t.sessionUtcNs;
    hasUtcStart_ = true;
    for (std::size_t i = 0; i < t.strings.size(); ++i)
        strings_.emplace(static_cast<std::int64_t>(i + 1), utf8(t.strings[i], "StringIds"));
    processNames_[t.globalPid] = utf8(t.processName, "PROCESSES");
    for (const auto& [tid, name] : t.threadNames) threadNames_[tid] = std::string(string(name));
    for (const auto& [why, n] : t.skipped) noteSkipped("traceEvents", why, n);
}

NsysExport::~NsysExport() = default;

const sqlite::Database& NsysExport::db() const {
    if (!db_) throw Error("internal error: " + path_.string() + " is a Kineto trace, read without SQL");
    return *db_;
}

void NsysExport::fail(const std::string& what) const {
    if (db_) db_->fail(what);
    throw Error(path_.string() + ": " + what);
}

void NsysExport::readAll() {
    if (!db_->hasTable("StringIds"))
        db_->fail("not an Nsight Systems export: table StringIds is missing (export with `nsys export --type "
                  "sqlite`)");
    readVersion();
    readSession();
    readStrings();
    readNames();
}

std::string_view NsysExport::utf8(std::string_view raw, const char* table, std::string& buffer) const {
    if (isValidUtf8(raw)) return raw;
    ++repairedText_[table];
    buffer = repairUtf8(raw);
    return buffer;
}

std::string NsysExport::utf8(std::string_view raw, const char* table) const {
    std::string buffer;
    return std::string(utf8(raw, table, buffer));
}

std::string NsysExport::validRows(const std::string& table, const std::string& alias) const {
    std::string reason = badRowReason(*db_, table, alias, sessionEnd_);
    if (reason.empty()) return "1";
    if (counted_.insert(table).second) {
        std::string scope = rowsRead(table, "");
        sqlite::Statement st(*db_, "SELECT why, count(*) FROM (SELECT " +
                                       badRowReason(*db_, table, "", sessionEnd_) + " AS why FROM " + table +
                                       (scope.empty() ? "" : " WHERE " + scope) +
                                       ") WHERE why IS NOT NULL GROUP BY why");
        while (st.step())
            skippedRows_[table][std::string(st.text(0))] += static_cast<std::uint64_t>(st.int64(1));
    }
    // Real exports hardly ever hold a bad row: a table counted clean is read without the per-row rule, which
    // would otherwise be evaluated again by every query on it (806 M against 575 M instructions to translate
    // data/nsys/mfu_2gpu_h100_nccl.sqlite; 471 M before rows were checked at all).
    // Every query given this filter reads rows within rowsRead(table), the scope that was counted.
    if (skippedRows_.find(table) == skippedRows_.end()) return "1";
    return "(" + reason + ") IS NULL";
}

void NsysExport::countedRows(const std::string& table,
                             const std::map<std::string, std::uint64_t>& byReason) const {
    if (!counted_.insert(table).second) return;
    for (const auto& [why, rows] : byReason) skippedRows_[table][why] += rows;
}

// Times are relative to the session start; its UTC time places reports on one clock, so it must be a
// number the shift arithmetic can take (refused otherwise: every time of the report depends on it).
void NsysExport::readSession() {
    if (db_->hasTable("TARGET_INFO_SESSION_START_TIME") &&
        db_->hasColumn("TARGET_INFO_SESSION_START_TIME", "utcEpochNs")) {
        sqlite::Statement st(
            *db_, "SELECT utcEpochNs, typeof(utcEpochNs), rowid FROM TARGET_INFO_SESSION_START_TIME "
                  "LIMIT 1");
        if (st.step() && !st.isNull(0)) {
            if (st.text(1) != "integer" || st.int64(0) < 0 || st.int64(0) > kMaxUtcNs)
                db_->fail("TARGET_INFO_SESSION_START_TIME row 1 (rowid " + std::to_string(st.int64(2)) +
                          "): utcEpochNs '" + utf8(st.text(0), "TARGET_INFO_SESSION_START_TIME") +
                          "' is not a UTC time gpueff can use (an integer from 0 to 2^62 ns since 1970)");
            utcEpochNs_ = st.int64(0);
            hasUtcStart_ = true;
        }
    }
    // A duration that is no usable number gives no session bound: rows are then only checked for sign and
    // range (RowValidity.h).
    if (db_->hasTable("ANALYSIS_DETAILS") && db_->hasColumn("ANALYSIS_DETAILS", "duration"))
        sessionEnd_ =
            db_->scalarInt("SELECT max(duration) FROM ANALYSIS_DETAILS WHERE typeof(duration) = 'integer' "
                           "AND duration > 0 AND duration <= " +
                           std::to_string(kMaxTimeNs / 2));
}

void NsysExport::readVersion() {
    std::string table = db_->hasTable("META_DATA_EXPORT")   ? "META_DATA_EXPORT"
                        : db_->hasTable("EXPORT_META_DATA") ? "EXPORT_META_DATA"
                                                            : "";
    if (!table.empty()) {
        if (auto v = db_->scalarText("SELECT value FROM " + table + " WHERE name='EXPORT_PRODUCT_VERSION'"))
            productVersion_ = utf8(*v, table.c_str());
        if (auto v = db_->scalarText("SELECT value FROM " + table + " WHERE name='EXPORT_SCHEMA_VERSION'"))
            schemaVersion_ = utf8(*v, table.c_str());
        // The leading number of "3.16.1"; none (or one beyond int) reads as 0, an unsupported major.
        int major = 0;
        std::from_chars(schemaVersion_.data(), schemaVersion_.data() + schemaVersion_.size(), major);
        if (schemaVersion_ != "unknown" && (major < 2 || major > kNewestSchemaMajor))
            db_->fail("unsupported export schema version " + schemaVersion_ +
                      " (gpueff reads schema 2.x to " + std::to_string(kNewestSchemaMajor) +
                      ".x, i.e. nsys 2021-2026)");
    } else {
        schemaVersion_ = "pre-2022 (no export metadata)";
    }
    if (db_->hasTable("TARGET_INFO_SYSTEM_ENV"))
        if (auto v = db_->scalarText("SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name='Hostname'"))
            host_ = utf8(*v, "TARGET_INFO_SYSTEM_ENV");
}

void NsysExport::readStrings() {
    sqlite::Statement st(*db_, "SELECT id, value FROM StringIds");
    while (st.step()) {
        strings_.emplace(st.int64(0), utf8(st.text(1), "StringIds"));
    }
}

void NsysExport::readNames() {
    if (db_->hasTable("PROCESSES") && db_->hasColumn("PROCESSES", "globalPid")) {
        sqlite::Statement st(*db_, "SELECT globalPid, name FROM PROCESSES");
        while (st.step())
            if (!st.isNull(1)) processNames_[st.int64(0)] = utf8(st.text(1), "PROCESSES");
    }
    if (db_->hasTable("ThreadNames")) {
        sqlite::Statement st(*db_, "SELECT globalTid, nameId FROM ThreadNames ORDER BY priority");
        while (st.step()) threadNames_[st.int64(0)] = std::string(string(st.int64(1)));
    }
}

std::string_view NsysExport::string(std::int64_t id) const {
    auto it = strings_.find(id);
    return it != strings_.end() ? std::string_view(it->second) : std::string_view();
}

std::string NsysExport::processName(std::int64_t globalPid) const {
    auto it = processNames_.find(globalPidOf(globalPid));
    return it != processNames_.end() ? it->second : std::string();
}

std::string NsysExport::threadName(std::int64_t globalTid) const {
    auto it = threadNames_.find(globalTid);
    return it != threadNames_.end() ? it->second : std::string();
}

bool NsysExport::hasRows(const std::string& table) const {
    if (kineto_) return kinetorows::hasRows(*this, table);
    return db_->hasTable(table) && db_->scalarInt("SELECT 1 FROM " + table + " LIMIT 1").has_value();
}

} // namespace gpueff::nsys

namespace gpueff::nsys {

std::unordered_map<std::int64_t, std::string> NsysExport::enumLabels(const std::string& table) const {
    std::unordered_map<std::int64_t, std::string> out;
    if (kineto_) {
        auto labels = knownEnum(table);
        if (table == "ENUM_CUDA_MEMCPY_OPER")
            std::erase_if(labels, [](const auto& l) { return l.first > kineto::kLastCopyKind; });
        return labels;
    }
    if (!db_->hasTable(table)) return knownEnum(table);
    std::string col = db_->hasColumn(table, "label") ? "label" : "name";
    sqlite::Statement st(*db_, "SELECT id, " + col + " FROM " + table);
    while (st.step()) out.emplace(st.int64(0), utf8(st.text(1), table.c_str()));
    return out;
}

} // namespace gpueff::nsys

namespace gpueff::nsys {

namespace {
// Beyond this, holding back one window of records costs more than letting SQLite sort.
constexpr std::int64_t kMaxReorderWindowNs = 10'000'000;
} // namespace

std::int64_t NsysExport::readWindow(const std::string& table) const {
    auto it = lateness_.find(table);
    if (it == lateness_.end() && kineto_)
        it = lateness_.emplace(table, kinetorows::lateness(*this, table)).first;
    if (it == lateness_.end()) {
        Lateness lateness;
        std::string scope = rowsRead(table, "");
        sqlite::Statement st(*db_, "SELECT start FROM " + table + " WHERE " +
                                       (scope.empty() ? "" : scope + " AND ") + validRows(table));
        while (st.step()) lateness.see(st.int64(0));
        it = lateness_.emplace(table, lateness.worst).first;
    }
    if (it->second == 0) return -1;
    return it->second <= kMaxReorderWindowNs ? it->second : -1;
}

std::string NsysExport::startOrder(const std::string& table, const std::string& alias) const {
    readWindow(table);
    bool rowOrder = lateness_[table] <= kMaxReorderWindowNs;
    std::string prefix = alias.empty() ? "" : alias + ".";
    return rowOrder ? prefix + "rowid" : prefix + "start, " + prefix + "rowid";
}

} // namespace gpueff::nsys
