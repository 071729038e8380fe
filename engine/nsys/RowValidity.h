#pragma once
#include "engine/sqlite/Database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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

// The same rule on a row held in memory (engine/nsys/KinetoRows): why it cannot be translated, or nullopt.
// Its times are integers; `key` gives a key column's value (nullopt for NULL). No session end.
struct RowInMemory {
    std::int64_t start;
    std::optional<std::int64_t> end;
    std::optional<std::int64_t> (*key)(const void* row, std::string_view column);
    const void* row;
};
std::optional<std::string> badRowReason(const std::string& table, const RowInMemory& row);

// The rows of `table` the importer reads at all (others are neither translated nor reported): NVTX rows that
// time something. Empty for every row.
std::string rowsRead(const std::string& table, const std::string& alias);

} // namespace gpueff::nsys
