#include "engine/nsys/KinetoRows.h"

#include "engine/common/Error.h"
#include "engine/kineto/KinetoTables.h"
#include "engine/nsys/KinetoTableAccess.h"
#include "engine/nsys/RowValidity.h"

#include <algorithm>
#include <map>

namespace gpueff::nsys::kinetorows {

namespace detail {

// Beyond this, a source reads its rows sorted by start rather than reordering them (NsysExport.cpp).
constexpr std::int64_t kMaxReorderWindowNs = 10'000'000;

Table tableOf(const std::string& name) {
    if (name == kRuntime) return Table::Runtime;
    if (name == kKernel) return Table::Kernel;
    if (name == kMemcpy) return Table::Memcpy;
    if (name == kMemset) return Table::Memset;
    if (name == kSync) return Table::Sync;
    if (name == kNvtx) return Table::Nvtx;
    return Table::None;
}

const KinetoTables& tablesOf(const NsysExport& ex) {
    if (!ex.kineto()) throw Error("internal error: " + ex.path().string() + " is not a Kineto trace");
    return *ex.kineto();
}

std::size_t sizeOf(const KinetoTables& t, Table table) {
    switch (table) {
    case Table::Runtime:
        return t.runtime.size();
    case Table::Kernel:
        return t.kernels.size();
    case Table::Memcpy:
        return t.memcpys.size();
    case Table::Memset:
        return t.memsets.size();
    case Table::Sync:
        return t.syncs.size();
    case Table::Nvtx:
        return t.nvtx.size();
    default:
        return 0;
    }
}

const kineto::GpuOperation& gpuRow(const KinetoTables& t, Table table, std::size_t i) {
    switch (table) {
    case Table::Kernel:
        return t.kernels[i];
    case Table::Memcpy:
        return t.memcpys[i];
    case Table::Memset:
        return t.memsets[i];
    default:
        return t.syncs[i];
    }
}

// One row as RowValidity's rule sees it.
struct RowRef {
    const KinetoTables* t;
    Table table;
    std::size_t i;
};

std::int64_t startOf(const KinetoTables& t, Table table, std::size_t i) {
    if (table == Table::Runtime) return t.runtime[i].start;
    if (table == Table::Nvtx) return t.nvtx[i].start;
    return gpuRow(t, table, i).start;
}

std::optional<std::int64_t> endOf(const KinetoTables& t, Table table, std::size_t i) {
    if (table == Table::Runtime) return t.runtime[i].end;
    if (table == Table::Nvtx) return t.nvtx[i].isRange() ? std::optional(t.nvtx[i].end) : std::nullopt;
    return gpuRow(t, table, i).end;
}

// NVTX rows that time something (RowValidity.h rowsRead); every row of the other tables.
bool inScope(const KinetoTables& t, Table table, std::size_t i) {
    if (table != Table::Nvtx) return true;
    auto type = t.nvtx[i].eventType;
    return type == 34 || type == 59 || type == 60;
}

// A column of a row as the rule reads it: its start and end, or the key that places it.
std::optional<std::int64_t> columnOf(const void* row, std::string_view column) {
    const auto& r = *static_cast<const RowRef*>(row);
    if (column == "start") return startOf(*r.t, r.table, r.i);
    if (column == "end") return endOf(*r.t, r.table, r.i);
    if (r.table == Table::Runtime) return r.t->runtime[r.i].globalTid;
    if (r.table == Table::Nvtx) return r.t->nvtx[r.i].globalTid; // ranges only: in scope
    if (column == "globalPid") return r.t->globalPid;
    const auto& g = gpuRow(*r.t, r.table, r.i);
    return column == "deviceId" ? g.device : g.stream;
}

const std::vector<std::uint32_t>& validRows(const NsysExport& ex, const std::string& name) {
    return ex.memo<std::vector<std::uint32_t>>("kineto valid " + name, [&] {
        const auto& t = tablesOf(ex);
        Table table = tableOf(name);
        std::vector<std::uint32_t> valid;
        std::map<std::string, std::uint64_t> bad;
        // Every column of the rule is held (no session end: a Kineto trace records none).
        const RowCheck check(RowCheck::checks([](std::string_view) { return true; }, name, std::nullopt),
                             name);
        for (std::size_t i = 0; i < sizeOf(t, table); ++i) {
            if (!inScope(t, table, i)) continue;
            RowRef ref{&t, table, i};
            const std::string* why = check.reason(RowInMemory{columnOf, &ref});
            if (why)
                ++bad[*why];
            else
                valid.push_back(static_cast<std::uint32_t>(i));
        }
        for (const auto& [why, n] : bad) ex.noteSkipped(name, why, n);
        return valid;
    });
}

std::vector<std::uint32_t> readOrder(const NsysExport& ex, const std::string& name) {
    std::vector<std::uint32_t> rows = validRows(ex, name);
    if (lateness(ex, name) > kMaxReorderWindowNs) {
        const auto& t = tablesOf(ex);
        Table table = tableOf(name);
        std::stable_sort(rows.begin(), rows.end(), [&](std::uint32_t a, std::uint32_t b) {
            return startOf(t, table, a) < startOf(t, table, b);
        });
    }
    return rows;
}

} // namespace detail

using namespace detail;

bool has(const NsysExport& ex, const std::string& table) {
    return ex.kineto() && tableOf(table) != Table::None;
}

bool hasRows(const NsysExport& ex, const std::string& table) {
    return has(ex, table) && sizeOf(tablesOf(ex), tableOf(table)) > 0;
}

std::int64_t lateness(const NsysExport& ex, const std::string& name) {
    return ex.memo<std::int64_t>("kineto lateness " + name, [&] {
        const auto& t = tablesOf(ex);
        Lateness l;
        for (auto i : validRows(ex, name)) l.see(startOf(t, tableOf(name), i));
        return l.worst;
    });
}

ScanSpan scan(const NsysExport& ex, const std::string& name, int keyCount,
              const std::function<void(const std::int64_t* keys)>& onKey,
              const std::function<void(std::int64_t start, std::int64_t end)>& onRow) {
    const auto& t = tablesOf(ex);
    Table table = tableOf(name);
    ScanSpan span;
    std::array<std::int64_t, 3> keys{}, previous{};
    bool any = false;
    for (auto i : validRows(ex, name)) {
        std::int64_t start = startOf(t, table, i), end = endOf(t, table, i).value_or(start);
        span.first = std::min(span.first, start);
        span.last = std::max(span.last, end);
        if (table == Table::Runtime) {
            keys[0] = t.runtime[i].globalTid;
        } else if (table == Table::Nvtx) {
            keys[0] = t.nvtx[i].globalTid, keys[1] = t.nvtx[i].domain;
        } else {
            const auto& g = gpuRow(t, table, i);
            keys = {t.globalPid, g.device, g.stream};
        }
        if (!any || !std::equal(keys.begin(), keys.begin() + keyCount, previous.begin())) {
            onKey(keys.data());
            previous = keys;
            any = true;
        }
        if (onRow) onRow(start, end);
    }
    span.lateness = lateness(ex, name);
    ex.noteLateness(name, span.lateness);
    return span;
}

std::vector<std::array<std::int64_t, 3>> streamRows(const NsysExport& ex, const std::string& name,
                                                    const StreamKey& key) {
    const auto& t = tablesOf(ex);
    Table table = tableOf(name);
    std::vector<std::array<std::int64_t, 3>> rows;
    for (auto i : validRows(ex, name)) {
        const auto& g = gpuRow(t, table, i);
        if (t.globalPid == key.globalPid && g.device == key.device && g.stream == key.stream)
            rows.push_back({g.start, g.end, correlationOf(g.correlation)});
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& a, const auto& b) { return a[0] != b[0] ? a[0] < b[0] : a[1] < b[1]; });
    return rows;
}

