#pragma once
#include "engine/pipeline/RecordSink.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::pipeline {

// Keeps the window [begin, end] of a stream (in the trace's unit) and shifts it so that the window starts at
// 0, as Paraver's cutter does: the header's end time becomes end - begin and a comment line says where time 0
// was ("# gpueff cut: time 0 = T ns of SOURCE").
//
// Paraver reads an event as "from now on the value of this type is v", so what is open at the window's begin
// is re-emitted at 0 (one record per row with every type whose value is not 0, in the order the values were
// set) and what is still open at its end is closed there (value 0 at end - begin): a kernel or call running
// across a boundary keeps the part inside, and a cfg evaluated on the cut trace sees what it sees in that
// window of the full trace. Records at `begin` that only close (every value 0) are applied before the
// re-emission rather than written at 0, and values set at `end` itself (intervals of no length inside) are
// left out. States are clipped to the window; a communication is kept when its four times lie in the window,
// the others that touch it are counted (communicationsCut). Records are expected in time order on each row
// (an importer's stream, a .prv of any writer): an event before the window that arrives after its row's first
// record inside the window is dropped and counted (lateRecords).
//
// A stream in time order over all rows (StreamInfo::timeOrdered) has nothing for the window after its first
// record past the end: the stage is then satisfied and the source may stop reading (a .prv is not read to its
// end). The order is checked as records pass, so a stream that claims it wrongly is read to its end (as far
// as its disorder shows before the window's end). communicationsCut then counts the communications sent up to
// the window's end (one sent after it and received inside, a "negative message", is not seen).
struct CutCounts {
    std::uint64_t communicationsCut = 0, lateRecords = 0, recordsKept = 0;
};

class CutStage : public Stage {
public:
    // `end` absent: the trace's end (the header's end time). `description` names the source in the comment.
    CutStage(RecordSink& next, std::int64_t begin, std::optional<std::int64_t> end, std::string description,
             CutCounts* counts = nullptr);
    void begin(const StreamInfo& info) override;
    void consume(const TraceRecord& record) override;
    void end(const StreamLabels& labels) override;
    bool satisfied() const override { return satisfied_ || next_.satisfied(); }

    const CutCounts& counts() const { return counts_; }

private:
    struct TypeValue {
        std::uint32_t type;
        std::int64_t value;
        std::int64_t before; // time of the latest record of the type before the window (-1: none)
        bool inside = false; // a record of the window has set it
    };
    TypeValue& value(std::uint32_t row, std::uint32_t type);
    void set(std::uint32_t row, std::uint32_t cpu, const TraceRecord& r, bool inside);
    void late(const TraceRecord& r);
    void writeValues(std::uint32_t row, std::int64_t time, const std::vector<paraver::EventPair>& pairs,
                     paraver::RecordOrder order);
    void open();                     // the values open at the window's begin, written at 0
    void openRow(std::uint32_t row); // the same for one row (once)
    void forward(TraceRecord& r);

    std::int64_t begin_, end_ = 0;
    std::optional<std::int64_t> endAsked_;
    std::string description_;
    bool opened_ = false;                        // open() has run
    bool ordered_ = false;                       // the stream is in time order so far (and says it is)
    bool satisfied_ = false;                     // ordered, and a record past the window's end has come
    std::int64_t latest_ = INT64_MIN;            // the latest record time so far
    std::vector<char> rowOpened_;                // per row: its values at the window's begin are written
    std::vector<std::vector<TypeValue>> values_; // per row: every type seen, in the order first seen
    std::vector<paraver::EventPair> pairs_;      // scratch
    std::vector<std::uint32_t> cpu_;             // per row: the CPU of its last event
    TraceRecord out_;
    CutCounts own_;
    CutCounts& counts_; // the caller's, which outlive the stage, or own_
};

} // namespace gpueff::pipeline
