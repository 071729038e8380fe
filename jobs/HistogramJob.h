#pragma once
// `gpueff histogram` as a library call: a Paraver trace and cfgs -> paramedir's outputs, one file per cfg.
#include <string>
#include <vector>

namespace gpueff::jobs {

struct HistogramRequest {
    std::string trace;
    std::vector<std::string> cfgs;
    std::string outputDir = ".";
    int precision = 2;
    bool json = false, lenient = false, quiet = false, stats = false;
};

// Evaluates every cfg on the trace (loading only the event types some window can see) and writes
// DIR/<cfg>.txt|.json (its last histogram) or DIR/<cfg>.csv (its last window's timeline), all or none.
// Returns the exit status (0).
int runHistogram(const HistogramRequest& request);

} // namespace gpueff::jobs
