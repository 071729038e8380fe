// RowCheck, the rule of bad rows evaluated on a row as read (the pre-pass's scans count the rows they leave
// out with it), against the same rule as SQL (badRowReason), which every query of the translation filters
// with: on rows built to fail each check, with every storage type in every column, both name the same
// reason for every row, with and without a session end; and so does the rule evaluated on rows held in
// memory (Kineto's), on every row whose values are integers or NULL.
#include "engine/nsys/RowValidity.h"
#include "engine/sqlite/Database.h"
#include "tests/TestSupport.h"

#include <doctest/doctest.h>
#include <map>
#include <set>

using namespace testsupport;

namespace {

// Columns without affinity (no declared type), so each value keeps the storage type it is inserted with.
const char* const kSchema = R"(
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start, end, globalPid, deviceId, streamId);
CREATE TABLE NVTX_EVENTS (start, end, eventType, globalTid);
CREATE TABLE MPI_P2P_EVENTS (start, end, globalTid);
)";

// Values of every storage type and at every bound the rule names.
const std::vector<std::string> kValues = {"NULL",
                                          "0",
                                          "5",
                                          "-1",
                                          "'7'",
                                          "7.5",
                                          "x'00'",
                                          "2147483647",
                                          "2147483648",
                                          "2305843009213693952",
                                          "2305843009213693953",
                                          "100",
                                          "201",
                                          "9223372036854775807",
                                          "-9223372036854775808"};

std::filesystem::path makeRows() {
    auto path = tempDir("row-check") / "rows.sqlite";
    std::filesystem::remove(path);
    std::string sql = std::string(kSchema) + "BEGIN;";
    // Every start against every end, then each key column varied alone on an otherwise good row.
    for (const auto& s : kValues)
        for (const auto& e : kValues) {
            sql += "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (" + s + ", " + e + ", 1, 0, 7);";
            sql += "INSERT INTO NVTX_EVENTS VALUES (" + s + ", " + e + ", 59, 1);";
            sql += "INSERT INTO MPI_P2P_EVENTS VALUES (" + s + ", " + e + ", 1);";
        }
    for (const auto& k : kValues) {
        sql += "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (5, 100, " + k + ", 0, 7);";
        sql += "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (5, 100, 1, " + k + ", 7);";
        sql += "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (5, 100, 1, 0, " + k + ");";
        sql += "INSERT INTO NVTX_EVENTS VALUES (5, 100, 59, " + k + ");";
        sql += "INSERT INTO MPI_P2P_EVENTS VALUES (5, 100, " + k + ");";
    }
    sql += "COMMIT;";
    execute(path, sql);
    return path;
}

// RowCheck::columns() ("\"a\", \"b\"") as names.
std::vector<std::string> columnNames(const std::string& columns) {
    std::vector<std::string> out;
    for (std::size_t at = 0; (at = columns.find('"', at)) != std::string::npos;) {
        auto close = columns.find('"', at + 1);
        out.push_back(columns.substr(at + 1, close - at - 1));
        at = close + 1;
    }
    return out;
}

using MemoryRow = std::map<std::string, std::optional<std::int64_t>, std::less<>>;

std::optional<std::int64_t> valueIn(const void* row, std::string_view column) {
    const auto& r = *static_cast<const MemoryRow*>(row);
    auto it = r.find(column);
    REQUIRE(it != r.end());
    return it->second;
}

} // namespace

TEST_CASE("RowCheck names the reason the SQL rule names, row by row, whatever the values' types, on rows as "
          "read and held in memory") {
    auto path = makeRows();
    gpueff::sqlite::Database db(path);
    for (std::optional<std::int64_t> sessionEnd :
         {std::optional<std::int64_t>{}, std::optional<std::int64_t>{200}})
        for (const char* table : {"CUPTI_ACTIVITY_KIND_KERNEL", "NVTX_EVENTS", "MPI_P2P_EVENTS"}) {
            CAPTURE(table);
            CAPTURE(sessionEnd.value_or(-1));
            gpueff::nsys::RowCheck check(db, table, sessionEnd);
            REQUIRE_FALSE(check.empty());
            gpueff::sqlite::Statement st(
                db, "SELECT " + gpueff::nsys::badRowReason(db, table, "", sessionEnd) + ", rowid, " +
                        check.columns() + " FROM " + table + " ORDER BY rowid");
            // The same rule on rows held in memory (Kineto's), built from the same list of checks.
            const gpueff::nsys::RowCheck inMemory(
                gpueff::nsys::RowCheck::checks([&](std::string_view c) { return db.hasColumn(table, c); },
                                               table, sessionEnd),
                table);
            const auto names = columnNames(check.columns());
            std::map<std::string, int> reasons;
            int rows = 0, good = 0, held = 0;
            while (st.step()) {
                ++rows;
                const std::string* why = check.reason(st, 2);
                std::string expected = st.isNull(0) ? "" : std::string(st.text(0));
                CHECK_MESSAGE((why ? *why : "") == expected, "rowid " << st.int64(1));
                if (why) ++reasons[*why];
                good += why ? 0 : 1;
                // A row of integers and NULLs alone can be held in memory.
                MemoryRow row;
                for (std::size_t c = 0; c < names.size(); ++c) {
                    auto storage = st.storage(2 + static_cast<int>(c));
                    if (storage == gpueff::sqlite::Statement::Storage::Other) break;
                    row[names[c]] = storage == gpueff::sqlite::Statement::Storage::Null
                                        ? std::nullopt
                                        : std::optional(st.int64(2 + static_cast<int>(c)));
                }
                if (row.size() < names.size()) continue;
                ++held;
                const std::string* fromMemory = inMemory.reason({valueIn, &row});
                CHECK_MESSAGE((fromMemory ? *fromMemory : "") == expected, "rowid " << st.int64(1));
            }
            CHECK(held > 100);
            CHECK(rows > 200);
            CHECK(good > 0);
            // Every check of the rule is met by some row: the comparison covers each.
            std::set<std::string> expected = {"start is NULL",
                                              "start is not an integer",
                                              "start is negative (before the session start)",
                                              "start beyond 2^61 ns",
                                              "end is not an integer",
                                              "end beyond 2^61 ns",
                                              "end before start"};
            // NVTX ranges and MPI calls may lack an end (a range or call the run ended in).
            if (std::string(table) == "CUPTI_ACTIVITY_KIND_KERNEL") expected.insert("end is NULL");
            if (std::string(table) == "CUPTI_ACTIVITY_KIND_KERNEL") {
                for (const char* key : {"globalPid", "deviceId", "streamId"})
                    expected.insert(std::string(key) + " is NULL or not an integer");
                expected.insert("deviceId outside 0..2147483647");
            } else {
                expected.insert("globalTid is NULL or not an integer");
            }
            if (sessionEnd) {
                expected.insert("start after the session end (ANALYSIS_DETAILS.duration)");
                expected.insert("end later than twice the session length");
            }
            for (const auto& r : expected) CHECK_MESSAGE(reasons.count(r), r);
            CHECK(reasons.size() == expected.size());
        }
}
