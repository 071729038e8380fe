#include "engine/nsys/ClockAlignment.h"

#include "engine/nsys/RowValidity.h"

#include <algorithm>

namespace gpueff::nsys {

std::optional<SyncPoint> syncPoint(const NsysExport& report) {
    const auto& db = report.db();
    const std::string names = "(SELECT id FROM StringIds WHERE value IN ('MPI_Init', 'MPI_Init_thread'))";
    if (db.hasTable("MPI_OTHER_EVENTS") && db.hasColumn("MPI_OTHER_EVENTS", "textId"))
        if (auto t = db.scalarInt("SELECT max(end) FROM MPI_OTHER_EVENTS WHERE textId IN " + names + " AND " +
                                  report.validRows("MPI_OTHER_EVENTS")))
            return SyncPoint{"MPI_Init end", *t};
    if (db.hasTable("NVTX_EVENTS") && db.hasColumn("NVTX_EVENTS", "domainId")) {
        std::string text = db.hasColumn("NVTX_EVENTS", "textId")
                               ? "(text IN ('MPI_Init', 'MPI_Init_thread') OR "
                                 "textId IN " +
                                     names + ")"
                               : "text IN ('MPI_Init', 'MPI_Init_thread')";
        if (auto t = db.scalarInt("SELECT max(end) FROM NVTX_EVENTS WHERE eventType = 59 AND " + text +
                                  " AND " + report.validRows("NVTX_EVENTS")))
            return SyncPoint{"MPI_Init end", *t};
    }
    if (db.hasTable("MPI_COLLECTIVES_EVENTS") && db.hasColumn("MPI_COLLECTIVES_EVENTS", "textId")) {
        sqlite::Statement st(
            db, "SELECT c.end, s.value FROM MPI_COLLECTIVES_EVENTS c JOIN StringIds s ON s.id = "
                "c.textId WHERE c.end IS NOT NULL AND " +
                    report.validRows("MPI_COLLECTIVES_EVENTS", "c") + " ORDER BY c.start LIMIT 1");
        if (st.step())
            return SyncPoint{"end of the first " + report.utf8(st.text(1), "StringIds"), st.int64(0)};
    }
    return std::nullopt;
}

std::vector<std::int64_t> syncCorrections(const std::vector<std::optional<SyncPoint>>& points,
                                          const std::vector<std::int64_t>& utcShifts, std::int64_t limitNs,
                                          std::string& why) {
    std::vector<std::int64_t> none(points.size(), 0);
    why.clear();
    if (points.size() < 2) return none;
    for (const auto& p : points)
        if (!p || p->name != points.front()->name) {
            why = "no sync point shared by every report (MPI_Init or a first collective)";
            return none;
        }
    std::int64_t target = INT64_MIN;
    for (std::size_t i = 0; i < points.size(); ++i)
        target = std::max(target, checkedAdd(points[i]->time, utcShifts[i]));
    std::vector<std::int64_t> shifts(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        shifts[i] = checkedSub(target, checkedAdd(points[i]->time, utcShifts[i]));
        if (shifts[i] > limitNs) {
            why = points.front()->name + " differs by " + std::to_string(shifts[i]) +
                  " ns between reports after UTC alignment: not refined (reports of different runs?)";
            return none;
        }
    }
    return shifts;
}

} // namespace gpueff::nsys
