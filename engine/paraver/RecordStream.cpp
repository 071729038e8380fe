#include "engine/paraver/RecordStream.h"

#include "engine/common/SortedRuns.h"
#include "engine/paraver/Trace.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>

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

// Where an entry stood among the thread's lists: states (begin, end of each), then the lines it sends (their
// four endpoints each), then those it receives. Paraver keeps that order among records of equal time and
// rank.
struct Place {
    int list;            // 0 states, 1 sends, 2 receives
    std::uint32_t index; // the state's, or the line's (the lists hold lines in increasing index)
    int endpoint;        // within the state or the line, in the order listed below
};

Place placeOf(const Entry& e) {
    if (e.type & State) return {0, e.index, (e.type & End) ? 1 : 0};
    const bool sent = (e.type & RemoteRecv) || (e.type & Send);
    const int endpoint = ((e.type & (RemoteRecv | RemoteSend)) ? 2 : 0) + ((e.type & Physical) ? 1 : 0);
    return {sent ? 1 : 2, e.index, endpoint};
}

// Events are already in time order (sortByTime) and all rank alike, so only the states and communication
// endpoints are sorted, then merged with the events: a whole thread's records sorted as one list would hold
// a second copy of every event while it sorts (16 bytes each: the larger part of a host unit's peak).
// The states and endpoints are listed kind by kind (every state begin, every state end, every line's logical
// send, ...): each kind is in time order already on the translator's traces, so the sort merges ten runs.
void buildThread(const Trace& trace, std::uint32_t thread, ThreadRecords& r, std::int64_t endTime,
                 const EventTypeTest& walked) {
    std::vector<Entry> others; // states, then communications
    others.reserve(r.stateBegin.size() * 2 + (r.sends.size() + r.receives.size()) * 4);
    // The place breaks ties as a stable sort of the lists in Paraver's order would, while the lists hold
    // their lines in increasing index (TraceBuilder appends them so).
    if (!std::is_sorted(r.sends.begin(), r.sends.end()) ||
        !std::is_sorted(r.receives.begin(), r.receives.end()))
        throw std::logic_error("buildRecordStreams: a thread's lines are not in the order they were read");
    for (std::uint32_t i = 0; i < r.stateBegin.size(); ++i)
        others.push_back({r.stateBegin[i], State | Begin, i});
    for (std::uint32_t i = 0; i < r.stateEnd.size(); ++i) others.push_back({r.stateEnd[i], State | End, i});
    // A communication inside one thread appears in both lists; Paraver then stores all eight records once.
    using Line = CommunicationRecord;
    auto endpoints = [&](const std::vector<std::uint32_t>& lines, std::int64_t Line::*time,
                         std::uint16_t type) {
        for (auto c : lines) others.push_back({trace.communications[c].*time, type, c});
    };
    endpoints(r.sends, &Line::logicalSend, Comm | Logical | Send);
    endpoints(r.sends, &Line::physicalSend, Comm | Physical | Send);
    endpoints(r.sends, &Line::logicalRecv, RemoteRecv | Logical);
    endpoints(r.sends, &Line::physicalRecv, RemoteRecv | Physical);
    endpoints(r.receives, &Line::logicalRecv, Comm | Logical | Recv);
    endpoints(r.receives, &Line::physicalRecv, Comm | Physical | Recv);
    endpoints(r.receives, &Line::logicalSend, RemoteSend | Logical);
    endpoints(r.receives, &Line::physicalSend, RemoteSend | Physical);
    sortByRuns(others, [](const Entry& a, const Entry& b) {
        if (a.time != b.time) return a.time < b.time;
        if (rank(a.type) != rank(b.type)) return rank(a.type) < rank(b.type);
        auto p = placeOf(a), q = placeOf(b);
        return std::tie(p.list, p.index, p.endpoint) < std::tie(q.list, q.index, q.endpoint);
    });
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

void buildRecordStreams(Trace& trace, const EventTypeTest& walked, const std::vector<bool>* threads) {
    auto end = trace.endTime();
    for (std::uint32_t t = 0; t < trace.threads.size(); ++t) {
        if (!threads || threads->at(t)) {
            buildThread(trace, t, trace.threads[t], end, walked);
            continue;
        }
        trace.threads[t].stream = RecordStream{};
    }
}

} // namespace gpueff::paraver
