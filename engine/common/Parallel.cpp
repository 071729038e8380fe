#include "engine/common/Parallel.h"

#include "engine/common/MemorySize.h"

#include <algorithm>
#include <atomic>
#include <ctime>
#include <exception>
#include <thread>
#include <vector>

namespace gpueff {

void forEachIndex(std::size_t count, unsigned workers, const std::function<void(std::size_t)>& task) {
    std::size_t threads = std::min<std::size_t>(std::max(workers, 1u), count);
    if (threads <= 1) {
        for (std::size_t i = 0; i < count; ++i) task(i);
        return;
    }
    std::atomic<std::size_t> next{0}, firstFailed{SIZE_MAX};
    std::vector<std::exception_ptr> errors(count);
    auto run = [&] {
        for (std::size_t i; (i = next.fetch_add(1)) < count;) {
            if (i > firstFailed.load()) return;
            try {
                task(i);
            } catch (...) {
                errors[i] = std::current_exception();
                std::size_t seen = firstFailed.load();
                while (i < seen && !firstFailed.compare_exchange_weak(seen, i)) {
                }
            }
        }
    };
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(run);
    run();
    for (auto& t : pool) t.join();
    if (firstFailed.load() != SIZE_MAX) std::rethrow_exception(errors[firstFailed.load()]);
}

unsigned workerCount(unsigned jobs) {
    if (jobs > 0) return jobs;
    return std::max(1u, std::thread::hardware_concurrency());
}

double processCpuSeconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

StageClock::StageClock(std::vector<StageTime>& out)
    : out_(out), wall_(std::chrono::steady_clock::now()), cpu_(processCpuSeconds()) {}

void StageClock::end(std::string name, bool parallel) {
    auto wall = std::chrono::steady_clock::now();
    auto cpu = processCpuSeconds();
    out_.push_back({std::move(name), std::chrono::duration<double>(wall - wall_).count(), cpu - cpu_,
                    parallel, peakResidentMemory()});
    wall_ = wall;
    cpu_ = cpu;
}

void MemoryBudget::acquire(std::uint64_t bytes) {
    std::unique_lock lock(mutex_);
    room_.wait(lock, [&] { return held_ == 0 || held_ + bytes <= budget_; });
    held_ += bytes;
}

void MemoryBudget::release(std::uint64_t bytes) {
    {
        std::lock_guard lock(mutex_);
        held_ -= bytes;
    }
    room_.notify_all();
}

} // namespace gpueff
