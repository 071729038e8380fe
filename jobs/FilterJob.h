#pragma once
// `gpueff filter` as a library call: a run (nsys exports or one Paraver trace) with only some of its records,
// as a Paraver trace (pipeline/FilterStage.h).
#include "engine/pipeline/FilterStage.h"
#include "jobs/TraceStreamJob.h"

namespace gpueff::jobs {

struct FilterRequest {
    TraceStreamRequest stream; // inputs, -o PREFIX, --only/--skip; command "filter"
    // What to keep. For a Paraver trace with `devices`, the layout is read from its .row here.
    pipeline::FilterOptions filter;
};

struct FilterResult {
    pipeline::FilterCounts counts;
    TraceStreamSummary stream;
};

// Writes PREFIX.prv/.pcf/.row (all or none). Throws RequestError for a request that cannot be run as given
// (nothing to filter, a minimum duration out of range, a Paraver trace among exports), gpueff::Error for what
// the inputs do not allow (no GPU rows of those devices, tasks the trace does not have).
FilterResult filterTrace(const FilterRequest& request);

} // namespace gpueff::jobs
