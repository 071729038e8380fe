#include "engine/nsys/KinetoRows.h"

#include "engine/common/Error.h"
#include "engine/kineto/KinetoTables.h"
#include "engine/nsys/RowValidity.h"
#include "engine/paraver/EventTypes.h"

#include <algorithm>
#include <unordered_map>

namespace gpueff::nsys::kinetorows {

namespace {

using kineto::KinetoTables;
namespace types = paraver::types;

constexpr const char* kRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME";
constexpr const char* kKernel = "CUPTI_ACTIVITY_KIND_KERNEL";
constexpr const char* kMemcpy = "CUPTI_ACTIVITY_KIND_MEMCPY";
constexpr const char* kMemset = "CUPTI_ACTIVITY_KIND_MEMSET";
constexpr const char* kSync = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
constexpr const char* kNvtx = "NVTX_EVENTS";
// Beyond this, a source reads its rows sorted by start rather than reordering them (NsysExport.cpp).
constexpr std::int64_t kMaxReorderWindowNs = 10'000'000;

enum class Table { Runtime, Kernel, Memcpy, Memset, Sync, Nvtx, None };

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

std::optional<std::int64_t> keyOf(const void* row, std::string_view column) {
    const auto& r = *static_cast<const RowRef*>(row);
    if (r.table == Table::Runtime) return r.t->runtime[r.i].globalTid;
    if (r.table == Table::Nvtx) return r.t->nvtx[r.i].globalTid; // ranges only: in scope
    if (column == "globalPid") return r.t->globalPid;
    const auto& g = gpuRow(*r.t, r.table, r.i);
    return column == "deviceId" ? g.device : g.stream;
}

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

// The rows of `name` that can be translated, in storage order; the others counted by reason, once.
const std::vector<std::uint32_t>& validRows(const NsysExport& ex, const std::string& name) {
    return ex.memo<std::vector<std::uint32_t>>("kineto valid " + name, [&] {
        const auto& t = tablesOf(ex);
        Table table = tableOf(name);
        std::vector<std::uint32_t> valid;
        std::map<std::string, std::uint64_t> bad;
        for (std::size_t i = 0; i < sizeOf(t, table); ++i) {
            if (!inScope(t, table, i)) continue;
            RowRef ref{&t, table, i};
            auto why = badRowReason(name, {startOf(t, table, i), endOf(t, table, i), keyOf, &ref});
            if (why)
                ++bad[*why];
            else
                valid.push_back(static_cast<std::uint32_t>(i));
        }
        for (const auto& [why, n] : bad) ex.noteSkipped(name, why, n);
        return valid;
    });
}

// The valid rows in the order the translation reads them: storage order when nearly sorted by start (the
// source reorders within its window), else sorted by start, ties in storage order (NsysExport::startOrder).
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

std::int64_t correlationOf(const kineto::Field& f) {
    return f.present ? f.value : 0; // SQLite reads NULL as 0
}

// Rows over a list of indices; `Cells` says what column `c` of row `i` holds.
template <typename Cells>
class IndexRows final : public Rows {
public:
    IndexRows(std::vector<std::uint32_t> rows, Cells cells)
        : rows_(std::move(rows)), cells_(std::move(cells)) {}
    bool step() override {
        if (next_ >= rows_.size()) return false;
        row_ = rows_[next_++];
        return true;
    }
    bool isNull(int col) const override { return cells_.isNull(row_, col); }
    std::int64_t int64(int col) const override { return cells_.int64(row_, col); }
    double real(int col) const override { return static_cast<double>(cells_.int64(row_, col)); }
    std::string_view text(int col) const override { return cells_.text(row_, col); }

private:
    std::vector<std::uint32_t> rows_;
    Cells cells_;
    std::size_t next_ = 0;
    std::uint32_t row_ = 0;
};

template <typename Cells>
std::unique_ptr<Rows> indexRows(std::vector<std::uint32_t> rows, Cells cells) {
    return std::make_unique<IndexRows<Cells>>(std::move(rows), std::move(cells));
}

// The leading columns of every GPU query: start, end, globalPid, deviceId, streamId, correlationId.
std::int64_t streamColumn(const KinetoTables& t, const kineto::GpuOperation& g, int col) {
    switch (col) {
    case 0:
        return g.start;
    case 1:
        return g.end;
    case 2:
        return t.globalPid;
    case 3:
        return g.device;
    case 4:
        return g.stream;
    default:
        return correlationOf(g.correlation);
    }
}

} // namespace

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

// Columns: the stream columns, demangledName, grid x y z, block x y z, static and dynamic shared memory,
// local memory, registers per thread, graph node id and graph id (none in Kineto).
std::unique_ptr<Rows> kernels(const NsysExport& ex) {
    struct Cells {
        const KinetoTables* t;
        bool isNull(std::uint32_t i, int col) const {
            return col >= 17 || (col == 5 && !t->kernels[i].correlation.present);
        }
        std::int64_t int64(std::uint32_t i, int col) const {
            const auto& k = t->kernels[i];
            if (col < 6) return streamColumn(*t, k, col);
            if (col == 6) return k.nameId;
            if (col < 10) return k.grid[static_cast<std::size_t>(col - 7)];
            if (col < 13) return k.block[static_cast<std::size_t>(col - 10)];
            if (col == 13) return k.sharedMemory;
            if (col == 16) return k.registers;
            return 0;
        }
        std::string_view text(std::uint32_t, int) const { return {}; }
    };
    return indexRows(readOrder(ex, kKernel), Cells{&tablesOf(ex)});
}

// Columns: the stream columns, copyKind, bytes, srcKind, dstKind.
std::unique_ptr<Rows> memcpys(const NsysExport& ex) {
    struct Cells {
        const KinetoTables* t;
        bool isNull(std::uint32_t i, int col) const { return col == 5 && !t->memcpys[i].correlation.present; }
        std::int64_t int64(std::uint32_t i, int col) const {
            const auto& m = t->memcpys[i];
            switch (col) {
            case 6:
                return m.kinds.copy;
            case 7:
                return m.bytes;
            case 8:
                return m.kinds.source;
            case 9:
                return m.kinds.destination;
            default:
                return streamColumn(*t, m, col);
            }
        }
        std::string_view text(std::uint32_t, int) const { return {}; }
    };
    return indexRows(readOrder(ex, kMemcpy), Cells{&tablesOf(ex)});
}

// Columns: the stream columns, bytes.
std::unique_ptr<Rows> memsets(const NsysExport& ex) {
    struct Cells {
        const KinetoTables* t;
        bool isNull(std::uint32_t i, int col) const { return col == 5 && !t->memsets[i].correlation.present; }
        std::int64_t int64(std::uint32_t i, int col) const {
            const auto& m = t->memsets[i];
            return col == 6 ? m.bytes : streamColumn(*t, m, col);
        }
        std::string_view text(std::uint32_t, int) const { return {}; }
    };
    return indexRows(readOrder(ex, kMemset), Cells{&tablesOf(ex)});
}

// Columns: start, end, globalTid, nameId, correlationId.
std::unique_ptr<Rows> runtimeCalls(const NsysExport& ex) {
    struct Cells {
        const KinetoTables* t;
        bool isNull(std::uint32_t i, int col) const { return col == 4 && !t->runtime[i].correlation.present; }
        std::int64_t int64(std::uint32_t i, int col) const {
            const auto& r = t->runtime[i];
            switch (col) {
            case 0:
                return r.start;
            case 1:
                return r.end;
            case 2:
                return r.globalTid;
            case 3:
                return r.nameId;
            default:
                return correlationOf(r.correlation);
            }
        }
        std::string_view text(std::uint32_t, int) const { return {}; }
    };
    return indexRows(readOrder(ex, kRuntime), Cells{&tablesOf(ex)});
}

// The runtime calls joined to the GPU work they launched (same correlation id and process): api start, api
// end, api globalTid, gpu start, globalPid, deviceId, streamId, size, tag, correlation id, the call's row; by
// the calls' read order (the source orders each call's work itself).
std::unique_ptr<Rows> launches(const NsysExport& ex) {
    const auto& t = tablesOf(ex);
    struct Launched {
        Table table;
        std::uint32_t row;
    };
    std::unordered_map<std::int64_t, std::vector<Launched>> byCorrelation;
    for (Table table : {Table::Kernel, Table::Memcpy, Table::Memset}) {
        const char* name = table == Table::Kernel ? kKernel : table == Table::Memcpy ? kMemcpy : kMemset;
        for (auto i : validRows(ex, name)) {
            const auto& g = gpuRow(t, table, i);
            if (g.correlation.present) byCorrelation[g.correlation.value].push_back({table, i});
        }
    }
    struct Joined {
        std::uint32_t call;
        Launched work;
    };
    std::vector<Joined> joined;
    for (auto i : readOrder(ex, kRuntime)) {
        const auto& call = t.runtime[i];
        if (!call.correlation.present || globalPidOf(call.globalTid) != t.globalPid) continue;
        auto it = byCorrelation.find(call.correlation.value);
        if (it == byCorrelation.end()) continue;
        for (const auto& w : it->second) joined.push_back({i, w});
    }
    class JoinedRows final : public Rows {
    public:
        JoinedRows(const KinetoTables& t, std::vector<Joined> rows) : t_(t), rows_(std::move(rows)) {}
        bool step() override { return next_ < rows_.size() && (row_ = &rows_[next_++], true); }
        bool isNull(int) const override { return false; }
        std::int64_t int64(int col) const override {
            const auto& call = t_.runtime[row_->call];
            const auto& g = gpuRow(t_, row_->work.table, row_->work.row);
            switch (col) {
            case 0:
                return call.start;
            case 1:
                return call.end;
            case 2:
                return call.globalTid;
            case 3:
                return g.start;
            case 4:
                return t_.globalPid;
            case 5:
                return g.device;
            case 6:
                return g.stream;
            case 7:
                return row_->work.table == Table::Kernel   ? 0
                       : row_->work.table == Table::Memcpy ? t_.memcpys[row_->work.row].bytes
                                                           : t_.memsets[row_->work.row].bytes;
            case 8:
                return row_->work.table == Table::Kernel ? types::kTagKernelLaunch : types::kTagMemoryLaunch;
            case 9:
                return g.correlation.value;
            default:
                return row_->call;
            }
        }
        double real(int col) const override { return static_cast<double>(int64(col)); }
        std::string_view text(int) const override { return {}; }

    private:
        const KinetoTables& t_;
        std::vector<Joined> rows_;
        std::size_t next_ = 0;
        const Joined* row_ = nullptr;
    };
    return std::make_unique<JoinedRows>(t, std::move(joined));
}

// The synchronizations with the thread of the valid runtime call of the same correlation id and process
// (LEFT JOIN: none gives a NULL thread, several give a row each): start, end, globalTid, syncType,
// correlationId.
std::unique_ptr<Rows> synchronizations(const NsysExport& ex) {
    const auto& t = tablesOf(ex);
    std::unordered_map<std::int64_t, std::vector<std::uint32_t>> calls;
    for (auto i : validRows(ex, kRuntime))
        if (t.runtime[i].correlation.present && globalPidOf(t.runtime[i].globalTid) == t.globalPid)
            calls[t.runtime[i].correlation.value].push_back(i);
    std::vector<std::uint32_t> rows; // sync row << 32 would not fit: pairs kept side by side
    std::vector<std::optional<std::uint32_t>> threads;
    for (auto i : readOrder(ex, kSync)) {
        const auto& s = t.syncs[i];
        auto it = s.correlation.present ? calls.find(s.correlation.value) : calls.end();
        if (it == calls.end()) {
            rows.push_back(i), threads.push_back(std::nullopt);
            continue;
        }
        for (auto call : it->second) rows.push_back(i), threads.push_back(call);
    }
    class SyncRows final : public Rows {
    public:
        SyncRows(const KinetoTables& t, std::vector<std::uint32_t> rows,
                 std::vector<std::optional<std::uint32_t>> threads)
            : t_(t), rows_(std::move(rows)), threads_(std::move(threads)) {}
        bool step() override { return next_ < rows_.size() && (at_ = next_++, true); }
        bool isNull(int col) const override {
            return (col == 2 && !threads_[at_]) || (col == 4 && !sync().correlation.present);
        }
        std::int64_t int64(int col) const override {
            switch (col) {
            case 0:
                return sync().start;
            case 1:
                return sync().end;
            case 2:
                return threads_[at_] ? t_.runtime[*threads_[at_]].globalTid : 0;
            case 3:
                return sync().syncType;
            default:
                return correlationOf(sync().correlation);
            }
        }
        double real(int col) const override { return static_cast<double>(int64(col)); }
        std::string_view text(int) const override { return {}; }

    private:
        const kineto::SyncRecord& sync() const { return t_.syncs[rows_[at_]]; }
        const KinetoTables& t_;
        std::vector<std::uint32_t> rows_;
        std::vector<std::optional<std::uint32_t>> threads_;
        std::size_t next_ = 0, at_ = 0;
    };
    return std::make_unique<SyncRows>(t, std::move(rows), std::move(threads));
}

// Columns: start, end, eventType, text, domainId, category, globalTid, numeric payload, jsonText,
// jsonTextId, textId (names are string ids; no category, numeric payload or registered JSON in Kineto).
std::unique_ptr<Rows> nvtxRanges(const NsysExport& ex) {
    struct Cells {
        const KinetoTables* t;
        bool isNull(std::uint32_t i, int col) const {
            switch (col) {
            case 3:
            case 5:
            case 7:
            case 9:
                return true;
            case 8:
                return t->nvtx[i].jsonId == 0;
            default:
                return false;
            }
        }
        std::int64_t int64(std::uint32_t i, int col) const {
            const auto& n = t->nvtx[i];
            switch (col) {
            case 0:
                return n.start;
            case 1:
                return n.end;
            case 2:
                return n.eventType;
            case 4:
                return n.domain;
            case 6:
                return n.globalTid;
            case 10:
                return n.textId;
            default:
                return 0;
            }
        }
        std::string_view text(std::uint32_t i, int col) const {
            return col == 8 ? t->string(t->nvtx[i].jsonId) : std::string_view();
        }
    };
    return indexRows(readOrder(ex, kNvtx), Cells{&tablesOf(ex)});
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
