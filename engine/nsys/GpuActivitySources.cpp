// Records of work executed on the GPU: kernels, memory operations and CUDA graph launches, one row per
// stream.
#include "engine/nsys/GpuActivitySources.h"

#include "engine/common/Text.h"
#include "engine/nsys/KinetoRows.h"
#include "engine/nsys/NcclPayloads.h"
#include "engine/nsys/SqlColumns.h"
#include "engine/nsys/TableScan.h"
#include "engine/paraver/EventTypes.h"

#include <algorithm>
#include <cctype>

namespace gpueff::nsys {

namespace types = paraver::types;

namespace {

constexpr const char* kKernelTable = "CUPTI_ACTIVITY_KIND_KERNEL";
constexpr const char* kMemcpyTable = "CUPTI_ACTIVITY_KIND_MEMCPY";
constexpr const char* kMemsetTable = "CUPTI_ACTIVITY_KIND_MEMSET";
constexpr const char* kGraphTable = "CUPTI_ACTIVITY_KIND_GRAPH_TRACE";
constexpr std::int64_t kUnknownCopyKind = 99;
// ENUM_CUDA_MEM_KIND codes are small; value = code + 1 (0 ends the event), so a code must leave room for it.
constexpr std::int64_t kMaxEnumCode = 1 << 30;

bool isMemoryKind(const Rows& s, int col) {
    return !s.isNull(col) && s.int64(col) >= 0 && s.int64(col) < kMaxEnumCode;
}

class KernelSource : public IntervalSource {
public:
    KernelSource(ReportContext& ctx, std::unique_ptr<Rows> st, NcclPayloads payloads)
        : IntervalSource(std::move(st), ctx.shift), ctx_(ctx), payloads_(std::move(payloads)) {}
    std::string name() const override { return "kernels"; }

protected:
    bool decode(const Rows& s, TraceRecord& r, Interval& iv) override {
        iv.begin = shifted(s.int64(0));
        iv.end = shifted(s.int64(1));
        iv.row = ctx_.activityRow({s.int64(2), s.int64(3), s.int64(4)}, s.int64(5), s.int64(0));
        std::int64_t nameId = s.int64(6);
        auto [it, fresh] = isNccl_.try_emplace(nameId, false);
        if (fresh) it->second = isCollectiveKernel(ctx_.report.string(nameId));
        std::uint32_t type = it->second ? types::kNcclKernel : types::kKernel;
        r.add(type, ctx_.stringValue(type, nameId));
        static constexpr std::uint32_t attributes[] = {types::kGridX,
                                                       types::kGridY,
                                                       types::kGridZ,
                                                       types::kBlockX,
                                                       types::kBlockY,
                                                       types::kBlockZ,
                                                       types::kStaticSharedMemory,
                                                       types::kDynamicSharedMemory,
                                                       types::kLocalMemory,
                                                       types::kRegistersPerThread};
        for (int i = 0; i < 10; ++i) r.add(attributes[i], s.int64(7 + i));
        r.add(types::kCorrelationId, s.int64(5));
        if (!s.isNull(17)) r.add(types::kGraphNodeId, s.int64(17));
        if (!s.isNull(18)) r.add(types::kGraphId, s.int64(18));
        if (it->second && !payloads_.empty())
            if (const auto* p = payloads_.find(s.int64(2), s.int64(5)))
                for (const auto& f : p->fields) r.add(f.type, f.value);
        return true;
    }

private:
    ReportContext& ctx_;
    NcclPayloads payloads_;
    std::unordered_map<std::int64_t, bool> isNccl_;
};

class MemcpySource : public IntervalSource {
public:
    MemcpySource(ReportContext& ctx, std::unique_ptr<Rows> st)
        : IntervalSource(std::move(st), ctx.shift), ctx_(ctx) {}
    std::string name() const override { return "memcpy"; }

protected:
    bool decode(const Rows& s, TraceRecord& r, Interval& iv) override {
        iv.begin = shifted(s.int64(0));
        iv.end = shifted(s.int64(1));
        iv.row = ctx_.activityRow({s.int64(2), s.int64(3), s.int64(4)}, s.int64(5), s.int64(0));
        std::int64_t kind = s.int64(6);
        r.add(types::kMemoryOperation, kind == 0 ? kUnknownCopyKind : kind);
        r.add(types::kMemoryBytes, s.int64(7));
        if (isMemoryKind(s, 8)) r.add(types::kMemcpySrcKind, s.int64(8) + 1);
        if (isMemoryKind(s, 9)) r.add(types::kMemcpyDstKind, s.int64(9) + 1);
        r.add(types::kCorrelationId, s.int64(5));
        return true;
    }

private:
    ReportContext& ctx_;
};

class MemsetSource : public IntervalSource {
public:
    MemsetSource(ReportContext& ctx, std::unique_ptr<Rows> st)
        : IntervalSource(std::move(st), ctx.shift), ctx_(ctx) {}
    std::string name() const override { return "memset"; }

protected:
    bool decode(const Rows& s, TraceRecord& r, Interval& iv) override {
        iv.begin = shifted(s.int64(0));
        iv.end = shifted(s.int64(1));
        iv.row = ctx_.activityRow({s.int64(2), s.int64(3), s.int64(4)}, s.int64(5), s.int64(0));
        r.add(types::kMemoryOperation, kMemsetOperation);
        r.add(types::kMemoryBytes, s.int64(6));
        r.add(types::kCorrelationId, s.int64(5));
        return true;
    }

private:
    ReportContext& ctx_;
};

class GraphLaunchSource : public IntervalSource {
public:
    GraphLaunchSource(ReportContext& ctx, std::unique_ptr<Rows> st)
        : IntervalSource(std::move(st), ctx.shift), ctx_(ctx) {}
    std::string name() const override { return "graphs"; }

protected:
    bool decode(const Rows& s, TraceRecord& r, Interval& iv) override {
        iv.begin = shifted(s.int64(0));
        iv.end = shifted(s.int64(1));
        iv.row = ctx_.activityRow({s.int64(2), s.int64(3), s.int64(4)}, s.int64(5), s.int64(0));
        std::int64_t graphId = s.int64(6);
        r.add(types::kGraphLaunch,
              ctx_.textValue(types::kGraphLaunch, "CUDA graph " + std::to_string(graphId)));
        r.add(types::kGraphId, graphId);
        r.add(types::kGraphExecId, s.int64(7));
        r.add(types::kCorrelationId, s.int64(5));
        return true;
    }

private:
    ReportContext& ctx_;
};

// Greedy interval partitioning in start order: each activity takes the first lane free at its start, which
// uses as few lanes as the deepest overlap needs.
void assignLanes(const NsysExport& ex, const char* table, const StreamKey& key, ReportObjects& objects) {
    std::vector<std::array<std::int64_t, 3>> rows; // start, end, correlation id, by start then end
    if (ex.kineto()) {
        rows = kinetorows::streamRows(ex, table, key);
    } else {
        sqlite::Statement st(ex.db(), std::string("SELECT start, end, correlationId FROM ") + table +
                                          " WHERE globalPid = ? AND deviceId = ? AND streamId = ? AND " +
                                          ex.validRows(table) + " ORDER BY start, end");
        st.bind(1, key.globalPid);
        st.bind(2, key.device);
        st.bind(3, key.stream);
        while (st.step()) rows.push_back({st.int64(0), st.int64(1), st.int64(2)});
    }
    std::vector<std::int64_t> laneEnds;
    for (const auto& [start, end, correlation] : rows) {
        std::size_t lane = 0;
        while (lane < laneEnds.size() && laneEnds[lane] > start) ++lane;
        if (lane == laneEnds.size()) laneEnds.push_back(end);
        laneEnds[lane] = std::max(end, start);
        if (lane > 0) objects.laneOf[{key, correlation, start}] = static_cast<std::uint32_t>(lane);
    }
    auto& lanes = objects.process(key.globalPid).lanes[key];
    lanes = std::max(lanes, static_cast<std::uint32_t>(laneEnds.size()));
}

void discoverStreams(const NsysExport& ex, const char* table, ReportObjects& objects) {
    if (ex.kineto() ? !kinetorows::has(ex, table) : !ex.db().hasTable(table)) return;
    if (!objects.firstScan(table)) return;
    if (!ex.kineto()) requireColumns(ex.db(), table, {"start", "end", "globalPid", "deviceId", "streamId"});
    // Storage order is nearly start order: an activity starting before the latest end seen on its stream may
    // overlap it; only such streams are read again, sorted, to place their activities on lanes.
    std::map<StreamKey, std::int64_t> latestEnd;
    std::set<StreamKey> suspects;
    StreamKey current{};
    std::int64_t* end = nullptr;
    auto onKey = [&](const std::int64_t* k) {
        current = {k[0], k[1], k[2]};
        objects.process(k[0]).streams.insert(current);
        end = &latestEnd.try_emplace(current, INT64_MIN).first->second;
    };
    auto onRow = [&](std::int64_t rowStart, std::int64_t rowEnd) {
        if (rowStart < *end) suspects.insert(current);
        *end = std::max(*end, rowEnd);
    };
    auto span = ex.kineto() ? kinetorows::scan(ex, table, 3, onKey, onRow)
                            : scanTable(ex, table, "globalPid, deviceId, streamId", 3, onKey, onRow);
    for (const auto& key : suspects) assignLanes(ex, table, key, objects);
    objects.span(span.first, span.last);
}

const std::string kStreamColumns = "start, end, globalPid, deviceId, streamId, correlationId";

} // namespace

std::string kernelNameColumn(const sqlite::Database& db) {
    return db.hasColumn(kKernelTable, "demangledName") ? "demangledName" : "shortName";
}

void discoverKernels(const NsysExport& ex, ReportObjects& o) {
    discoverStreams(ex, kKernelTable, o);
}
void discoverMemory(const NsysExport& ex, ReportObjects& o) {
    discoverStreams(ex, kMemcpyTable, o);
    discoverStreams(ex, kMemsetTable, o);
}
void discoverGraphs(const NsysExport& ex, ReportObjects& o) {
    discoverStreams(ex, kGraphTable, o);
}

void openKernels(ReportContext& ctx, std::vector<std::unique_ptr<RecordSource>>& out) {
    if (ctx.report.kineto()) {
        std::uint64_t undecoded = 0;
        auto payloads = NcclPayloads::read(ctx, undecoded);
        out.push_back(
            std::make_unique<KernelSource>(ctx, kinetorows::kernels(ctx.report), std::move(payloads)));
        out.back()->setReorderWindow(ctx.report.readWindow(kKernelTable));
        return;
    }
    const auto& db = ctx.report.db();
    if (!db.hasTable(kKernelTable)) return;
    std::string t = kKernelTable;
    auto c = [&](const char* col) { return columnOr(db, t, col, "0"); };
    std::string sql = "SELECT " + kStreamColumns + ", " + kernelNameColumn(db) + ", " + c("gridX") + ", " +
                      c("gridY") + ", " + c("gridZ") + ", " + c("blockX") + ", " + c("blockY") + ", " +
                      c("blockZ") + ", " + c("staticSharedMemory") + ", " + c("dynamicSharedMemory") + ", " +
                      c("localMemoryTotal") + ", " + c("registersPerThread") + ", " +
                      columnOr(db, t, "graphNodeId") + ", " + columnOr(db, t, "graphId") + " FROM " + t +
                      " WHERE " + ctx.report.validRows(t) + " ORDER BY " + ctx.order(t);
    std::uint64_t undecoded = 0;
    auto payloads = NcclPayloads::read(ctx, undecoded);
    if (undecoded)
        ctx.skipped["NVTX_EVENTS"]["kept without the NCCL payload (binary, not decoded: export with "
                                   "--include-json to attach it)"] += undecoded;
    out.push_back(std::make_unique<KernelSource>(ctx, query(db, sql), std::move(payloads)));
    out.back()->setReorderWindow(ctx.report.readWindow(t));
}

void openMemory(ReportContext& ctx, std::vector<std::unique_ptr<RecordSource>>& out) {
    for (auto [code, label] : ctx.report.enumLabels("ENUM_CUDA_MEMCPY_OPER"))
        if (code != 0) ctx.catalog.labelValue(types::kMemoryOperation, code, label);
    ctx.catalog.labelValue(types::kMemoryOperation, kUnknownCopyKind, "Unknown copy kind");
    ctx.catalog.labelValue(types::kMemoryOperation, kMemsetOperation, "Memset");
    for (auto [code, label] : ctx.report.enumLabels("ENUM_CUDA_MEM_KIND")) {
        if (code < 0 || code >= kMaxEnumCode) continue;
        ctx.catalog.labelValue(types::kMemcpySrcKind, code + 1, label);
        ctx.catalog.labelValue(types::kMemcpyDstKind, code + 1, label);
    }
    if (ctx.report.kineto()) {
        out.push_back(std::make_unique<MemcpySource>(ctx, kinetorows::memcpys(ctx.report)));
        out.back()->setReorderWindow(ctx.report.readWindow(kMemcpyTable));
        out.push_back(std::make_unique<MemsetSource>(ctx, kinetorows::memsets(ctx.report)));
        out.back()->setReorderWindow(ctx.report.readWindow(kMemsetTable));
        return;
    }
    const auto& db = ctx.report.db();
    if (db.hasTable(kMemcpyTable)) {
        std::string t = kMemcpyTable;
        std::string sql = "SELECT " + kStreamColumns + ", copyKind, bytes, " + columnOr(db, t, "srcKind") +
                          ", " + columnOr(db, t, "dstKind") + " FROM " + t + " WHERE " +
                          ctx.report.validRows(t) + " ORDER BY " + ctx.order(t);
        out.push_back(std::make_unique<MemcpySource>(ctx, query(db, sql)));
        out.back()->setReorderWindow(ctx.report.readWindow(t));
    }
    if (db.hasTable(kMemsetTable)) {
        out.push_back(std::make_unique<MemsetSource>(
            ctx,
            query(db, "SELECT " + kStreamColumns + ", bytes FROM " + std::string(kMemsetTable) + " WHERE " +
                          ctx.report.validRows(kMemsetTable) + " ORDER BY " + ctx.order(kMemsetTable))));
        out.back()->setReorderWindow(ctx.report.readWindow(kMemsetTable));
    }
}

void openGraphs(ReportContext& ctx, std::vector<std::unique_ptr<RecordSource>>& out) {
    if (ctx.report.kineto()) return; // no CUDA graphs in a Kineto trace
    const auto& db = ctx.report.db();
    if (!db.hasTable(kGraphTable)) return;
    std::string t = kGraphTable;
    out.push_back(std::make_unique<GraphLaunchSource>(
        ctx, query(db, "SELECT " + kStreamColumns + ", " + columnOr(db, t, "graphId", "0") + ", " +
                           columnOr(db, t, "graphExecId", "0") + " FROM " + t + " WHERE " +
                           ctx.report.validRows(t) + " ORDER BY " + ctx.order(t))));
    out.back()->setReorderWindow(ctx.report.readWindow(t));
}

} // namespace gpueff::nsys
