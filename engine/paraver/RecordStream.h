#pragma once
#include <cstdint>
#include <functional>
#include <vector>

namespace gpueff::paraver {

struct Trace;

// Paraver's record type bits: a semantic function declares which records it "sees" as a mask of these,
// and the same bits decide record order at equal times.
namespace RecordBits {
inline constexpr std::uint16_t Begin = 0x0001, End = 0x0002, State = 0x0004, Event = 0x0008, Logical = 0x0010,
                               Physical = 0x0020, Send = 0x0040, Recv = 0x0080, Comm = 0x0100,
                               RemoteRecv = 0x0400, RemoteSend = 0x0800;
inline constexpr std::uint16_t Empty = State | Event | Comm;
} // namespace RecordBits

// One thread's records as Paraver walks them: an empty record at time 0, every state begin and end, event
// pair and communication endpoint (including the partner's side, "remote" records), and an empty record at
// the trace end. `index` points into the thread's state or event columns or into Trace::communications.
struct RecordStream {
    std::vector<std::int64_t> time;
    std::vector<std::uint16_t> type; // RecordBits
    std::vector<std::uint32_t> index;

    std::size_t size() const { return time.size(); }
};

// Builds every thread's stream; equal times are ordered as Paraver orders them (state ends, physical
// receives, logical sends, physical sends, events and logical receives, state begins), keeping file order
// among records of one kind.
// `walked`, when given, says which event types enter the streams (the others stay in the columns): the
// cfgs to evaluate walk no other (semantic::eventTypesWalked).
// `threads`, when given, says which threads get one (Trace::walkingOrder refuses the others).
using EventTypeTest = std::function<bool(std::uint32_t type)>;
void buildRecordStreams(Trace& trace, const EventTypeTest& walked = {},
                        const std::vector<bool>* threads = nullptr);

} // namespace gpueff::paraver
