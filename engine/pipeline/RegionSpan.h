#pragma once
#include "engine/common/IntervalPairing.h"
#include "engine/pipeline/RecordSink.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace gpueff::pipeline {

// A sink that finds the span of the NVTX ranges named `name` in one pass (the first of `gpueff cut
// --region`): ranges of one category nest on a thread under one event type (a value opens a range, 0 closes
// the innermost), so a stack per row and type finds where each one ends. Which values are `name` is known
// from the .pcf at the stream's end, so spans are kept per (type, value) and row: memory grows with the
// distinct range names per row, not with the trace.
//
// Without an occurrence the span runs from the first begin to the last end of every range of that name (as
// `analyze --region`); with occurrence k (1-based) it is the union of the k-th range of that name on each
// thread that has one (iteration k of every rank).
class RegionFinder : public RecordSink {
public:
    RegionFinder(std::string name, std::optional<std::uint64_t> occurrence)
        : name_(std::move(name)), occurrence_(occurrence) {}
    void begin(const StreamInfo& info) override;
    void consume(const TraceRecord& record) override;
    void end(const StreamLabels& labels) override;

    // The span found; throws gpueff::Error when the name is not an NVTX range of the .pcf, never closes, or
    // has fewer occurrences than asked.
    std::pair<std::int64_t, std::int64_t> span() const;

private:
    struct Found {
        std::uint64_t count = 0;                               // ranges opened
        std::int64_t first = INT64_MAX, last = INT64_MIN;      // over every closed range
        std::int64_t kthBegin = INT64_MAX, kthEnd = INT64_MIN; // the occurrence asked for, when closed
    };
    struct Open {
        std::int64_t value, begin;
        std::uint64_t index; // 1-based occurrence of this value on this row
    };
    std::string name_;
    std::optional<std::uint64_t> occurrence_;
    std::string source_;
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::int64_t>, Found> found_; // (type, row, value)
    std::vector<IntervalPairing<Open>> open_;                                       // per row, by type
    std::vector<std::pair<std::uint32_t, std::int64_t>> wanted_;                    // (type, value)
};

} // namespace gpueff::pipeline
