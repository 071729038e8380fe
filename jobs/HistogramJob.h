#pragma once
// `gpueff histogram` as a library call: a Paraver trace and cfgs -> paramedir's outputs, one file per cfg.
#include <cstdint>
#include <string>
#include <vector>

namespace gpueff::jobs {

struct HistogramRequest {
    std::string trace;
    std::vector<std::string> cfgs;
    std::string outputDir = ".";
    int precision = 2;
    bool json = false, lenient = false, quiet = false, stats = false;
    // Bytes the trace may take in memory (0: defaultMemoryLimit(), engine/common/MemorySize.h); a trace
    // larger than this is evaluated in passes over the file, each keeping a group of rows (HistogramPlan.h).
    std::uint64_t memoryLimit = 0;
};

// Evaluates every cfg on the trace (loading only the event types some window can see) and writes
// DIR/<cfg>.txt|.json (its last histogram) or DIR/<cfg>.csv (its last window's timeline), all or none. A
// trace whose records exceed the memory limit is read in passes, with the same outputs.
// Returns the exit status (0).
int runHistogram(const HistogramRequest& request);

} // namespace gpueff::jobs
