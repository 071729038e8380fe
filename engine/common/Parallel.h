#pragma once
// Work spread over the -j workers: the one parallel loop the readers of reports and the analysis of shards
// share.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace gpueff {

// Runs task(i) for every i in [0, count) on up to `workers` threads (on the calling thread when one is
// enough). When tasks fail, rethrows the error of the lowest failing i, the one a loop in index order would
// have met first; tasks above a failed one are not started.
void forEachIndex(std::size_t count, unsigned workers, const std::function<void(std::size_t)>& task);

// Work items that each hold memory while they run, started on the workers only while together they fit a
// budget: an item larger than the budget runs alone. The workers wait for room (acquire) rather than all
// holding their largest items at once (-j 64 with 64 devices of a million kernels each).
class MemoryBudget {
public:
    explicit MemoryBudget(std::uint64_t bytes) : budget_(bytes) {}
    // Blocks until `bytes` fit beside what is held (or nothing is held); returns them with release().
    void acquire(std::uint64_t bytes);
    void release(std::uint64_t bytes);
    // Holds `bytes` of `budget` (none when null) from its making to its end.
    class Hold {
    public:
        Hold(MemoryBudget* budget, std::uint64_t bytes) : budget_(budget), bytes_(bytes) {
            if (budget_) budget_->acquire(bytes_);
        }
        ~Hold() {
            if (budget_) budget_->release(bytes_);
        }
        Hold(const Hold&) = delete;
        Hold& operator=(const Hold&) = delete;

    private:
        MemoryBudget* budget_;
        std::uint64_t bytes_;
    };

private:
    std::uint64_t budget_, held_ = 0;
    std::mutex mutex_;
    std::condition_variable room_;
};

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
