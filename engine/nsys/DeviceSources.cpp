#include "engine/nsys/DeviceSources.h"

#include "engine/nsys/SqlColumns.h"
#include "engine/paraver/EventTypes.h"
#include "engine/paraver/GpuMetricTypes.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace gpueff::nsys {

namespace types = paraver::types;

namespace {

constexpr std::uint32_t kUnknownMetricBase = 50;
constexpr std::uint32_t kMetricSlots = types::kGpuMetricByNameSlots;

constexpr const char* kSamples = "GPU_METRICS";
constexpr const char* kNames = "TARGET_INFO_GPU_METRICS";

bool hasMetrics(const sqlite::Database& db) {
    return db.hasTable(kSamples) && db.hasTable(kNames);
}

// Which process's task shows the metrics of GPU typeId: metrics are per GPU, not per process, so the row
// goes to the first process that ran work on the GPU of the same index.
std::int64_t ownerOf(const ReportObjects& o, std::size_t gpuIndex) {
    for (const auto& [pid, p] : o.processes)
        for (const auto& s : p.streams)
            if (s.device == static_cast<std::int64_t>(gpuIndex)) return pid;
    for (const auto& [pid, p] : o.processes)
        if (!p.streams.empty()) return pid;
    return -1;
}

class GpuMetricSource : public RecordSource {
public:
    GpuMetricSource(ReportContext& ctx, sqlite::Statement st) : ctx_(ctx), st_(std::move(st)) {
        pending_ = st_.step();
    }
    std::string name() const override { return "gpu metrics"; }

protected:
    // columns: timestamp, typeId, metricName, value, metricId; one record per (timestamp, GPU) with every
    // metric under both its types (more records at the same time when they do not fit in one)
    bool fill(TraceRecord& out) override {
        while (pending_) {
            std::int64_t ts = st_.int64(0), gpu = st_.int64(1);
            auto row = ctx_.metricRows.find(gpu);
            out.pairCount = 0;
            out.isCommunication = false;
            out.order = RecordOrder::Begin;
            out.time = shiftTime(ts, ctx_.shift);
            while (pending_ && st_.int64(0) == ts && st_.int64(1) == gpu &&
                   out.pairCount + 2 <= TraceRecord::kMaxPairs) {
                std::uint32_t type = typeOf(st_.text(2));
                // Paraver values are integers: a sample that is no finite number within int64 is left out.
                double value = st_.real(3);
                if (std::isfinite(value) && std::abs(value) < 9.2e18) {
                    auto v = static_cast<std::int64_t>(std::llround(value));
                    if (auto byId = idType(st_.int64(4), st_.text(2))) out.add(byId, v);
                    out.add(type, v);
                } else
                    ++ctx_.skipped[kSamples]["sample not finite or beyond int64"];
                pending_ = st_.step();
            }
            if (out.pairCount == 0) continue;
            if (row == ctx_.metricRows.end()) continue;
            out.row = row->second;
            return true;
        }
        return false;
    }

private:
    // nsys2prv's type, 9400 + metricId; ids beyond the range nsys uses would run into other types.
    std::uint32_t idType(std::int64_t metricId, std::string_view metricName) {
        if (metricId < 0 || metricId >= types::kGpuMetricIdLimit) {
            ++ctx_.skipped[kSamples]["kept without type 9400 + metricId (metricId outside 0.." +
                                     std::to_string(types::kGpuMetricIdLimit - 1) + ": written under " +
                                     std::to_string(types::kGpuMetricByNameBase) + "+ only)"];
            return 0;
        }
        auto t = types::kGpuMetricBase + static_cast<std::uint32_t>(metricId);
        if (declaredIds_.insert(t).second) ctx_.catalog.declare(t, ctx_.report.utf8(metricName, kNames));
        return t;
    }
    std::uint32_t typeOf(std::string_view metricName) {
        auto it = types_.find(std::string(metricName));
        if (it != types_.end()) return it->second;
        std::uint32_t t = types::gpuMetricType(metricName);
        if (t == 0)
            t = types::kGpuMetricByNameBase + kUnknownMetricBase +
                unknown_++ % (kMetricSlots - kUnknownMetricBase);
        ctx_.catalog.declare(t, "GPU metric: " + ctx_.report.utf8(metricName, kNames));
        types_.emplace(std::string(metricName), t);
        return t;
    }

    ReportContext& ctx_;
    sqlite::Statement st_;
    bool pending_ = false;
    std::map<std::string, std::uint32_t> types_;
    std::set<std::uint32_t> declaredIds_;
    std::uint32_t unknown_ = 0;
};

} // namespace

void discoverGpuMetrics(const NsysExport& ex, ReportObjects& o) {
    if (ex.kineto()) return; // none in a Kineto trace
    const auto& db = ex.db();
    if (!hasMetrics(db)) return;
    requireColumns(db, kSamples, {"timestamp", "typeId", "metricId", "value"});
    requireColumns(db, kNames, {"typeId", "metricId", "metricName"});
    sqlite::Statement st(db, std::string("SELECT typeId, min(timestamp), max(timestamp), count(*) FROM ") +
                                 kSamples + " WHERE " + ex.validRows(kSamples) + " GROUP BY 1 ORDER BY 1");
    std::size_t index = 0;
    while (st.step()) {
        std::int64_t owner = ownerOf(o, index++);
        if (owner < 0) {
            ex.noteSkipped(kSamples, "a GPU no traced process used (no row to put it on)",
                           static_cast<std::uint64_t>(st.int64(3)));
            continue;
        }
        o.processes[owner].metricGpus.insert(st.int64(0));
        o.span(st.int64(1), st.int64(2));
    }
}

