#pragma once
#include "engine/semantic/AggregateFunctions.h"
#include "engine/semantic/CpuRecords.h"
#include "engine/semantic/ThreadFunctions.h"

#include <functional>
#include <unordered_map>

namespace gpueff::semantic {

// A CPU row, as paraver-kernel's IntervalCPU walks it: over the CPU's own record list, an interval begins at
// each record that passes the filter and the thread function's mask, or where the list passes from one
// thread's records to another's; its value is the CPU function (Active Thd, ...) of the value, at that
// time, of the thread the begin record belongs to (composed with compose_thread), or 0 when that thread's
// interval began on another CPU.
class CpuInterval : public Interval {
public:
    // A thread's row for this window: the thread-function interval and the same after compose_thread (the
    // two are one object when compose_thread is As Is).
    struct ThreadRow {
        ThreadInterval* raw = nullptr;
        IntervalPtr composed;
    };
    using ThreadRowFactory = std::function<ThreadRow(std::uint32_t thread)>;

    CpuInterval(const CpuRecords& records, std::uint32_t cpu, std::int64_t traceEnd,
                ThreadRowFactory makeThread, const AggregateFunction& function,
                std::vector<std::vector<double>> params);
    void init() override;
    void next() override;

private:
    // Positions: 0 the empty record at time 0, 1..n the CPU's records, n + 1 the empty record at the end.
    std::int64_t timeAt(std::size_t k) const;
    std::uint32_t threadAt(std::size_t k) const;
    ThreadRow& row(std::uint32_t thread);
    bool accepts(std::size_t k);
    std::size_t nextRecord(std::size_t k);
    void compute(bool initial);

    const std::vector<CpuRecord>& list_;
    std::uint32_t cpu_; // 0-based
    std::uint32_t firstThread_, lastThread_;
    std::int64_t traceEnd_;
    ThreadRowFactory makeThread_;
    const AggregateFunction& function_;
    std::vector<std::vector<double>> params_;
    std::unordered_map<std::uint32_t, ThreadRow> threads_;
    std::size_t beginPos_ = 0, endPos_ = 0;
};

} // namespace gpueff::semantic
