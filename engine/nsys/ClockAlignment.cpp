#include "engine/nsys/ClockAlignment.h"

namespace gpueff::nsys {

std::optional<std::int64_t> mpiInitEnd(const NsysExport& report) {
    const auto& db = report.db();
    const std::string names = "(SELECT id FROM StringIds WHERE value IN ('MPI_Init', 'MPI_Init_thread'))";
    if (db.hasTable("MPI_OTHER_EVENTS") && db.hasColumn("MPI_OTHER_EVENTS", "textId"))
        if (auto t = db.scalarInt("SELECT max(end) FROM MPI_OTHER_EVENTS WHERE textId IN " + names)) return t;
    if (db.hasTable("NVTX_EVENTS") && db.hasColumn("NVTX_EVENTS", "domainId")) {
        std::string text = db.hasColumn("NVTX_EVENTS", "textId") ? "(text IN ('MPI_Init', 'MPI_Init_thread') OR "
                                                                   "textId IN " + names + ")"
                                                                 : "text IN ('MPI_Init', 'MPI_Init_thread')";
        if (auto t = db.scalarInt("SELECT max(end) FROM NVTX_EVENTS WHERE eventType = 59 AND " + text)) return t;
    }
    return std::nullopt;
}

} // namespace gpueff::nsys