void openGpuMetrics(ReportContext& ctx, std::vector<std::unique_ptr<RecordSource>>& out) {
    if (ctx.report.kineto()) return;
    const auto& db = ctx.report.db();
    if (!hasMetrics(db)) return;
    std::string sql = std::string("SELECT g.timestamp, g.typeId, t.metricName, g.value, g.metricId FROM ") +
                      kSamples + " g JOIN (SELECT DISTINCT typeId, metricId, metricName FROM " + kNames +
                      ") t ON t.typeId = g.typeId AND t.metricId = g.metricId"
                      " WHERE " +
                      ctx.report.validRows(kSamples, "g") + " ORDER BY g.timestamp, g.typeId";
    out.push_back(std::make_unique<GpuMetricSource>(ctx, sqlite::Statement(db, sql)));
}

namespace {
constexpr const char* kMemoryUsage = "CUDA_GPU_MEMORY_USAGE_EVENTS";

// Bytes in use per (process, device), a running sum of allocations minus frees, on the device's first stream.
class GpuMemorySource : public RecordSource {
public:
    GpuMemorySource(ReportContext& ctx, sqlite::Statement st) : ctx_(ctx), st_(std::move(st)) {}
    std::string name() const override { return "gpu memory"; }

protected:
    bool fill(TraceRecord& out) override {
        if (endPending_) {
            out = changeEnd_;
            endPending_ = false;
            return true;
        }
        while (st_.step()) {
            StreamKey device{st_.int64(1), st_.int64(2), 0};
            auto row = ctx_.streamRows.lower_bound({device.globalPid, device.device, INT64_MIN});
            if (row == ctx_.streamRows.end() || row->first.globalPid != device.globalPid ||
                row->first.device != device.device) {
                ++skipped_;
                continue;
            }
            std::int64_t& inUse = inUse_[{device.globalPid, device.device}];
            std::int64_t bytes = st_.int64(3);
            // A running sum of sizes: a size that is negative or would overflow it is not a measurement.
            if (bytes < 0 || __builtin_add_overflow(inUse, st_.int64(4) == 0 ? bytes : -bytes, &inUse)) {
                ++badSizes_;
                continue;
            }
            out.pairCount = 0;
            out.isCommunication = false;
            out.order = RecordOrder::Begin;
            out.time = shiftTime(st_.int64(0), ctx_.shift);
            out.row = row->second;
            out.add(types::kGpuMemoryUsage, std::max<std::int64_t>(inUse, 0));
            // nsys2prv's types: the size of this change, ended at once (its cfg accumulates them).
            if (bytes > 0) {
                changeType_ = st_.int64(4) == 0 ? types::kGpuMemoryAllocation : types::kGpuMemoryDeallocation;
                out.add(changeType_, bytes);
                changeEnd_ = out;
                changeEnd_.order = RecordOrder::ZeroLengthEnd;
                changeEnd_.pairCount = 0;
                changeEnd_.add(changeType_, 0);
                endPending_ = true;
            }
            return true;
        }
        if (skipped_) {
            ctx_.skipped[kMemoryUsage]["a process without work on that device (no row to put it on)"] +=
                skipped_;
            skipped_ = 0;
        }
        if (badSizes_) {
            ctx_.skipped[kMemoryUsage]["negative size, or one overflowing the running sum"] += badSizes_;
            badSizes_ = 0;
        }
        return false;
    }

private:
    ReportContext& ctx_;
    sqlite::Statement st_;
    std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> inUse_;
    std::uint64_t skipped_ = 0, badSizes_ = 0;
    TraceRecord changeEnd_;
    std::uint32_t changeType_ = 0;
    bool endPending_ = false;
};
} // namespace

void discoverGpuMemory(const NsysExport& ex, ReportObjects& o) {
    if (ex.kineto()) return; // none in a Kineto trace
    const auto& db = ex.db();
    if (!db.hasTable(kMemoryUsage)) return;
    requireColumns(db, kMemoryUsage, {"start", "globalPid", "deviceId", "bytes", "memoryOperationType"});
    std::string valid = " WHERE " + ex.validRows(kMemoryUsage);
    if (auto first = db.scalarInt(std::string("SELECT min(start) FROM ") + kMemoryUsage + valid))
        o.span(*first, *db.scalarInt(std::string("SELECT max(start) FROM ") + kMemoryUsage + valid));
}

void openGpuMemory(ReportContext& ctx, std::vector<std::unique_ptr<RecordSource>>& out) {
    if (ctx.report.kineto()) return;
    const auto& db = ctx.report.db();
    if (!db.hasTable(kMemoryUsage)) return;
    out.push_back(std::make_unique<GpuMemorySource>(
        ctx, sqlite::Statement(
                 db, std::string("SELECT start, globalPid, deviceId, bytes, memoryOperationType FROM ") +
                         kMemoryUsage + " WHERE " + ctx.report.validRows(kMemoryUsage) + " ORDER BY " +
                         ctx.order(kMemoryUsage))));
    // The end of a change may precede, in record order, a change at the same time: never read unordered.
    out.back()->setReorderWindow(std::max<std::int64_t>(0, ctx.report.readWindow(kMemoryUsage)));
}

} // namespace gpueff::nsys
