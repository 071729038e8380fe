#include "engine/nsys/RowValidity.h"

#include "engine/common/Error.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

namespace gpueff::nsys {

namespace {

enum class EndColumn {
    None,     // a point in time (samples, memory events)
    Required, // an interval: a row without an end cannot be placed
    NullKept, // NULL end is meaningful: an MPI call or an NVTX range the run ended in
};

struct TableRule {
    std::string_view table;
    std::string_view start;
    EndColumn end;
    std::vector<std::string_view> keys; // columns that place the row on a thread, stream or GPU
};

const std::vector<std::string_view> kStreamKeys{"globalPid", "deviceId", "streamId"};
const std::vector<std::string_view> kThreadKeys{"globalTid"};

const TableRule* ruleFor(std::string_view table) {
    static const std::vector<TableRule> rules = {
        {"CUPTI_ACTIVITY_KIND_KERNEL", "start", EndColumn::Required, kStreamKeys},
        {"CUPTI_ACTIVITY_KIND_MEMCPY", "start", EndColumn::Required, kStreamKeys},
        {"CUPTI_ACTIVITY_KIND_MEMSET", "start", EndColumn::Required, kStreamKeys},
        {"CUPTI_ACTIVITY_KIND_GRAPH_TRACE", "start", EndColumn::Required, kStreamKeys},
        {"CUPTI_ACTIVITY_KIND_RUNTIME", "start", EndColumn::Required, kThreadKeys},
        {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "start", EndColumn::Required, {"globalPid"}},
        {"OSRT_API", "start", EndColumn::Required, kThreadKeys},
        {"CUPTI_ACTIVITY_KIND_OPENACC_DATA", "start", EndColumn::Required, kThreadKeys},
        {"CUPTI_ACTIVITY_KIND_OPENACC_LAUNCH", "start", EndColumn::Required, kThreadKeys},
        {"CUPTI_ACTIVITY_KIND_OPENACC_OTHER", "start", EndColumn::Required, kThreadKeys},
        {"MPI_P2P_EVENTS", "start", EndColumn::NullKept, kThreadKeys},
        {"MPI_COLLECTIVES_EVENTS", "start", EndColumn::NullKept, kThreadKeys},
        {"MPI_START_WAIT_EVENTS", "start", EndColumn::NullKept, kThreadKeys},
        {"MPI_OTHER_EVENTS", "start", EndColumn::NullKept, kThreadKeys},
        {"NVTX_EVENTS", "start", EndColumn::NullKept, kThreadKeys},
        {"CUDA_GPU_MEMORY_USAGE_EVENTS", "start", EndColumn::None, {"globalPid", "deviceId"}},
        {"GPU_METRICS", "timestamp", EndColumn::None, {"typeId"}},
    };
    for (const auto& r : rules)
        if (r.table == table) return &r;
    return nullptr;
}

std::string quoted(const std::string& alias, std::string_view column) {
    return (alias.empty() ? "" : alias + ".") + "\"" + std::string(column) + "\"";
}

} // namespace

std::int64_t checkedAdd(std::int64_t a, std::int64_t b) {
    std::int64_t out = 0;
    if (__builtin_add_overflow(a, b, &out))
        throw Error("time arithmetic out of range: " + std::to_string(a) + " + " + std::to_string(b) + " ns");
    return out;
}

std::int64_t checkedSub(std::int64_t a, std::int64_t b) {
    std::int64_t out = 0;
    if (__builtin_sub_overflow(a, b, &out))
        throw Error("time arithmetic out of range: " + std::to_string(a) + " - " + std::to_string(b) + " ns");
    return out;
}

std::string rowsRead(const std::string& table, const std::string& alias) {
    // Only marks, push/pop and start/end ranges time something; the other NVTX rows name domains,
    // categories and threads.
    if (table == "NVTX_EVENTS") return quoted(alias, "eventType") + " IN (34, 59, 60)";
    return "";
}

std::vector<RowCheck::Check> RowCheck::checks(const sqlite::Database& db, const std::string& table,
                                              std::optional<std::int64_t> sessionEndNs) {
    return checks([&](std::string_view column) { return db.hasColumn(table, column); }, table, sessionEndNs);
}

std::vector<RowCheck::Check> RowCheck::checks(const std::function<bool(std::string_view)>& hasColumn,
                                              const std::string& table,
                                              std::optional<std::int64_t> sessionEndNs) {
    std::vector<Check> out;
    const TableRule* rule = ruleFor(table);
    if (!rule || !hasColumn(rule->start)) return out;
    const std::string start(rule->start), end = "end";
    EndColumn endRule = hasColumn("end") ? rule->end : EndColumn::None;
    auto check = [&out](Test test, const std::string& column, std::string reason, std::int64_t bound = 0,
                        std::string other = {}) {
        out.push_back({test, column, std::move(other), bound, std::move(reason)});
    };
    check(Test::Null, start, start + " is NULL");
    check(Test::NotInteger, start, start + " is not an integer");
    if (endRule == EndColumn::Required) check(Test::Null, end, "end is NULL");
    if (endRule != EndColumn::None) check(Test::PresentNotInteger, end, "end is not an integer");
    for (auto key : rule->keys)
        if (hasColumn(key))
            check(Test::NotInteger, std::string(key), std::string(key) + " is NULL or not an integer");
    // Device ids become Paraver row names and indexes (int): a CUDA device id is a small number.
    if (hasColumn("deviceId") &&
        std::find(rule->keys.begin(), rule->keys.end(), "deviceId") != rule->keys.end())
        check(Test::OutsideInt, "deviceId", "deviceId outside 0..2147483647");
    check(Test::Below, start, start + " is negative (before the session start)", 0);
    check(Test::Above, start, start + " beyond 2^61 ns", kMaxTimeNs);
    if (endRule != EndColumn::None) {
        check(Test::Above, end, "end beyond 2^61 ns", kMaxTimeNs);
        check(Test::BelowColumn, end, "end before start", 0, start);
    }
    if (sessionEndNs) {
        check(Test::Above, start, start + " after the session end (ANALYSIS_DETAILS.duration)",
              *sessionEndNs);
        // A call still running when collection stopped keeps its real end; an end further away than the
        // session's own length is not a measurement.
        if (endRule != EndColumn::None)
            check(Test::Above, end, "end later than twice the session length", 2 * *sessionEndNs);
    }
    return out;
}

std::string badRowReason(const sqlite::Database& db, const std::string& table, const std::string& alias,
                         std::optional<std::int64_t> sessionEndNs) {
    auto checks = RowCheck::checks(db, table, sessionEndNs);
    if (checks.empty()) return "";
    std::string c = "CASE";
    for (const auto& k : checks) {
        std::string column = quoted(alias, k.column), condition;
        switch (k.test) {
        case RowCheck::Test::Null:
            condition = column + " IS NULL";
            break;
        case RowCheck::Test::NotInteger:
            condition = "typeof(" + column + ") != 'integer'";
            break;
        case RowCheck::Test::PresentNotInteger:
            condition = column + " IS NOT NULL AND typeof(" + column + ") != 'integer'";
            break;
        case RowCheck::Test::OutsideInt:
            condition = column + " NOT BETWEEN 0 AND 2147483647";
            break;
        case RowCheck::Test::Below:
            condition = column + " < " + std::to_string(k.bound);
            break;
        case RowCheck::Test::Above:
            condition = column + " > " + std::to_string(k.bound);
            break;
        case RowCheck::Test::BelowColumn:
            condition = column + " < " + quoted(alias, k.other);
        }
        c += " WHEN " + condition + " THEN '" + k.reason + "'";
    }
    return c + " END";
}

RowCheck::RowCheck(std::vector<Check> checks, const std::string& table) : checks_(std::move(checks)) {
    auto indexOf = [this](const std::string& column) {
        auto it = std::find(names_.begin(), names_.end(), column);
        if (it != names_.end()) return static_cast<int>(it - names_.begin());
        names_.push_back(column);
        columns_ += (columns_.empty() ? "\"" : ", \"") + column + "\"";
        return static_cast<int>(names_.size() - 1);
    };
    for (const auto& k : checks_) {
        columnOf_.push_back(indexOf(k.column));
        otherOf_.push_back(k.other.empty() ? -1 : indexOf(k.other));
    }
    if (names_.size() > kMaxColumns)
        throw Error("internal error: the rule of " + table + " reads too many columns");
}

const std::string* RowCheck::reason(const sqlite::Statement& st, int first) const {
    // Each column is read once (the SQLite calls are most of the cost: the pre-pass checks every row).
    std::array<Storage, kMaxColumns> type{};
    std::array<std::int64_t, kMaxColumns> value{};
    for (std::size_t c = 0; c < names_.size(); ++c) {
        type[c] = st.storage(first + static_cast<int>(c));
        if (type[c] == Storage::Integer) value[c] = st.int64(first + static_cast<int>(c));
    }
    return firstFailed(type, value);
}

const std::string* RowCheck::reason(const RowInMemory& row) const {
    std::array<Storage, kMaxColumns> type{};
    std::array<std::int64_t, kMaxColumns> value{};
    for (std::size_t c = 0; c < names_.size(); ++c) {
        auto v = row.value(row.row, names_[c]);
        type[c] = v ? Storage::Integer : Storage::Null;
        value[c] = v.value_or(0);
    }
    return firstFailed(type, value);
}

// Each test as the SQL of badRowReason evaluates it: a comparison with NULL is not true, and the tests
// before it have made every column it compares an integer.
const std::string* RowCheck::firstFailed(const std::array<Storage, kMaxColumns>& type,
                                         const std::array<std::int64_t, kMaxColumns>& value) const {
    for (std::size_t i = 0; i < checks_.size(); ++i) {
        const Check& k = checks_[i];
        auto c = static_cast<std::size_t>(columnOf_[i]);
        // Past the type tests a column compared is an integer or NULL (never compared: false).
        bool integer = type[c] == Storage::Integer, failed = false;
        switch (k.test) {
        case Test::Null:
            failed = type[c] == Storage::Null;
            break;
        case Test::NotInteger:
            failed = !integer;
            break;
        case Test::PresentNotInteger:
            failed = type[c] == Storage::Other;
            break;
        case Test::OutsideInt:
            failed = integer && (value[c] < 0 || value[c] > 2147483647);
            break;
        case Test::Below:
            failed = integer && value[c] < k.bound;
            break;
        case Test::Above:
            failed = integer && value[c] > k.bound;
            break;
        case Test::BelowColumn: {
            auto o = static_cast<std::size_t>(otherOf_[i]);
            failed = integer && type[o] == Storage::Integer && value[c] < value[o];
        }
        }
        if (failed) return &k.reason;
    }
    return nullptr;
}

} // namespace gpueff::nsys
