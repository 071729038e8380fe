#include "engine/nsys/KinetoRows.h"
#include "engine/nsys/KinetoTableAccess.h"
#include "engine/paraver/EventTypes.h"

#include <numeric>
#include <optional>
#include <unordered_map>

// The rows of the translation's queries, read from a Kineto trace's tables (KinetoRows.h).
namespace gpueff::nsys::kinetorows {

using namespace detail;

namespace {

namespace types = paraver::types;

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

// Cells of queries without a text column.
struct NumbersOnly {
    std::string_view text(std::uint32_t, int) const { return {}; }
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

// Columns: the stream columns, demangledName, grid x y z, block x y z, static and dynamic shared memory,
// local memory, registers per thread, graph node id and graph id (none in Kineto).
std::unique_ptr<Rows> kernels(const NsysExport& ex) {
    struct Cells : NumbersOnly {
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
    };
    return indexRows(readOrder(ex, kKernel), Cells{{}, &tablesOf(ex)});
}

// Columns: the stream columns, copyKind, bytes, srcKind, dstKind.
std::unique_ptr<Rows> memcpys(const NsysExport& ex) {
    struct Cells : NumbersOnly {
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
    };
    return indexRows(readOrder(ex, kMemcpy), Cells{{}, &tablesOf(ex)});
}

// Columns: the stream columns, bytes.
std::unique_ptr<Rows> memsets(const NsysExport& ex) {
    struct Cells : NumbersOnly {
        const KinetoTables* t;
        bool isNull(std::uint32_t i, int col) const { return col == 5 && !t->memsets[i].correlation.present; }
        std::int64_t int64(std::uint32_t i, int col) const {
            const auto& m = t->memsets[i];
            return col == 6 ? m.bytes : streamColumn(*t, m, col);
        }
    };
    return indexRows(readOrder(ex, kMemset), Cells{{}, &tablesOf(ex)});
}

// Columns: start, end, globalTid, nameId, correlationId.
std::unique_ptr<Rows> runtimeCalls(const NsysExport& ex) {
    struct Cells : NumbersOnly {
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
    };
    return indexRows(readOrder(ex, kRuntime), Cells{{}, &tablesOf(ex)});
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
    struct Cells : NumbersOnly {
        const KinetoTables* t;
        std::vector<Joined> joined;
        bool isNull(std::uint32_t, int) const { return false; }
        std::int64_t int64(std::uint32_t i, int col) const {
            const auto& [callRow, work] = joined[i];
            const auto& call = t->runtime[callRow];
            const auto& g = gpuRow(*t, work.table, work.row);
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
                return t->globalPid;
            case 5:
                return g.device;
            case 6:
                return g.stream;
            case 7:
                return work.table == Table::Kernel   ? 0
                       : work.table == Table::Memcpy ? t->memcpys[work.row].bytes
                                                     : t->memsets[work.row].bytes;
            case 8:
                return work.table == Table::Kernel ? types::kTagKernelLaunch : types::kTagMemoryLaunch;
            case 9:
                return g.correlation.value;
            default:
                return callRow;
            }
        }
    };
    std::vector<std::uint32_t> rows(joined.size());
    std::iota(rows.begin(), rows.end(), 0u);
    return indexRows(std::move(rows), Cells{{}, &t, std::move(joined)});
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
    struct Joined {
        std::uint32_t sync;
        std::optional<std::uint32_t> call; // none: no call of that correlation id
    };
    std::vector<Joined> joined;
    for (auto i : readOrder(ex, kSync)) {
        const auto& s = t.syncs[i];
        auto it = s.correlation.present ? calls.find(s.correlation.value) : calls.end();
        if (it == calls.end()) {
            joined.push_back({i, std::nullopt});
            continue;
        }
        for (auto call : it->second) joined.push_back({i, call});
    }
    struct Cells : NumbersOnly {
        const KinetoTables* t;
        std::vector<Joined> joined;
        bool isNull(std::uint32_t i, int col) const {
            return (col == 2 && !joined[i].call) ||
                   (col == 4 && !t->syncs[joined[i].sync].correlation.present);
        }
        std::int64_t int64(std::uint32_t i, int col) const {
            const auto& s = t->syncs[joined[i].sync];
            switch (col) {
            case 0:
                return s.start;
            case 1:
                return s.end;
            case 2:
                return joined[i].call ? t->runtime[*joined[i].call].globalTid : 0;
            case 3:
                return s.syncType;
            default:
                return correlationOf(s.correlation);
            }
        }
    };
    std::vector<std::uint32_t> rows(joined.size());
    std::iota(rows.begin(), rows.end(), 0u);
    return indexRows(std::move(rows), Cells{{}, &t, std::move(joined)});
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

} // namespace gpueff::nsys::kinetorows
