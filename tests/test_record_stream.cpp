// A thread's record stream is Paraver's walking order: records by time, equal times by the kind of record
// (plaintypes.h's getTypeOrdered: state ends, physical receives, logical sends, physical sends, events and
// logical receives, state begins), and equal kinds in the order of the thread's lists (its states, begin then
// end of each, its events, the endpoints of the lines it sends, then of those it receives). The expected
// streams here are that rule applied to one list of every record, sorted at once.
#include "engine/paraver/RecordStream.h"
#include "engine/paraver/Trace.h"

#include <algorithm>
#include <doctest/doctest.h>
#include <random>
#include <stdexcept>
#include <tuple>

namespace {

using namespace gpueff::paraver::RecordBits;

int paraverRank(std::uint16_t type) {
    if (type == Event) return 6;
    if (type == (State | End)) return 0;
    if (type == (State | Begin)) return 8;
    if (type & Comm) {
        if (type & Physical) return (type & Recv) ? 1 : 5;
        return (type & Send) ? 4 : 6;
    }
    // The partner's side of a line (remote records): physical with the physical sends, logical with the
    // logical receives.
    return (type & Physical) ? 5 : 6;
}

struct Expected {
    std::int64_t time;
    int rank;
    std::size_t listed; // place in the thread's lists
    std::uint16_t type;
    std::uint32_t index;
};

std::vector<Expected> expectedStream(const gpueff::paraver::Trace& trace, std::uint32_t thread) {
    const auto& r = trace.threads[thread];
    std::vector<Expected> all;
    auto add = [&](std::int64_t time, std::uint16_t type, std::uint32_t index) {
        all.push_back({time, paraverRank(type), all.size(), type, index});
    };
    for (std::uint32_t i = 0; i < r.stateBegin.size(); ++i) {
        add(r.stateBegin[i], State | Begin, i);
        add(r.stateEnd[i], State | End, i);
    }
    for (std::uint32_t i = 0; i < r.eventTime.size(); ++i) add(r.eventTime[i], Event, i);
    // A line's own endpoints on this thread, then its partner's ("remote"), sends before receives.
    for (bool sending : {true, false})
        for (auto c : sending ? r.sends : r.receives) {
            const auto& m = trace.communications[c];
            const std::int64_t send[] = {m.logicalSend, m.physicalSend},
                               recv[] = {m.logicalRecv, m.physicalRecv};
            const auto* own = sending ? send : recv;
            const auto* far = sending ? recv : send;
            const std::uint16_t ownBits = Comm | (sending ? Send : Recv),
                                farBits = sending ? RemoteRecv : RemoteSend;
            add(own[0], ownBits | Logical, c);
            add(own[1], ownBits | Physical, c);
            add(far[0], farBits | Logical, c);
            add(far[1], farBits | Physical, c);
        }
    std::sort(all.begin(), all.end(), [](const Expected& a, const Expected& b) {
        return std::tie(a.time, a.rank, a.listed) < std::tie(b.time, b.rank, b.listed);
    });
    return all;
}

} // namespace

TEST_CASE("record streams: Paraver's order of a thread's states, events and lines, equal times included") {
    std::mt19937 random(27);
    // Few distinct times, so that most records tie with others of every kind.
    std::uniform_int_distribution<std::int64_t> time(0, 6);
    for (int round = 0; round < 300; ++round) {
        gpueff::paraver::Trace trace;
        trace.header.endTime = 100;
        trace.threads.resize(2);
        auto& t = trace.threads[0];
        const int states = static_cast<int>(random() % 5), events = static_cast<int>(random() % 8),
                  lines = static_cast<int>(random() % 4);
        for (int i = 0; i < states; ++i) {
            auto b = time(random);
            t.stateBegin.push_back(b);
            t.stateEnd.push_back(b + time(random));
            t.stateValue.push_back(1);
            t.stateCpu.push_back(1);
        }
        for (int i = 0; i < events; ++i) {
            t.eventTime.push_back(time(random));
            t.eventType.push_back(static_cast<std::uint32_t>(i));
            t.eventValue.push_back(i);
            t.eventCpu.push_back(1);
        }
        for (int i = 0; i < lines; ++i) {
            const bool sent = random() % 2;
            gpueff::paraver::CommunicationRecord c{
                sent ? 0u : 1u, sent ? 1u : 0u, 1, 2, time(random), time(random),
                time(random),   time(random),   8, 1};
            (sent ? t.sends : t.receives).push_back(static_cast<std::uint32_t>(trace.communications.size()));
            (sent ? trace.threads[1].receives : trace.threads[1].sends)
                .push_back(static_cast<std::uint32_t>(trace.communications.size()));
            trace.communications.push_back(c);
        }
        for (auto& thread : trace.threads) gpueff::paraver::sortByTime(thread);
        gpueff::paraver::buildRecordStreams(trace);
        for (std::uint32_t th = 0; th < 2; ++th) {
            const auto want = expectedStream(trace, th);
            const auto& s = trace.threads[th].stream;
            REQUIRE(s.size() == want.size() + 2); // an empty record at 0 and at the trace's end
            CHECK(s.type.front() == Empty);
            CHECK(s.time.back() == 100);
            for (std::size_t i = 0; i < want.size(); ++i) {
                INFO("round " << round << ", thread " << th << ", record " << i);
                CHECK(s.time[i + 1] == want[i].time);
                CHECK(s.type[i + 1] == want[i].type);
                CHECK(s.index[i + 1] == want[i].index);
            }
        }
    }
}

TEST_CASE(
    "record streams of a part of a trace: the threads outside it get none, and walking one is refused") {
    // Thread 0 sends two lines to thread 1, which holds nothing else: a device's shard holds the host thread
    // that launched its kernels so.
    gpueff::paraver::Trace trace;
    trace.header.endTime = 100;
    trace.threads.resize(2);
    auto& t = trace.threads[0];
    t.stateBegin = {10, 40};
    t.stateEnd = {20, 50};
    t.stateValue = {1, 1};
    t.stateCpu = {1, 1};
    t.eventTime = {10};
    t.eventType = {7};
    t.eventValue = {3};
    t.eventCpu = {1};
    for (std::int64_t at : {5, 30}) {
        t.receives.push_back(static_cast<std::uint32_t>(trace.communications.size()));
        trace.threads[1].sends.push_back(static_cast<std::uint32_t>(trace.communications.size()));
        trace.communications.push_back({1, 0, 2, 1, at, at, at + 5, at + 5, 8, 1});
    }
    auto whole = trace;
    gpueff::paraver::buildRecordStreams(whole);
    const std::vector<bool> part{true, false};
    gpueff::paraver::buildRecordStreams(trace, {}, &part);
    // The part's thread walks as in the whole trace: its own records and both lines' four endpoints.
    CHECK(trace.walkingOrder(0).time == whole.walkingOrder(0).time);
    CHECK(trace.walkingOrder(0).type == whole.walkingOrder(0).type);
    CHECK(trace.walkingOrder(0).index == whole.walkingOrder(0).index);
    CHECK(trace.walkingOrder(0).size() == 2 + 4 + 1 + 8);
    CHECK(whole.walkingOrder(1).size() == 2 + 8);
    CHECK(trace.threads[1].stream.size() == 0);
    CHECK_THROWS_AS(trace.walkingOrder(1), std::logic_error);
}
