#pragma once
#include "engine/nsys/SkippedRows.h"
#include "engine/sqlite/Database.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gpueff::kineto {
struct KinetoTables;
}

namespace gpueff::nsys {

// Process id and thread id packed in nsys' globalTid/globalPid: <HW:8><VM:8><PID:24><TID:24>.
inline std::int64_t pidOf(std::int64_t globalId) {
    return (globalId >> 24) & 0xFFFFFF;
}
inline std::int64_t tidOf(std::int64_t globalId) {
    return globalId & 0xFFFFFF;
}
inline std::int64_t globalPidOf(std::int64_t globalTid) {
    return globalTid & ~std::int64_t{0xFFFFFF};
}

// One Nsight Systems SQLite export, opened and validated, with the facts every record source needs:
// versions, host, clock origin, the string table and the names of processes and threads.
class NsysExport {
public:
    // cacheKiB: SQLite's page cache for this export, mapBytes: how much of it is read through a memory map
    // (sqlite::Database).
    explicit NsysExport(const std::filesystem::path& path, int cacheKiB = sqlite::Database::kDefaultCacheKiB,
                        std::int64_t mapBytes = 0);
    // An export held in memory (a serialized SQLite image); `name` stands for the file in messages.
    NsysExport(const std::filesystem::path& name, std::vector<unsigned char> image,
               int cacheKiB = sqlite::Database::kDefaultCacheKiB);
    // A Kineto trace read into memory (engine/kineto/KinetoTables.h): the same facts, and its rows read
    // through engine/nsys/KinetoRows.h instead of SQL. `input` names it in messages.
    NsysExport(const std::filesystem::path& input, std::shared_ptr<const kineto::KinetoTables> tables);
    ~NsysExport();

    const std::filesystem::path& path() const { return path_; }
    // The export's database; a Kineto trace has none (an internal error: readers ask kineto() first).
    const sqlite::Database& db() const;
    const kineto::KinetoTables* kineto() const { return kineto_.get(); }
    // Fails naming the input, whatever it is.
    [[noreturn]] void fail(const std::string& what) const;
    const std::string& productVersion() const { return productVersion_; }
    const std::string& schemaVersion() const { return schemaVersion_; }
    const std::string& host() const { return host_; }
    std::int64_t utcEpochNs() const { return utcEpochNs_; }
    bool hasUtcStart() const { return hasUtcStart_; }
    // The session's length (ANALYSIS_DETAILS.duration): times of the export lie in [0, sessionEnd].
    std::optional<std::int64_t> sessionEnd() const { return sessionEnd_; }

    // SQL condition selecting the rows of `table` that can be translated (columns qualified by `alias`).
    // The other rows are skipped: the first call counts them by reason for skippedRows(). See RowValidity.h.
    std::string validRows(const std::string& table, const std::string& alias = "") const;
    // For a scan of every row of `table` in rowsRead(table) that counts the rows left out itself, in the
    // same reading (TableScan.h, RowCheck): whether they are still to count (else the scan filters with
    // validRows).
    bool countsLeftOut(const std::string& table) const { return !counted_.count(table); }
    // That scan's counts, by reason: the table is counted, as by validRows.
    void countedRows(const std::string& table, const std::map<std::string, std::uint64_t>& byReason) const;
    // Rows left out by something else than the SQL rule: lost before the input became this export (a Kineto
    // trace's events), or found by the pre-pass and the record sources (SkippedRows.h).
    void noteSkipped(const std::string& table, const std::string& why, std::uint64_t rows) const {
        skippedRows_[table][why] += rows;
    }
    void noteSkipped(const SkippedRows& rows) const { addSkipped(skippedRows_, rows); }
    // table -> reason -> rows skipped, for the tables read so far.
    const SkippedRows& skippedRows() const { return skippedRows_; }
    // Text from `table` as valid UTF-8: `raw` itself, or a repaired copy in `buffer` (counted per table).
    std::string_view utf8(std::string_view raw, const char* table, std::string& buffer) const;
    std::string utf8(std::string_view raw, const char* table) const;
    // table -> strings whose invalid UTF-8 bytes were replaced by U+FFFD.
    const std::map<std::string, std::uint64_t>& repairedText() const { return repairedText_; }
    // The translator reads the records twice (names first): the second reading counts repairs afresh.
    void restoreRepairedText(std::map<std::string, std::uint64_t> counts) const {
        repairedText_ = std::move(counts);
    }

    std::string_view string(std::int64_t id) const;
    std::string processName(std::int64_t globalPid) const;
    std::string threadName(std::int64_t globalTid) const;
    bool hasRows(const std::string& table) const;
    // SQL ordering for reading `table` by start time: its rowid order when the rows are stored by start or
    // nearly so (as nsys writes tables), so SQLite need not sort; "start, rowid" otherwise (rows starting
    // together keep their storage order: SQLite's sort alone leaves ties in no promised order, and the
    // records of one source at one time are written in the order read). The source must then reorder
    // within readWindow(table). Checked once per table.
    std::string startOrder(const std::string& table, const std::string& alias = "") const;
    // -1: read in order as is; >= 0: rows may be that many ns late (see RecordSource::setReorderWindow).
    std::int64_t readWindow(const std::string& table) const;
    void noteLateness(const std::string& table, std::int64_t ns) const { lateness_[table] = ns; }

    // A fact derived from the export by a full scan, computed once however many readers ask for it.
    template <typename T, typename Compute>
    const T& memo(const std::string& key, Compute compute) const {
        auto it = memos_.find(key);
        if (it == memos_.end()) it = memos_.emplace(key, std::make_shared<T>(compute())).first;
        return *static_cast<const T*>(it->second.get());
    }
    // id -> label of an ENUM_* table, if the export has it (names are resolved through them, not hard-coded)
    std::unordered_map<std::int64_t, std::string> enumLabels(const std::string& table) const;

private:
    void readAll();
    void readVersion();
    void readSession();
    void readStrings();
    void readNames();

    std::filesystem::path path_;
    std::unique_ptr<sqlite::Database> db_;
    std::shared_ptr<const kineto::KinetoTables> kineto_;
    std::string productVersion_ = "unknown", schemaVersion_ = "unknown", host_ = "localhost";
    std::int64_t utcEpochNs_ = 0;
    bool hasUtcStart_ = false;
    std::optional<std::int64_t> sessionEnd_;
    mutable SkippedRows skippedRows_;
    mutable std::set<std::string> counted_;
    mutable std::map<std::string, std::uint64_t> repairedText_;
    std::unordered_map<std::int64_t, std::string> strings_; // ids are sparse (up to millions)
    std::unordered_map<std::int64_t, std::string> processNames_, threadNames_;
    mutable std::unordered_map<std::string, std::int64_t> lateness_;
    mutable std::unordered_map<std::string, std::shared_ptr<void>> memos_;
};

} // namespace gpueff::nsys
