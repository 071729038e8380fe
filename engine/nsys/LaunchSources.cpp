#include "engine/nsys/LaunchSources.h"

#include "engine/nsys/GpuActivitySources.h"
#include "engine/nsys/HostSources.h"
#include "engine/nsys/KinetoRows.h"
#include "engine/paraver/EventTypes.h"

#include <algorithm>
#include <unordered_map>

namespace gpueff::nsys {

namespace types = paraver::types;

namespace {

class LaunchSource : public RecordSource {
public:
    LaunchSource(ReportContext& ctx, std::unique_ptr<Rows> st) : ctx_(ctx), st_(std::move(st)) {}
    std::string name() const override { return "launches"; }

protected:
    // columns: api start, api end, api globalTid, gpu start, globalPid, deviceId, streamId, size, tag,
    // correlation id
    bool fill(TraceRecord& out) override {
        if (!st_->step()) return false;
        // Some exports record a launch twice under one correlation id (a driver-level row wrapping the
        // runtime row): the work was launched once, by the outer call, which comes first in start order.
        while (nestedRepeat()) {
            if (!st_->step()) return false;
        }
        std::int64_t apiStart = shiftTime(st_->int64(0), ctx_.shift),
                     apiEnd = shiftTime(st_->int64(1), ctx_.shift);
        std::int64_t gpuStart = shiftTime(st_->int64(3), ctx_.shift);
        out.isCommunication = true;
        out.pairCount = 0;
        out.order = RecordOrder::Communication;
        out.time = apiStart;
        auto& c = out.comm;
        c.sendRow = ctx_.threadRow(st_->int64(2));
        c.recvRow =
            ctx_.activityRow({st_->int64(4), st_->int64(5), st_->int64(6)}, st_->int64(9), st_->int64(3));
        out.row = c.sendRow;
        c.logicalSend = apiStart;
        // The work may start before the launch call returns; the physical send never follows the receive.
        c.physicalSend = std::min(apiEnd, gpuStart);
        c.logicalRecv = c.physicalRecv = gpuStart;
        c.size = st_->int64(7);
        c.tag = st_->int64(8);
        return true;
    }

private:
    // True when the current row's call lies inside an earlier call that launched the same work.
    bool nestedRepeat() {
        std::int64_t start = st_->int64(0), end = st_->int64(1);
        Key key{st_->int64(4), st_->int64(9), st_->int64(3)}; // process, correlation id, GPU start
        if (recent_.size() > recentLimit_) {
            // Calls ended before this one started cannot enclose a later row either.
            std::erase_if(recent_, [start](const auto& e) { return e.second < start; });
            recentLimit_ = std::max<std::size_t>(1024, 2 * recent_.size());
        }
        auto [it, fresh] = recent_.try_emplace(key, end);
        if (fresh) return false;
        if (it->second >= end) return true;
        it->second = end;
        return false;
    }
    struct Key {
        std::int64_t process, correlation, gpuStart;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const {
            return std::hash<std::int64_t>()(k.correlation * 1000003 ^ k.process ^ (k.gpuStart << 1));
        }
    };

    ReportContext& ctx_;
    std::unique_ptr<Rows> st_;
    std::unordered_map<Key, std::int64_t, KeyHash> recent_; // launched work -> end of its launching call
    std::size_t recentLimit_ = 1024;
};

} // namespace

void discoverLaunches(const NsysExport& ex, ReportObjects& o) {
    discoverApi(ex, o);
    discoverKernels(ex, o);
    discoverMemory(ex, o);
    discoverGraphs(ex, o);
}

// One query for all GPU tables, so SQLite indexes the runtime calls' correlation ids once; when the runtime
// table is stored by start it drives the loop and no sort is needed.
void openLaunches(ReportContext& ctx, std::vector<std::unique_ptr<RecordSource>>& out) {
    if (ctx.report.kineto()) {
        out.push_back(std::make_unique<LaunchSource>(ctx, kinetorows::launches(ctx.report)));
        out.back()->setReorderWindow(ctx.report.readWindow("CUPTI_ACTIVITY_KIND_RUNTIME"));
        return;
    }
    const auto& db = ctx.report.db();
    const std::string runtime = "CUPTI_ACTIVITY_KIND_RUNTIME";
    if (!db.hasTable(runtime)) return;
    struct Launched {
        const char* table;
        const char* size;
        std::int64_t tag;
    };
    std::string gpu;
    for (auto [table, size, tag] : {Launched{"CUPTI_ACTIVITY_KIND_KERNEL", "0", types::kTagKernelLaunch},
                                    Launched{"CUPTI_ACTIVITY_KIND_GRAPH_TRACE", "0", types::kTagKernelLaunch},
                                    Launched{"CUPTI_ACTIVITY_KIND_MEMCPY", "bytes", types::kTagMemoryLaunch},
                                    Launched{"CUPTI_ACTIVITY_KIND_MEMSET", "bytes", types::kTagMemoryLaunch}})
        if (db.hasTable(table))
            gpu += std::string(gpu.empty() ? "" : " UNION ALL ") +
                   "SELECT correlationId, globalPid, deviceId, streamId, start, " + size + " AS size, " +
                   std::to_string(tag) + " AS tag FROM " + table + " WHERE " + ctx.report.validRows(table);
    if (gpu.empty()) return;
    std::string order = ctx.report.startOrder(runtime, "r");
    std::string join = order == "r.rowid" ? " CROSS JOIN " : " JOIN ";
    out.push_back(std::make_unique<LaunchSource>(
        ctx, query(db, "SELECT r.start, r.end, r.globalTid, g.start, g.globalPid, g.deviceId, g.streamId, "
                       "g.size, g.tag, g.correlationId FROM " +
                           runtime + " r" + join + "(" + gpu +
                           ") g ON g.correlationId = r.correlationId AND r.globalTid >= g.globalPid AND "
                           "r.globalTid < g.globalPid + 16777216 WHERE " +
                           ctx.report.validRows(runtime, "r") + " ORDER BY " + order)));
    out.back()->setReorderWindow(ctx.report.readWindow(runtime));
}

} // namespace gpueff::nsys
