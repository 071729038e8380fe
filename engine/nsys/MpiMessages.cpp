#include "engine/nsys/MpiMessages.h"

#include "engine/nsys/MpiNames.h"
#include "engine/paraver/EventTypes.h"

#include <algorithm>
#include <deque>
#include <set>
#include <tuple>

namespace gpueff::nsys {

namespace {
struct Call {
    std::int64_t start, end;
    std::uint32_t row;
    std::size_t report;
};
} // namespace

std::unique_ptr<RecordSource>
matchMpiMessages(std::vector<ReportContext*> reports,
                 const std::vector<std::map<std::int64_t, std::int64_t>>& rankOfPid,
                 std::vector<std::uint64_t>& unmatched) {
    unmatched.assign(reports.size(), 0);
    using Key = std::tuple<std::int64_t, std::int64_t, std::int64_t>; // source rank, destination rank, tag
    std::map<Key, std::deque<std::pair<Call, std::int64_t>>> sends;   // with size
    std::map<Key, std::deque<Call>> receives;
    // A call whose partner is a rank the inputs do not hold has no message line to miss.
    std::set<std::int64_t> ranks;
    for (const auto& pids : rankOfPid)
        for (const auto& [pid, rank] : pids) ranks.insert(rank);
    for (std::size_t i = 0; i < reports.size(); ++i) {
        if (reports[i]->report.kineto()) continue; // no MPI calls in a Kineto trace
        const auto& db = reports[i]->report.db();
        if (!db.hasTable("MPI_P2P_EVENTS")) continue;
        for (const char* c : {"remoteRank", "tag", "size", "textId"})
            if (!db.hasColumn("MPI_P2P_EVENTS", c)) return nullptr;
        // `end` is nullable (a receive the run ended in): the physical receive is then the call's start.
        sqlite::Statement st(db,
                             "SELECT start, coalesce(end, start), globalTid, textId, remoteRank, tag, size "
                             "FROM MPI_P2P_EVENTS WHERE " +
                                 reports[i]->report.validRows("MPI_P2P_EVENTS") + " ORDER BY " +
                                 reports[i]->report.startOrder("MPI_P2P_EVENTS"));
        while (st.step()) {
            auto pid = globalPidOf(st.int64(2));
            auto rank = rankOfPid[i].find(pid);
            if (rank == rankOfPid[i].end() || st.isNull(4)) continue;
            std::string_view name = reports[i]->report.string(st.int64(3));
            Call call{shiftTime(st.int64(0), reports[i]->shift), shiftTime(st.int64(1), reports[i]->shift),
                      reports[i]->threadRow(st.int64(2)), i};
            // MPI_Sendrecv both sends to and receives from its peer; persistent *_init calls are not
            // messages.
            if (receivesMessage(name)) receives[{st.int64(4), rank->second, st.int64(5)}].push_back(call);
            if (sendsMessage(name))
                sends[{rank->second, st.int64(4), st.int64(5)}].push_back({call, st.int64(6)});
        }
    }
    std::vector<TraceRecord> records;
    for (auto& [key, queue] : sends) {
        auto& recvs = receives[key];
        while (!queue.empty() && !recvs.empty()) {
            auto [send, size] = queue.front();
            Call recv = recvs.front();
            queue.pop_front();
            recvs.pop_front();
            TraceRecord r;
            r.isCommunication = true;
            r.order = RecordOrder::Communication;
            r.time = send.start;
            r.row = send.row;
            r.comm = {send.row,   recv.row, send.start, send.start,
                      recv.start, recv.end, size,       std::get<2>(key)};
            records.push_back(r);
        }
        if (ranks.count(std::get<1>(key)))
            for (const auto& [send, size] : queue) ++unmatched[send.report];
    }
    for (auto& [key, q] : receives)
        if (ranks.count(std::get<0>(key)))
            for (const auto& recv : q) ++unmatched[recv.report];
    if (records.empty()) return nullptr;
    std::sort(records.begin(), records.end(),
              [](const TraceRecord& a, const TraceRecord& b) { return recordBefore(a, 0, b, 0); });
    return std::make_unique<VectorSource>("mpi messages", std::move(records));
}

} // namespace gpueff::nsys
