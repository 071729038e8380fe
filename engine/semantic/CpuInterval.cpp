#include "engine/semantic/CpuInterval.h"

namespace gpueff::semantic {

using namespace paraver::RecordBits;

CpuInterval::CpuInterval(const CpuRecords& records, std::uint32_t cpu, std::int64_t traceEnd,
                         ThreadRowFactory makeThread, const AggregateFunction& function,
                         std::vector<std::vector<double>> params)
    : list_(records.perCpu[cpu]), cpu_(cpu), firstThread_(records.firstThread[cpu]),
      lastThread_(records.lastThread[cpu]), traceEnd_(traceEnd), makeThread_(std::move(makeThread)),
      function_(function), params_(std::move(params)) {}

std::int64_t CpuInterval::timeAt(std::size_t k) const {
    if (k == 0) return 0;
    if (k > list_.size()) return traceEnd_;
    return list_[k - 1].time;
}

std::uint32_t CpuInterval::threadAt(std::size_t k) const {
    if (k == 0) return firstThread_;
    if (k > list_.size()) return lastThread_;
    return list_[k - 1].thread;
}

CpuInterval::ThreadRow& CpuInterval::row(std::uint32_t thread) {
    auto it = threads_.find(thread);
    if (it != threads_.end()) return it->second;
    auto& r = threads_[thread] = makeThread_(thread);
    r.composed->init();
    return r;
}

// Paraver's validRecord on the CPU's list, the state-gap rule looking at the CPU's next records.
bool CpuInterval::accepts(std::size_t k) {
    const auto& r = list_[k - 1];
    auto& thread = row(r.thread);
    if (!thread.raw->passesMask(r.pos)) return false;
    if (thread.raw->fillsStateGaps() && (r.type & State) && (r.type & End))
        for (std::size_t j = k; j < list_.size() && list_[j].time == r.time; ++j)
            if ((list_[j].type & State) && (list_[j].type & Begin)) return false;
    return true;
}

// IntervalCPU::getNextRecord: the next accepted record, or the first record of another thread (other than a
// communication's); the end record when there is none.
std::size_t CpuInterval::nextRecord(std::size_t k) {
    auto n = list_.size();
    if (k > n) return n + 1;
    auto thread = threadAt(k);
    for (++k; k <= n; ++k) {
        if (accepts(k)) return k;
        const auto& r = list_[k - 1];
        if (!(r.type & (Comm | RemoteSend | RemoteRecv)) && r.thread != thread) return k;
    }
    return n + 1;
}

void CpuInterval::compute(bool initial) {
    if (!initial) beginPos_ = endPos_;
    auto& thread = row(threadAt(beginPos_));
    auto t = timeAt(beginPos_);
    auto& composed = *thread.composed;
    while (composed.end <= t && composed.begin < traceEnd_) composed.next();
    double v = thread.raw->beginCpu() == cpu_ + 1 ? composed.value : 0.0;
    value = aggregate(function_, params_, {v}, 0);
    begin = t;
    endPos_ = nextRecord(endPos_);
    end = timeAt(endPos_);
}

void CpuInterval::init() {
    threads_.clear();
    beginPos_ = endPos_ = 0;
    compute(true);
}

void CpuInterval::next() {
    compute(false);
}

} // namespace gpueff::semantic
