#pragma once
#include "engine/sqlite/Database.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpueff::nsys {

// Times the importer accepts, in ns of the export's own clock: 2^61 ns is 73 years, so a time plus a clock
// shift (itself bounded by kMaxUtcNs) can never overflow an int64.
constexpr std::int64_t kMaxTimeNs = std::int64_t{1} << 61;
// UTC session starts the importer accepts: 0 (1970) to 2^62 ns (about year 2116).
constexpr std::int64_t kMaxUtcNs = std::int64_t{1} << 62;

// Clock arithmetic on validated times and shifts (bounded above, so results fit); checked all the same, so
// a broken invariant is an error message, never signed overflow.
std::int64_t checkedAdd(std::int64_t a, std::int64_t b);
std::int64_t checkedSub(std::int64_t a, std::int64_t b);
inline std::int64_t shiftTime(std::int64_t t, std::int64_t shift) {
    return checkedAdd(t, shift);
}

// The SQL expression that names why a row of `table` cannot be translated, NULL for a row that can: a time
// that is NULL, not an integer, negative, beyond kMaxTimeNs or outside the session; an end before the
// start; a key column (thread, process, device, stream) that is NULL or not an integer. `alias` qualifies
// the columns ("r" for "r.start"). Empty when the importer has no rule for the table.
// `sessionEndNs`: the session's length (ANALYSIS_DETAILS.duration) when the export records it.
std::string badRowReason(const sqlite::Database& db, const std::string& table, const std::string& alias,
                         std::optional<std::int64_t> sessionEndNs);

// A row held in memory (engine/nsys/KinetoRows): `value` gives the integer in one of its columns, nullopt for
// NULL (its values are integers or absent).
struct RowInMemory {
    std::optional<std::int64_t> (*value)(const void* row, std::string_view column);
    const void* row;
};

// The same rule evaluated on a row as read (a scan that counts the rows it leaves out: TableScan.cpp), the
// row's own columns selected raw: cheaper than the SQL CASE, whose typeof() runs per row and column; or on a
// row held in memory. The SQL and both evaluations follow one list of checks, in one order, with one text
// per reason.
class RowCheck {
public:
    enum class Test { Null, NotInteger, PresentNotInteger, OutsideInt, Below, Above, BelowColumn };
    struct Check {
        Test test;
        std::string column, other; // other: BelowColumn's second column
        std::int64_t bound;
        std::string reason;
    };
    // The checks of `table`'s rule (none when the importer has none), for a table with the columns
    // `hasColumn` accepts.
    static std::vector<Check> checks(const std::function<bool(std::string_view column)>& hasColumn,
                                     const std::string& table, std::optional<std::int64_t> sessionEndNs);
    static std::vector<Check> checks(const sqlite::Database& db, const std::string& table,
                                     std::optional<std::int64_t> sessionEndNs);

    RowCheck(std::vector<Check> checks, const std::string& table);
    RowCheck(const sqlite::Database& db, const std::string& table, std::optional<std::int64_t> sessionEndNs)
        : RowCheck(checks(db, table, sessionEndNs), table) {}
    bool empty() const { return checks_.empty(); } // the table has no rule
    // The columns to select, comma-separated, in the order reason() reads them.
    const std::string& columns() const { return columns_; }
    // Why the row whose columns() start at column `first` of `st` cannot be translated; nullptr if it can.
    const std::string* reason(const sqlite::Statement& st, int first) const;
    // Why the row held in memory cannot be translated; nullptr if it can.
    const std::string* reason(const RowInMemory& row) const;

private:
    static constexpr std::size_t kMaxColumns = 8; // start, end and the keys
    using Storage = sqlite::Statement::Storage;
    const std::string* firstFailed(const std::array<Storage, kMaxColumns>& type,
                                   const std::array<std::int64_t, kMaxColumns>& value) const;
    std::vector<Check> checks_;
    std::vector<std::string> names_;
    std::string columns_;
    std::vector<int> columnOf_, otherOf_;
};

// The rows of `table` the importer reads at all (others are neither translated nor reported): NVTX rows that
// time something. Empty for every row.
std::string rowsRead(const std::string& table, const std::string& alias);

} // namespace gpueff::nsys
