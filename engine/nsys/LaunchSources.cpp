#include "engine/nsys/LaunchSources.h"

#include <algorithm>

#include "engine/paraver/EventTypes.h"

namespace gpueff::nsys {

namespace types = paraver::types;

namespace {

class LaunchSource : public RecordSource {
public:
    LaunchSource(ReportContext& ctx, sqlite::Statement st, std::int64_t tag)
        : ctx_(ctx), st_(std::move(st)), tag_(tag) {}
    std::string name() const override { return "launches"; }

protected:
    // columns: api start, api end, api globalTid, gpu start, globalPid, deviceId, streamId, size
    bool fill(TraceRecord& out) override {
        if (!st_.step()) return false;
        std::int64_t apiStart = st_.int64(0) + ctx_.shift, apiEnd = st_.int64(1) + ctx_.shift;
        std::int64_t gpuStart = st_.int64(3) + ctx_.shift;
        out.isCommunication = true;
        out.pairCount = 0;
        out.order = RecordOrder::Communication;
        out.time = apiStart;
        auto& c = out.comm;
        c.sendRow = ctx_.threadRow(st_.int64(2));
        c.recvRow = ctx_.streamRow({st_.int64(4), st_.int64(5), st_.int64(6)});
        out.row = c.sendRow;
        c.logicalSend = apiStart;
        // The work may start before the launch call returns; the physical send never follows the receive.
        c.physicalSend = std::min(apiEnd, gpuStart);
        c.logicalRecv = c.physicalRecv = gpuStart;
        c.size = st_.int64(7);
        c.tag = tag_;
        return true;
    }

private:
    ReportContext& ctx_;
    sqlite::Statement st_;
    std::int64_t tag_;
};

std::string launchQuery(const std::string& table, const std::string& size) {
    return "SELECT r.start, r.end, r.globalTid, g.start, g.globalPid, g.deviceId, g.streamId, " + size + " FROM " +
           table +
           " g JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = g.correlationId"
           " AND r.globalTid >= g.globalPid AND r.globalTid < g.globalPid + 16777216 ORDER BY r.start";
}

} // namespace

void openLaunches(ReportContext& ctx, std::vector<std::unique_ptr<RecordSource>>& out) {
    const auto& db = ctx.report.db();
    if (!db.hasTable("CUPTI_ACTIVITY_KIND_RUNTIME")) return;
    struct Launched {
        const char* table;
        const char* size;
        std::int64_t tag;
    };
    for (auto [table, size, tag] : {Launched{"CUPTI_ACTIVITY_KIND_KERNEL", "0", types::kTagKernelLaunch},
                                    Launched{"CUPTI_ACTIVITY_KIND_GRAPH_TRACE", "0", types::kTagKernelLaunch},
                                    Launched{"CUPTI_ACTIVITY_KIND_MEMCPY", "g.bytes", types::kTagMemoryLaunch},
                                    Launched{"CUPTI_ACTIVITY_KIND_MEMSET", "g.bytes", types::kTagMemoryLaunch}})
        if (db.hasTable(table))
            out.push_back(std::make_unique<LaunchSource>(ctx, sqlite::Statement(db, launchQuery(table, size)), tag));
}

} // namespace gpueff::nsys
