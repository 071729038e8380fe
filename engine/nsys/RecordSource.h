#pragma once
#include "engine/nsys/RowValidity.h"
#include "engine/nsys/Rows.h"
#include "engine/paraver/TraceRecord.h"
#include "engine/sqlite/Database.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gpueff::nsys {

using paraver::RecordOrder;
using paraver::TraceRecord;

// A time-ordered stream of trace records; the translator k-way merges all of them into the .prv body.
class RecordSource {
public:
    virtual ~RecordSource() = default;
    const TraceRecord* peek() const { return has_ ? &current_ : nullptr; }
    // The merge key beyond the record itself: the record's place in its source, and the source's place among
    // all sources of the trace (report index << 32 | place among the report's sources), the last tie-break.
    std::uint64_t sequence() const { return sequence_; }
    std::uint64_t origin() const { return origin_; }
    void setOrigin(std::uint64_t origin) { origin_ = origin; }
    void advance() {
        has_ = window_ < 0 ? fill(current_) : nextReordered();
        if (!relays_) ++sequence_;
    }
    virtual std::string name() const = 0;
    // The names pass (Translator.cpp): reads every row for the names its records carry, without making the
    // records. By default the records are made and dropped.
    virtual void collectNames() {
        for (advance(); peek(); advance()) {
        }
    }
    // After the merge: adds the `written` records of this source to `byKind` (by source name). A stream
    // relaying other sources adds theirs. (Rows left out are counted by each report: ReportContext::skipped.)
    virtual void count(std::uint64_t written, std::map<std::string, std::uint64_t>& byKind) const {
        byKind[name()] += written;
    }

    // The source reads rows in storage order, which may run up to `window` ns behind the latest start seen
    // (nsys stores tables almost sorted). Records are then held until no later row can precede them: memory
    // is bounded by the records of one window, and SQLite never sorts the table.
    void setReorderWindow(std::int64_t window) { window_ = window; }

protected:
    RecordSource() = default;
    // For a stream relaying records merged from other sources (ReportStreams): fill() gives each record the
    // key it had in its own source with relayKey().
    struct Relay {};
    explicit RecordSource(Relay) : relays_(true) {}
    void relayKey(std::uint64_t sequence, std::uint64_t origin) {
        sequence_ = sequence;
        origin_ = origin;
    }
    // Writes the next record into out; false when the stream is exhausted.
    virtual bool fill(TraceRecord& out) = 0;

private:
    bool nextReordered();

    TraceRecord current_;
    bool has_ = false, relays_ = false;
    std::uint64_t sequence_ = 0, origin_ = 0;
    std::int64_t window_ = -1; // < 0: fill() already yields time order
    std::vector<TraceRecord> held_;
    std::vector<std::pair<std::size_t, std::uint64_t>> heldOrder_; // heap of (index in held_, arrival)
    std::vector<std::size_t> freeSlots_;
    std::uint64_t arrivals_ = 0;
    std::int64_t latest_ = INT64_MIN;
    bool drained_ = false;
};

// The merge order of the heads of two sources: the trace's total order of records (recordBefore), then the
// sources' places, so that no two heads tie and any grouping of the sources merges into the same stream.
inline bool headBefore(const RecordSource& a, const RecordSource& b) {
    const TraceRecord &x = *a.peek(), &y = *b.peek();
    if (x.time != y.time) return x.time < y.time;
    if (x.order != y.order) return x.order < y.order;
    if (x.row != y.row) return x.row < y.row;
    if (a.sequence() != b.sequence()) return a.sequence() < b.sequence();
    return a.origin() < b.origin();
}

struct Interval {
    std::uint32_t row = 0;
    std::int64_t begin = 0;
    std::int64_t end = 0;
    bool hasEnd = true; // false for point events (marks, samples)
};

// Turns rows ordered by start time into begin records and, later, matching end records
// (same types, value 0). Ends wait in a heap, so memory is bounded by the intervals open at once.
class IntervalSource : public RecordSource {
public:
    IntervalSource(std::unique_ptr<Rows> rows, std::int64_t shift);
    // Each row decoded once, in the order read: names do not depend on order, so neither the end heap nor
    // the reorder window is needed.
    void collectNames() override;

protected:
    // Decodes the statement's current row; returns false to skip it, having counted it with its table and
    // reason (ReportContext::skipped), as every row left out is.
    virtual bool decode(const Rows& row, TraceRecord& begin, Interval& interval) = 0;
    std::int64_t shifted(std::int64_t t) const { return shiftTime(t, shift_); }

private:
    struct PendingEnd {
        std::int64_t time;
        std::uint64_t seq;
        RecordOrder order;
        std::uint8_t pairCount;
        std::uint32_t row;
        std::array<std::uint32_t, TraceRecord::kMaxPairs> types;
    };
    static bool later(const PendingEnd& a, const PendingEnd& b);
    bool fill(TraceRecord& out) override;
    bool loadBegin();

    std::unique_ptr<Rows> rows_;
    std::int64_t shift_;
    TraceRecord nextBegin_;
    bool haveBegin_ = false, exhausted_ = false;
    std::vector<PendingEnd> ends_;
    std::uint64_t endSeq_ = 0;
};

// Records computed up front (e.g. matched MPI messages), replayed in order.
class VectorSource : public RecordSource {
public:
    VectorSource(std::string name, std::vector<TraceRecord> records);
    std::string name() const override { return name_; }

protected:
    bool fill(TraceRecord& out) override;

private:
    std::string name_;
    std::vector<TraceRecord> records_;
    std::size_t next_ = 0;
};

} // namespace gpueff::nsys
