#pragma once
#include "engine/paraver/Trace.h"

#include <cstdint>
#include <vector>

namespace gpueff::semantic {

// The records of each CPU, as Paraver lists them for CPU-level windows: every record whose CPU field names
// that CPU (state begins and ends, events, communication endpoints, remote ones included), of the threads
// of each node in order, sorted by time alone (a stable sort: at equal times, thread order, then each
// thread's own order). Built once per cfg evaluation that has a CPU, node or system window.
struct CpuRecord {
    std::int64_t time;
    std::uint32_t thread; // global thread index
    std::uint32_t pos;    // position in that thread's RecordStream
    std::uint16_t type;   // RecordBits
};

struct CpuRecords {
    explicit CpuRecords(const paraver::Trace& trace);
    std::vector<std::vector<CpuRecord>> perCpu; // [0-based CPU]
    // The thread of the empty records before and after a CPU's records (Paraver: its first and last
    // record's threads; the node's first thread for a CPU without records).
    std::vector<std::uint32_t> firstThread, lastThread;
};

// The CPU field (1-based, 0 unknown) of a record of a thread's stream; the trailing empty record is on the
// CPU of the record before it, the leading one on none.
std::uint32_t recordCpu(const paraver::Trace& trace, const paraver::ThreadRecords& records, std::size_t pos);

} // namespace gpueff::semantic