// NcclPayloads.cpp's join: every NCCL range with a JSON payload (valid or not, in storage order) and the
// calls of its thread starting inside it (by start, then storage order).
std::vector<std::tuple<std::int64_t, std::int64_t, std::string>> ncclPayloadRows(const NsysExport& ex,
                                                                                 std::int64_t domain) {
    const auto& t = tablesOf(ex);
    std::vector<std::tuple<std::int64_t, std::int64_t, std::string>> out;
    std::map<std::int64_t, std::vector<std::uint32_t>> byThread; // globalTid -> calls by start
    bool sorted = false;
    for (const auto& n : t.nvtx) {
        if (n.domain != domain || n.eventType != 59 || n.jsonId == 0) continue;
        if (!sorted) {
            for (std::uint32_t i = 0; i < t.runtime.size(); ++i)
                byThread[t.runtime[i].globalTid].push_back(i);
            for (auto& [tid, calls] : byThread)
                std::stable_sort(calls.begin(), calls.end(), [&](std::uint32_t a, std::uint32_t b) {
                    return t.runtime[a].start < t.runtime[b].start;
                });
            sorted = true;
        }
        auto it = byThread.find(n.globalTid);
        if (it == byThread.end()) continue;
        const auto& calls = it->second;
        auto first =
            std::lower_bound(calls.begin(), calls.end(), n.start,
                             [&](std::uint32_t c, std::int64_t v) { return t.runtime[c].start < v; });
        for (auto c = first; c != calls.end() && t.runtime[*c].start <= n.end; ++c)
            out.emplace_back(t.runtime[*c].globalTid, correlationOf(t.runtime[*c].correlation),
                             t.string(n.jsonId));
    }
    return out;
}

std::map<std::int64_t, std::string> domainNames(const NsysExport& ex) {
    std::map<std::int64_t, std::string> names;
    const auto& t = tablesOf(ex);
    for (const auto& n : t.nvtx)
        if (n.eventType == 75) names[n.domain] = t.string(n.textId);
    return names;
}

std::optional<std::int64_t> mpiInitEnd(const NsysExport& ex) {
    const auto& t = tablesOf(ex);
    std::optional<std::int64_t> last;
    for (auto i : validRows(ex, kNvtx)) {
        const auto& n = t.nvtx[i];
        std::string_view text = t.string(n.textId);
        if (n.eventType == 59 && (text == "MPI_Init" || text == "MPI_Init_thread"))
            last = std::max(last.value_or(INT64_MIN), n.end);
    }
    return last;
}

} // namespace gpueff::nsys::kinetorows
