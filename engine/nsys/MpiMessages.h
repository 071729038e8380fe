#pragma once
#include "engine/nsys/ReportContext.h"

#include <memory>
#include <vector>

namespace gpueff::nsys {

// Point-to-point MPI messages of all reports as communication records: each send is matched with the
// receive posted by its destination for the same source and tag, in order (MPI's non-overtaking rule).
// Returns nullptr when no message could be matched. `unmatched[i]` counts the calls of report i left without
// a partner though the partner's rank is among the reports (sized to the reports).
std::unique_ptr<RecordSource>
matchMpiMessages(std::vector<ReportContext*> reports,
                 const std::vector<std::map<std::int64_t, std::int64_t>>& rankOfPid,
                 std::vector<std::uint64_t>& unmatched);

} // namespace gpueff::nsys
