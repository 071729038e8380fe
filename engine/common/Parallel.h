#pragma once
// Work spread over the -j workers: the one parallel loop the readers of reports and the analysis of shards
// share.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gpueff {

// Runs task(i) for every i in [0, count) on up to `workers` threads (on the calling thread when one is
// enough). When tasks fail, rethrows the error of the lowest failing i, the one a loop in index order would
// have met first; tasks above a failed one are not started.
void forEachIndex(std::size_t count, unsigned workers, const std::function<void(std::size_t)>& task);

// The workers of -j N: N, or one per core for 0.
unsigned workerCount(unsigned jobs);

// CPU seconds this process has used so far, every thread counted (the --stats lines' CPU per stage).
double processCpuSeconds();

// One stage of a command, for --stats: its wall and CPU seconds (every thread's), and whether it ran on the
// workers.
struct StageTime {
    std::string name;
    double wallSeconds = 0, cpuSeconds = 0;
    bool parallel = false;
    std::uint64_t peakBytes = 0; // the process's peak resident memory at the stage's end
};

// Stage by stage, the wall and CPU seconds since the previous stage's end (or the clock's making).
class StageClock {
public:
    explicit StageClock(std::vector<StageTime>& out);
    void end(std::string name, bool parallel);

private:
    std::vector<StageTime>& out_;
    std::chrono::steady_clock::time_point wall_;
    double cpu_;
};

} // namespace gpueff
