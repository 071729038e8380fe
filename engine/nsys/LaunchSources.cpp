#include "engine/nsys/LaunchSources.h"

#include "engine/nsys/GpuActivitySources.h"
#include "engine/nsys/HostSources.h"
#include "engine/nsys/KinetoRows.h"
#include "engine/paraver/EventTypes.h"

#include <algorithm>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace gpueff::nsys {

namespace types = paraver::types;

namespace {

class LaunchSource : public RecordSource {
public:
    LaunchSource(ReportContext& ctx, std::unique_ptr<Rows> st) : ctx_(ctx), st_(std::move(st)) {}
    std::string name() const override { return "launches"; }

protected:
    bool fill(TraceRecord& out) override {
        for (;;) {
            if (next_ == call_.size() && !readCall()) return false;
            const Launch& l = call_[next_++];
            // Some exports record a launch twice under one correlation id (a driver-level row wrapping the
            // runtime row): the work was launched once, by the outer call, which comes first in start order.
            if (nestedRepeat(l)) continue;
            std::int64_t apiStart = shiftTime(l.apiStart, ctx_.shift),
                         apiEnd = shiftTime(l.apiEnd, ctx_.shift);
            std::int64_t gpuStart = shiftTime(l.gpuStart, ctx_.shift);
            out.isCommunication = true;
            out.pairCount = 0;
            out.order = RecordOrder::Communication;
            out.time = apiStart;
            auto& c = out.comm;
            c.sendRow = ctx_.threadRow(l.thread);
            c.recvRow = ctx_.activityRow(l.stream, l.correlation, l.gpuStart);
            out.row = c.sendRow;
            c.logicalSend = apiStart;
            // The work may start before the launch call returns; the physical send never follows the receive.
            c.physicalSend = std::min(apiEnd, gpuStart);
            c.logicalRecv = c.physicalRecv = gpuStart;
            c.size = l.size;
            c.tag = l.tag;
            return true;
        }
    }

private:
    // One row: a call and one piece of GPU work it launched.
    struct Launch {
        std::int64_t call, apiStart, apiEnd, thread, gpuStart;
        StreamKey stream;
        std::int64_t size, tag, correlation;
    };

    // The rows of the next call (columns: api start, api end, api globalTid, gpu start, globalPid, deviceId,
    // streamId, size, tag, correlation id, the call's row): the rows come by call, and a call's work (a graph
    // launch runs several kernels, copies and memsets) is put in one order, by device, stream, start, size
    // and tag, whatever order the query plan gives it in.
    bool readCall() {
        call_.clear();
        next_ = 0;
        // (A statement stepped past its end would start again: the end is remembered.)
        if (!held_) {
            if (ended_ || !st_->step()) return ended_ = true, false;
            held_ = current();
        }
        call_.push_back(*held_);
        held_.reset();
        while (!ended_) {
            if (!st_->step()) {
                ended_ = true;
                break;
            }
            Launch l = current();
            if (l.call != call_.front().call) {
                held_ = l;
                break;
            }
            call_.push_back(l);
        }
        std::sort(call_.begin(), call_.end(), [](const Launch& a, const Launch& b) {
            return std::tie(a.stream.device, a.stream.stream, a.gpuStart, a.size, a.tag) <
                   std::tie(b.stream.device, b.stream.stream, b.gpuStart, b.size, b.tag);
        });
        return true;
    }
    Launch current() const {
        return {st_->int64(10), st_->int64(0), st_->int64(1),
                st_->int64(2),  st_->int64(3), StreamKey{st_->int64(4), st_->int64(5), st_->int64(6)},
                st_->int64(7),  st_->int64(8), st_->int64(9)};
    }

    // True when the row's call lies inside an earlier call that launched the same work (the same correlation
    // id, and the same operation: stream and start).
    bool nestedRepeat(const Launch& l) {
        if (recent_.size() > recentLimit_) {
            // Calls ended before this one started cannot enclose a later row either.
            std::erase_if(recent_, [&l](const auto& e) { return e.second < l.apiStart; });
            recentLimit_ = std::max<std::size_t>(1024, 2 * recent_.size());
        }
        auto [it, fresh] = recent_.try_emplace(Key{l.stream, l.correlation, l.gpuStart}, l.apiEnd);
        if (fresh) return false;
        if (it->second >= l.apiEnd) return true;
        it->second = l.apiEnd;
        return false;
    }
    struct Key {
        StreamKey stream;
        std::int64_t correlation, gpuStart;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const {
            return std::hash<std::int64_t>()(k.correlation * 1000003 ^ k.stream.globalPid ^
                                             (k.gpuStart << 1) ^ (k.stream.stream << 7) ^
                                             (k.stream.device << 17));
        }
    };

    ReportContext& ctx_;
    std::unique_ptr<Rows> st_;
    std::vector<Launch> call_;
    std::size_t next_ = 0;
    std::optional<Launch> held_;                            // the first row of the next call
    bool ended_ = false;                                    // the rows are all read
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
    std::string order = ctx.order(runtime, "r");
    std::string join = order == "r.rowid" ? " CROSS JOIN " : " JOIN ";
    out.push_back(std::make_unique<LaunchSource>(
        ctx, query(db, "SELECT r.start, r.end, r.globalTid, g.start, g.globalPid, g.deviceId, g.streamId, "
                       "g.size, g.tag, g.correlationId, r.rowid FROM " +
                           runtime + " r" + join + "(" + gpu +
                           ") g ON g.correlationId = r.correlationId AND r.globalTid >= g.globalPid AND "
                           "r.globalTid < g.globalPid + 16777216 WHERE " +
                           ctx.report.validRows(runtime, "r") + " ORDER BY " + order)));
    out.back()->setReorderWindow(ctx.report.readWindow(runtime));
}

} // namespace gpueff::nsys
