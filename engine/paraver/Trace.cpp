#include "engine/paraver/Trace.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace gpueff::paraver {

namespace {

template <typename T>
void reorder(std::vector<T>& v, const std::vector<std::uint32_t>& order) {
    std::vector<T> out(v.size());
    for (std::size_t i = 0; i < order.size(); ++i) out[i] = v[order[i]];
    v.swap(out);
}

// Stable-sorts parallel columns by `key` when it is out of order (pairs of one event record and
// equal-time records keep their file order).
template <typename... Columns>
void sortColumnsBy(std::vector<std::int64_t>& key, Columns&... columns) {
    if (std::is_sorted(key.begin(), key.end())) return;
    std::vector<std::uint32_t> order(key.size());
    std::iota(order.begin(), order.end(), 0U);
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return key[a] < key[b]; });
    reorder(key, order);
    (reorder(columns, order), ...);
}

} // namespace

// Records of a thread are usually written in time order; not always.
void sortByTime(ThreadRecords& t) {
    sortColumnsBy(t.eventTime, t.eventType, t.eventValue, t.eventCpu);
    sortColumnsBy(t.stateBegin, t.stateEnd, t.stateValue, t.stateCpu);
}

void Trace::indexThreads() {
    std::uint32_t count = 0;
    firstThreadOfTask_ = firstThreadOfTasks(header, &count);
    threads.assign(count, ThreadRecords{});
}

const RecordStream& Trace::walkingOrder(std::uint32_t thread) const {
    const auto& stream = threads.at(thread).stream;
    // A built stream holds at least its two empty records (buildRecordStreams).
    if (stream.size() == 0)
        throw std::logic_error("thread " + std::to_string(thread + 1) +
                               " is outside this part of the trace: its records cannot be walked here");
    return stream;
}

std::int64_t Trace::threadIndex(std::uint32_t appl, std::uint32_t task, std::uint32_t thread) const {
    if (appl == 0 || appl > header.applications.size()) return -1;
    const auto& tasks = header.applications[appl - 1];
    if (task == 0 || task > tasks.size() || thread == 0 || thread > tasks[task - 1].threads) return -1;
    return firstThreadOfTask_[appl - 1][task - 1] + thread - 1;
}

} // namespace gpueff::paraver

namespace gpueff::paraver {

namespace {

const char* unitName(TimeUnit unit) {
    switch (unit) {
    case TimeUnit::Nanoseconds:
        return "ns";
    case TimeUnit::Microseconds:
        return "us";
    case TimeUnit::Milliseconds:
        return "ms";
    case TimeUnit::Seconds:
        return "s";
    }
    return "";
}

} // namespace

std::vector<std::string> Trace::warnings() const {
    std::vector<std::string> out;
    if (skippedLines > 0)
        out.push_back(source + ": " + std::to_string(skippedLines) + " malformed line" +
                      (skippedLines == 1 ? "" : "s") + " skipped (--lenient); the first: " + firstSkipped);
    if (!header.unknownUnitSuffix.empty())
        out.push_back(source + ":1: time unit suffix '" + header.unknownUnitSuffix +
                      "' is not _ns, _us or _ms: read as microseconds, as Paraver reads it");
    if (recordsAfterEnd > 0) {
        std::string unit = unitName(header.unit);
        out.push_back(source + ": " + std::to_string(recordsAfterEnd) + " record" +
                      (recordsAfterEnd == 1 ? "" : "s") + " after the header's end time " +
                      std::to_string(header.endTime) + " " + unit + ": the trace ends at its last record, " +
                      std::to_string(lastRecordTime) + " " + unit + ", as in Paraver");
    }
    return out;
}

} // namespace gpueff::paraver
