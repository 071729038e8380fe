#pragma once
#include "engine/nsys/ReportContext.h"

#include <memory>
#include <vector>

namespace gpueff::nsys {

// Point-to-point MPI messages of all reports as communication records: each send is matched with the
// receive posted by its destination for the same source and tag, in order (MPI's non-overtaking rule).
// Returns nullptr when no message could be matched. `unmatched` counts the calls left without a partner.
std::unique_ptr<RecordSource>
matchMpiMessages(std::vector<ReportContext*> reports,
                 const std::vector<std::map<std::int64_t, std::int64_t>>& rankOfPid,
                 std::uint64_t& unmatched);

} // namespace gpueff::nsys
