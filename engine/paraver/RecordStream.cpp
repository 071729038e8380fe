#include "engine/paraver/RecordStream.h"

#include "engine/paraver/Trace.h"

#include <algorithm>
#include <stdexcept>

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

// Events are already in time order (sortByTime) and all rank alike, so only the states and communication
// endpoints are sorted, then merged with the events: a whole thread's records sorted as one list would hold
// a second copy of every event while it sorts (16 bytes each: the larger part of a host unit's peak).
void buildThread(const Trace& trace, std::uint32_t thread, ThreadRecords& r, std::int64_t endTime,
                 const EventTypeTest& walked) {
    std::vector<Entry> others; // states, then communications: their place among equal keys
    others.reserve(r.stateBegin.size() * 2 + (r.sends.size() + r.receives.size()) * 4);
    for (std::uint32_t i = 0; i < r.stateBegin.size(); ++i) {
        others.push_back({r.stateBegin[i], State | Begin, i});
        others.push_back({r.stateEnd[i], State | End, i});
    }
    // A communication inside one thread appears in both lists; Paraver then stores all eight records once.
    for (auto c : r.sends) {
        const auto& m = trace.communications[c];
        others.push_back({m.logicalSend, Comm | Logical | Send, c});
        others.push_back({m.physicalSend, Comm | Physical | Send, c});
        others.push_back({m.logicalRecv, RemoteRecv | Logical, c});
        others.push_back({m.physicalRecv, RemoteRecv | Physical, c});
    }
    for (auto c : r.receives) {
        const auto& m = trace.communications[c];
        others.push_back({m.logicalRecv, Comm | Logical | Recv, c});
        others.push_back({m.physicalRecv, Comm | Physical | Recv, c});
        others.push_back({m.logicalSend, RemoteSend | Logical, c});
        others.push_back({m.physicalSend, RemoteSend | Physical, c});
    }
    auto before = [](const Entry& a, const Entry& b) {
        if (a.time != b.time) return a.time < b.time;
        return rank(a.type) < rank(b.type);
    };
    std::stable_sort(others.begin(), others.end(), before);
    if (!std::is_sorted(r.eventTime.begin(), r.eventTime.end()))
        throw std::logic_error("buildRecordStreams: a thread's events are not in time order (sortByTime)");
    // Events of a type nothing walks stay out; the last type's answer is kept (types come in runs).
    std::uint32_t lastType = 0;
    bool lastWalked = true, known = false;
    auto isWalked = [&](std::uint32_t type) {
        if (!walked) return true;
        if (!known || type != lastType) {
            lastType = type;
            lastWalked = walked(type);
            known = true;
        }
        return lastWalked;
    };
    std::size_t events = 0;
    for (auto type : r.eventType) events += isWalked(type);
    const auto size = others.size() + events + 2;
    auto& s = r.stream;
    s.time.clear();
    s.type.clear();
    s.index.clear();
    s.time.reserve(size);
    s.type.reserve(size);
    s.index.reserve(size);
    auto put = [&](std::int64_t time, std::uint16_t type, std::uint32_t index) {
        s.time.push_back(time);
        s.type.push_back(type);
        s.index.push_back(index);
    };
    put(0, Empty, 0);
    const int eventRank = rank(Event);
    std::size_t o = 0;
    for (std::uint32_t e = 0; e < r.eventTime.size(); ++e) {
        if (!isWalked(r.eventType[e])) continue;
        const auto t = r.eventTime[e];
        // An equal key never pairs an event with a state (their ranks differ): a communication it ties with
        // came after the events.
        while (o < others.size() &&
               (others[o].time < t || (others[o].time == t && rank(others[o].type) < eventRank))) {
            put(others[o].time, others[o].type, others[o].index);
            ++o;
        }
        put(t, Event, e);
    }
    for (; o < others.size(); ++o) put(others[o].time, others[o].type, others[o].index);
    put(endTime, Empty, thread);
}

} // namespace

void buildRecordStreams(Trace& trace, const EventTypeTest& walked) {
    auto end = trace.endTime();
    for (std::uint32_t t = 0; t < trace.threads.size(); ++t)
        buildThread(trace, t, trace.threads[t], end, walked);
}

} // namespace gpueff::paraver
