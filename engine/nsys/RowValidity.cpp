#include "engine/nsys/RowValidity.h"

#include "engine/common/Error.h"

#include <algorithm>
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

std::string badRowReason(const sqlite::Database& db, const std::string& table, const std::string& alias,
                         std::optional<std::int64_t> sessionEndNs) {
    const TableRule* rule = ruleFor(table);
    if (!rule || !db.hasColumn(table, rule->start)) return "";
    std::string start = quoted(alias, rule->start);
    EndColumn endRule = db.hasColumn(table, "end") ? rule->end : EndColumn::None;
    std::string end = quoted(alias, "end");
    const std::string max = std::to_string(kMaxTimeNs);
    std::string c = "CASE";
    auto when = [&c](const std::string& condition, std::string_view reason) {
        c += " WHEN " + condition + " THEN '" + std::string(reason) + "'";
    };
    when(start + " IS NULL", std::string(rule->start) + " is NULL");
    when("typeof(" + start + ") != 'integer'", std::string(rule->start) + " is not an integer");
    if (endRule == EndColumn::Required) when(end + " IS NULL", "end is NULL");
    if (endRule != EndColumn::None)
        when(end + " IS NOT NULL AND typeof(" + end + ") != 'integer'", "end is not an integer");
    for (auto key : rule->keys)
        if (db.hasColumn(table, key))
            when("typeof(" + quoted(alias, key) + ") != 'integer'",
                 std::string(key) + " is NULL or not an integer");
    // Device ids become Paraver row names and indexes (int): a CUDA device id is a small number.
    if (db.hasColumn(table, "deviceId") &&
        std::find(rule->keys.begin(), rule->keys.end(), "deviceId") != rule->keys.end())
        when(quoted(alias, "deviceId") + " NOT BETWEEN 0 AND 2147483647", "deviceId outside 0..2147483647");
    when(start + " < 0", std::string(rule->start) + " is negative (before the session start)");
    when(start + " > " + max, std::string(rule->start) + " beyond 2^61 ns");
    if (endRule != EndColumn::None) {
        when(end + " > " + max, "end beyond 2^61 ns");
        when(end + " < " + start, "end before start");
    }
    if (sessionEndNs) {
        when(start + " > " + std::to_string(*sessionEndNs),
             std::string(rule->start) + " after the session end (ANALYSIS_DETAILS.duration)");
        // A call still running when collection stopped keeps its real end; an end further away than the
        // session's own length is not a measurement.
        if (endRule != EndColumn::None)
            when(end + " > " + std::to_string(2 * *sessionEndNs), "end later than twice the session length");
    }
    return c + " END";
}

// Mirrors the SQL above, condition by condition and in the same order (times and keys held in memory are
// integers or absent, so the type conditions reduce to absence).
std::optional<std::string> badRowReason(const std::string& table, const RowInMemory& r) {
    const TableRule* rule = ruleFor(table);
    if (!rule) return std::nullopt;
    std::string start(rule->start);
    if (rule->end == EndColumn::Required && !r.end) return "end is NULL";
    for (auto key : rule->keys)
        if (!r.key(r.row, key)) return std::string(key) + " is NULL or not an integer";
    if (std::find(rule->keys.begin(), rule->keys.end(), "deviceId") != rule->keys.end()) {
        auto device = r.key(r.row, "deviceId");
        if (*device < 0 || *device > 2147483647) return "deviceId outside 0..2147483647";
    }
    if (r.start < 0) return start + " is negative (before the session start)";
    if (r.start > kMaxTimeNs) return start + " beyond 2^61 ns";
    if (rule->end != EndColumn::None && r.end) {
        if (*r.end > kMaxTimeNs) return "end beyond 2^61 ns";
        if (*r.end < r.start) return "end before start";
    }
    return std::nullopt;
}

} // namespace gpueff::nsys
