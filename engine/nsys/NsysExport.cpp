#include "engine/nsys/NsysExport.h"

#include "engine/common/Error.h"
#include "engine/nsys/KnownEnums.h"
#include "engine/nsys/TableScan.h"

#include <fstream>

namespace gpueff::nsys {

namespace {
// Schema majors we have read real exports of (2022.1 .. 2026.2); a newer major may move columns we rely on.
constexpr int kNewestSchemaMajor = 3;

} // namespace

NsysExport::NsysExport(const std::filesystem::path& path) : db_(path) {
    if (!db_.hasTable("StringIds"))
        db_.fail("not an Nsight Systems export: table StringIds is missing (export with `nsys export --type "
                 "sqlite`)");
    readVersion();
    readStrings();
    readNames();
}

void NsysExport::readVersion() {
    std::string table = db_.hasTable("META_DATA_EXPORT")   ? "META_DATA_EXPORT"
                        : db_.hasTable("EXPORT_META_DATA") ? "EXPORT_META_DATA"
                                                           : "";
    if (!table.empty()) {
        if (auto v = db_.scalarText("SELECT value FROM " + table + " WHERE name='EXPORT_PRODUCT_VERSION'"))
            productVersion_ = *v;
        if (auto v = db_.scalarText("SELECT value FROM " + table + " WHERE name='EXPORT_SCHEMA_VERSION'"))
            schemaVersion_ = *v;
        int major = std::atoi(schemaVersion_.c_str());
        if (schemaVersion_ != "unknown" && (major < 2 || major > kNewestSchemaMajor))
            db_.fail("unsupported export schema version " + schemaVersion_ + " (gpueff reads schema 2.x to " +
                     std::to_string(kNewestSchemaMajor) + ".x, i.e. nsys 2021-2026)");
    } else {
        schemaVersion_ = "pre-2022 (no export metadata)";
    }
    if (db_.hasTable("TARGET_INFO_SESSION_START_TIME")) {
        if (auto v = db_.scalarInt("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME")) {
            utcEpochNs_ = *v;
            hasUtcStart_ = true;
        }
    }
    if (db_.hasTable("TARGET_INFO_SYSTEM_ENV"))
        if (auto v = db_.scalarText("SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name='Hostname'"))
            host_ = *v;
}

void NsysExport::readStrings() {
    sqlite::Statement st(db_, "SELECT id, value FROM StringIds");
    while (st.step()) {
        strings_.emplace(st.int64(0), std::string(st.text(1)));
    }
}

void NsysExport::readNames() {
    if (db_.hasTable("PROCESSES") && db_.hasColumn("PROCESSES", "globalPid")) {
        sqlite::Statement st(db_, "SELECT globalPid, name FROM PROCESSES");
        while (st.step())
            if (!st.isNull(1)) processNames_[st.int64(0)] = st.text(1);
    }
    if (db_.hasTable("ThreadNames")) {
        sqlite::Statement st(db_, "SELECT globalTid, nameId FROM ThreadNames ORDER BY priority");
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
    return db_.hasTable(table) && db_.scalarInt("SELECT 1 FROM " + table + " LIMIT 1").has_value();
}

} // namespace gpueff::nsys

namespace gpueff::nsys {

std::unordered_map<std::int64_t, std::string> NsysExport::enumLabels(const std::string& table) const {
    std::unordered_map<std::int64_t, std::string> out;
    if (!db_.hasTable(table)) return knownEnum(table);
    std::string col = db_.hasColumn(table, "label") ? "label" : "name";
    sqlite::Statement st(db_, "SELECT id, " + col + " FROM " + table);
    while (st.step()) out.emplace(st.int64(0), std::string(st.text(1)));
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
    if (it == lateness_.end()) {
        Lateness lateness;
        sqlite::Statement st(db_, "SELECT start FROM " + table);
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
    return prefix + (rowOrder ? "rowid" : "start");
}

} // namespace gpueff::nsys
