#pragma once
#include "engine/nsys/ReportContext.h"
#include "engine/paraver/TraceLayout.h"

#include <memory>
#include <vector>

namespace gpueff::nsys {

// The Paraver object model of the merged trace: tasks are processes ordered by MPI rank when known, else by
// host then PID; per task its CPU threads, CUDA streams, then GPU-metrics rows; nodes are hosts. Fills each
// context's row maps. Throws when the same process appears in two reports (the same report given twice).
paraver::TraceLayout buildTaskLayout(const std::vector<std::unique_ptr<NsysExport>>& reports,
                                     const std::vector<ReportObjects>& objects, bool threadNames,
                                     std::vector<std::unique_ptr<ReportContext>>& contexts);

} // namespace gpueff::nsys
