#pragma once
#include "engine/pipeline/RecordSink.h"

#include <cstdint>
#include <deque>
#include <map>
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
    // from rowLabels (the .row's thread names of a Paraver trace).
    TypeRanges tasks, devices;
    std::vector<std::string> rowLabels;
};

// Types whose records come in begin (value not 0) / end (value 0) pairs on one row, the first pair of their
// records: CUDA calls, kernels, graph launches, memory operations, synchronization, MPI calls, NVTX ranges,
// OpenACC, OS runtime and pthread calls.
bool durationType(std::uint32_t type);

// GPU of a row named like gpueff's translations name GPU rows ("CUDA-D<gpu>.S<stream>[.<lane>]" and "Metrics
// GPU<gpu>"), or -1 (CPU threads, other writers' rows).
int gpuOfRowLabel(const std::string& label);

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
    std::deque<Held> held_;
    std::uint64_t firstSeq_ = 0; // sequence number of held_.front()
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<Open>> open_; // (row, type)
    TraceRecord out_;
    FilterCounts own_;
    FilterCounts& counts_; // the caller's, which outlive the stage, or own_
};

} // namespace gpueff::pipeline
