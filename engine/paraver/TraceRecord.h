#pragma once
#include <array>
#include <cstdint>
#include <string_view>

namespace gpueff::paraver {

struct EventPair {
    std::uint32_t type;
    std::int64_t value;
};

// A record written at "the row's CPU" (gpueff's own traces give every row a CPU of its own); records read
// from another writer's trace carry theirs.
inline constexpr std::uint32_t kRowCpu = UINT32_MAX;

struct Communication {
    std::uint32_t sendRow, recvRow; // global thread rows (0-based, see TraceLayout)
    std::int64_t logicalSend, physicalSend, logicalRecv, physicalRecv;
    std::int64_t size, tag;
    std::uint32_t sendCpu = kRowCpu, recvCpu = kRowCpu;
};

// A state record ("1:" line): gpueff's translations write none, Paraver traces of other writers have them.
struct StateSpan {
    std::int64_t end = 0;
    std::uint32_t value = 0;
};

// Where a record sits among records of the same timestamp. Paraver reads an event line as "from now on the
// value is v", so an interval that ends at t must be closed before the next one opens at t; a zero-length
// interval is the exception and closes after its own begin.
enum class RecordOrder : std::uint8_t { IntervalEnd = 0, Communication = 1, Begin = 2, ZeroLengthEnd = 3 };

// One line of the .prv body, flat and fixed-size so streaming never allocates per record: an event record
// (pairs), a communication (isCommunication) or a state (isState; time = its begin).
struct TraceRecord {
    static constexpr int kMaxPairs = 24;
    std::int64_t time = 0;
    RecordOrder order = RecordOrder::Begin;
    bool isCommunication = false;
    bool isState = false;
    std::uint8_t pairCount = 0;
    std::uint32_t row = 0;
    std::uint32_t cpu = kRowCpu;
    std::array<EventPair, kMaxPairs> pairs;
    Communication comm;
    StateSpan state;
    // A record merged and formatted by another process (`mpirun`, jobs/Distributed): its .prv line, '\n'
    // included, which the .prv writer copies as is. Such a record carries its time, order and row for the
    // merge, and what the merge counts (the communication's tag, the first pair), nothing else: only the
    // root's .prv writer receives it.
    std::string_view formatted;

    void add(std::uint32_t type, std::int64_t value) {
        if (pairCount < kMaxPairs) pairs[pairCount++] = {type, value};
    }
};

// Total order of the merged body: time, then the Paraver rule above, then row, then each source's own order.
inline bool recordBefore(const TraceRecord& a, std::uint64_t seqA, const TraceRecord& b, std::uint64_t seqB) {
    if (a.time != b.time) return a.time < b.time;
    if (a.order != b.order) return a.order < b.order;
    if (a.row != b.row) return a.row < b.row;
    return seqA < seqB;
}

} // namespace gpueff::paraver
