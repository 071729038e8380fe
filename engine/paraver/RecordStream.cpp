#include "engine/paraver/RecordStream.h"

#include "engine/paraver/Trace.h"

#include <algorithm>

namespace gpueff::paraver {

namespace {

using namespace RecordBits;

// Paraver's rank of a record type among records with the same time (plaintypes.h: getTypeOrdered).
int rank(std::uint16_t type) {
    if (type & Event) return 6;
    if (type & State) return (type & End) ? 0 : 8;
    if (type & Physical) return (type & Recv) ? 1 : 5;
    if (type & Logical) return (type & Send) ? 4 : 6;
    return 9;
}

struct Entry {
    std::int64_t time;
    std::uint16_t type;
    std::uint32_t index;
};

void buildThread(const Trace& trace, std::uint32_t thread, ThreadRecords& r, std::int64_t endTime) {
    std::vector<Entry> entries;
    entries.reserve(r.stateBegin.size() * 2 + r.eventTime.size() + (r.sends.size() + r.receives.size()) * 4);
    for (std::uint32_t i = 0; i < r.stateBegin.size(); ++i) {
        entries.push_back({r.stateBegin[i], State | Begin, i});
        entries.push_back({r.stateEnd[i], State | End, i});
    }
    for (std::uint32_t i = 0; i < r.eventTime.size(); ++i) entries.push_back({r.eventTime[i], Event, i});
    // A communication inside one thread appears in both lists; Paraver then stores all eight records once.
    for (auto c : r.sends) {
        const auto& m = trace.communications[c];
        entries.push_back({m.logicalSend, Comm | Logical | Send, c});
        entries.push_back({m.physicalSend, Comm | Physical | Send, c});
        entries.push_back({m.logicalRecv, RemoteRecv | Logical, c});
        entries.push_back({m.physicalRecv, RemoteRecv | Physical, c});
    }
    for (auto c : r.receives) {
        const auto& m = trace.communications[c];
        entries.push_back({m.logicalRecv, Comm | Logical | Recv, c});
        entries.push_back({m.physicalRecv, Comm | Physical | Recv, c});
        entries.push_back({m.logicalSend, RemoteSend | Logical, c});
        entries.push_back({m.physicalSend, RemoteSend | Physical, c});
    }
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        if (a.time != b.time) return a.time < b.time;
        return rank(a.type) < rank(b.type);
    });
    auto& s = r.stream;
    s.time.clear();
    s.type.clear();
    s.index.clear();
    s.time.reserve(entries.size() + 2);
    s.type.reserve(entries.size() + 2);
    s.index.reserve(entries.size() + 2);
    s.time.push_back(0);
    s.type.push_back(Empty);
    s.index.push_back(0);
    for (const auto& e : entries) {
        s.time.push_back(e.time);
        s.type.push_back(e.type);
        s.index.push_back(e.index);
    }
    s.time.push_back(endTime);
    s.type.push_back(Empty);
    s.index.push_back(thread);
}

} // namespace

void buildRecordStreams(Trace& trace) {
    auto end = trace.endTime();
    for (std::uint32_t t = 0; t < trace.threads.size(); ++t) buildThread(trace, t, trace.threads[t], end);
}

} // namespace gpueff::paraver
