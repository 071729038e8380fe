#pragma once
#include "engine/common/IntervalPairing.h"
#include "engine/pipeline/RecordSink.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpueff::pipeline {

using TypeRanges = std::vector<std::pair<std::uint32_t, std::uint32_t>>; // inclusive

struct FilterOptions {
    TypeRanges keepTypes; // event types kept (empty: all)
    TypeRanges dropTypes; // event types dropped
    // Begin and end records of kernels, calls and ranges (durationType) closer than this (in the trace's
    // unit) are dropped, both of them.
    std::optional<std::int64_t> minDuration;
    // Rows kept: those of these tasks (1-based, in each application of the header) and, of the GPU rows,
    // those of these CUDA devices (CPU rows stay); empty: all. Records of other rows are dropped,
    // communications kept when both ends are kept. The header keeps every object, as Paraver's filter does,
    // so the .row stays valid. Which rows are GPU rows of which device comes from the stream's layout, or
    // from `layout` when the stream has none (a Paraver trace: paraver::layoutFromLabels of its .row).
    TypeRanges tasks, devices;
    paraver::TraceLayout layout;
};

// Types whose records come in begin (value not 0) / end (value 0) pairs on one row, the first pair of their
// records: CUDA calls, kernels, graph launches, memory operations, synchronization, MPI calls, NVTX ranges,
// OpenACC, OS runtime and pthread calls.
bool durationType(std::uint32_t type);

struct FilterCounts {
    std::uint64_t recordsKept = 0, recordsDropped = 0, shortIntervals = 0;
};

// Paraver's filter on a stream: event types, rows, and the minimum duration of intervals. A begin record of a
// duration type is held until its end comes or `minDuration` has passed, and the records after it with it
// (the output stays in time order): memory is bounded by what starts within minDuration of an open interval.
// An interval still open at the stream's end is kept.
class FilterStage : public Stage {
public:
    FilterStage(RecordSink& next, FilterOptions options, FilterCounts* counts = nullptr);
    void begin(const StreamInfo& info) override;
    void consume(const TraceRecord& record) override;
    void end(const StreamLabels& labels) override;

    const FilterCounts& counts() const { return counts_; }

private:
    bool keepsType(std::uint32_t type) const;
    bool keepsRow(std::uint32_t row) const {
        return keepRows_.empty() || (row < keepRows_.size() && keepRows_[row]);
    }
    void durations(const TraceRecord& r);
    void release(std::int64_t now, bool all);
    void emit(const TraceRecord& r);

    struct Held {
        TraceRecord record;
        bool pending = false, dropped = false;
    };
    struct Open {
        std::uint64_t seq;
        std::int64_t begin;
    };
    FilterOptions options_;
    std::vector<bool> keepRows_; // empty: all
    // Held records, oldest first: a ring of reused slots (a record is about 500 bytes; a deque would allocate
    // a block for each).
    class Ring {
    public:
        bool empty() const { return size_ == 0; }
        std::size_t size() const { return size_; }
        Held& operator[](std::size_t i) { return slots_[(head_ + i) & (slots_.size() - 1)]; }
        Held& front() { return (*this)[0]; }
        void popFront() {
            head_ = (head_ + 1) & (slots_.size() - 1);
            --size_;
        }
        Held& pushBack() {
            if (size_ == slots_.size()) grow();
            ++size_;
            return (*this)[size_ - 1];
        }

    private:
        void grow() {
            std::vector<Held> bigger(std::max<std::size_t>(64, slots_.size() * 2)); // a power of two
            for (std::size_t i = 0; i < size_; ++i) bigger[i] = (*this)[i];
            slots_.swap(bigger);
            head_ = 0;
        }
        std::vector<Held> slots_;
        std::size_t head_ = 0, size_ = 0;
    };
    Ring held_;
    std::uint64_t firstSeq_ = 0;              // sequence number of held_.front()
    std::vector<IntervalPairing<Open>> open_; // per row: intervals open, per type
    TraceRecord out_;
    FilterCounts own_;
    FilterCounts& counts_; // the caller's, which outlive the stage, or own_
};

} // namespace gpueff::pipeline
