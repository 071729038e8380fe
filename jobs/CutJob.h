#pragma once
// `gpueff cut` as a library call: a time window of a run (nsys exports or one Paraver trace) as a smaller
// Paraver trace whose time 0 is the window's begin (pipeline/CutStage.h).
#include "engine/pipeline/CutStage.h"
#include "jobs/TraceStreamJob.h"

#include <cstdint>
#include <optional>
#include <string>

namespace gpueff::jobs {

struct CutRequest {
    TraceStreamRequest stream; // inputs, -o PREFIX, --only/--skip; command "cut"
    // The window, in trace time: [begin (default 0), end (default the trace's end)], or the span of the NVTX
    // ranges named `region` (optionally the occurrence-th on each thread), found by a first pass.
    std::optional<std::int64_t> begin, end;
    std::string region;
    std::optional<std::uint64_t> occurrence;
};

struct CutResult {
    std::int64_t begin = 0;
    std::optional<std::int64_t> end; // absent: the trace's end
    pipeline::CutCounts counts;
    TraceStreamSummary stream;
    double regionSeconds = 0; // the first pass of --region
};

// Writes PREFIX.prv/.pcf/.row (all or none). Throws RequestError for a request that cannot be run as given
// (no window, begin not before end, a region with begin/end, a Paraver trace among exports), gpueff::Error
// for what the inputs do not allow (a window past the trace's end, a region that is not there).
CutResult cutTrace(const CutRequest& request);

} // namespace gpueff::jobs
