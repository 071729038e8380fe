#pragma once
#include "engine/paraver/Provenance.h"
#include "engine/paraver/RecordStream.h"
#include "engine/paraver/TraceHeader.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace gpueff::paraver {

// Records of one thread, in time order, stored as columns: no object per record. An event record with
// several type:value pairs is several consecutive entries with the same time.
struct ThreadRecords {
    std::vector<std::int64_t> stateBegin, stateEnd;
    std::vector<std::uint32_t> stateValue;
    std::vector<std::uint32_t> stateCpu;
    std::vector<std::int64_t> eventTime;
    std::vector<std::uint32_t> eventType;
    std::vector<std::int64_t> eventValue;
    std::vector<std::uint32_t> eventCpu;
    std::vector<std::uint32_t> sends, receives; // indices into Trace::communications
    RecordStream stream;                        // all of the above in Paraver's walking order
};

// Stable-sorts a thread's state and event columns by time when a writer did not (pairs of one event record
// and records of equal time keep their order).
void sortByTime(ThreadRecords& t);

struct CommunicationRecord {
    std::uint32_t sendThread, recvThread; // global 0-based thread index
    std::uint32_t sendCpu, recvCpu;
    std::int64_t logicalSend, physicalSend, logicalRecv, physicalRecv;
    std::int64_t size, tag;
};

// A Paraver trace in memory: the header, the communicator lines kept verbatim, and every thread's records.
// Threads are numbered globally in header order (application, task, thread); memory is about 24 bytes per
// event pair and 24 per state record.
inline constexpr std::size_t kMaxComments = 16;

struct Trace {
    TraceHeader header;
    std::vector<std::string> communicatorLines;
    Provenance provenance; // gpueff's own comment lines, read (Provenance.h)
    std::vector<std::string>
        comments; // the first kMaxComments other '#' lines of the body, at most 1 KiB each
    std::vector<ThreadRecords> threads;
    std::vector<CommunicationRecord> communications;
    std::string source;                // the file, for messages
    std::int64_t lastRecordTime = 0;   // the latest time of any record
    std::uint64_t recordsAfterEnd = 0; // records with a time after header.endTime (they move the end)
    std::uint64_t skippedLines = 0;    // malformed lines ignored in lenient mode
    std::string firstSkipped;          // why the first of them was skipped, "FILE:LINE: ..."

    // What a user must be told about how the trace was read: lines skipped (lenient), and an end time
    // moved past the header's by records after it. Each a full sentence naming the file.
    std::vector<std::string> warnings() const;

    // Paraver's rule: the trace ends at the header's end time or at its last record, whichever is later.
    std::int64_t endTime() const { return std::max(header.endTime, lastRecordTime); }
    // A thread's records in Paraver's walking order. A part of a trace (TraceBuilder::walkRows) builds none
    // for the threads outside the part, which hold only the lines mirrored from it: walking one of them is a
    // logic error, not an empty row.
    const RecordStream& walkingOrder(std::uint32_t thread) const;
    // Global thread index of 1-based (application, task, thread), or -1 when the header has no such thread.
    std::int64_t threadIndex(std::uint32_t appl, std::uint32_t task, std::uint32_t thread) const;
    void indexThreads(); // after the header is set

private:
    std::vector<std::vector<std::uint32_t>> firstThreadOfTask_;
};

} // namespace gpueff::paraver
