#pragma once
#include "engine/paraver/PrvReader.h"
#include "engine/paraver/Trace.h"
#include "engine/pipeline/RecordSink.h"

#include <optional>

namespace gpueff::pipeline {

// How many records each stream row will receive, and how many communications in all, when known before they
// come (ShardSpill counts them as they pass).
struct ExpectedRecords {
    struct Row {
        std::uint64_t states = 0, events = 0, sends = 0, receives = 0;
    };
    std::vector<Row> rows; // by stream row; empty: not known
    std::uint64_t communications = 0;
};

// Keeps the stream in memory as a paraver::Trace (columns per thread, Paraver's walking order built at the
// end), keeping only the event types `options` asks for: the evaluation backend of cfgs and of the analysis.
class TraceBuilder : public RecordSink {
public:
    explicit TraceBuilder(paraver::ReadOptions options = {}) : options_(std::move(options)) {}
    // Sizes the columns once, at begin(), instead of letting them grow by doubling: that holds up to three
    // times a column while it copies, and leaves up to half of it unused.
    void expect(ExpectedRecords expected) { expected_ = std::move(expected); }
    // Only events of these types (inclusive ranges) enter the record streams the cfgs walk; every event
    // stays in the columns. Unset: all.
    void walkOnly(std::vector<std::pair<std::uint32_t, std::uint32_t>> types) { walked_ = std::move(types); }
    // Only these rows (by stream row) get a walking order: a part of a trace replayed with the lines its rows
    // exchange with rows outside it leaves those rows without (Trace::walkingOrder). Unset: all.
    void walkRows(std::vector<bool> streamRows) { walkedRows_ = std::move(streamRows); }
    // The stream's labels are not kept (pcfText() and rowText() stay empty): the parts of one stream share
    // its labels, read once, where each part would hold them again (a name per NVTX range: 100s of MB).
    void skipLabels() { skipLabels_ = true; }
    void begin(const StreamInfo& info) override;
    void consume(const TraceRecord& record) override;
    void end(const StreamLabels& labels) override;

    // After end(): the trace, and the stream's labels as a user reads them in the .pcf and .row (kept as
    // text: the stream's label writers live only until end() returns), kernels by their full names
    // (StreamLabels::fullNamesPcf).
    paraver::Trace takeTrace() { return std::move(trace_); }
    const std::string& pcfText() const { return pcf_; }
    const std::string& rowText() const { return row_; }
    const paraver::TraceLayout& layout() const { return layout_; }

private:
    std::uint32_t thread(std::uint32_t row) const { return threadOfRow_[row]; }
    std::uint32_t cpu(std::uint32_t row, std::uint32_t cpu) const {
        return cpu == paraver::kRowCpu ? cpuOfRow_[row] : cpu;
    }
    void seen(std::int64_t time);
    void reserve();

    paraver::ReadOptions options_;
    paraver::Trace trace_;
    paraver::TraceLayout layout_;
    std::string pcf_, row_;
    std::vector<std::uint32_t> threadOfRow_, cpuOfRow_;
    ExpectedRecords expected_;
    std::optional<std::vector<std::pair<std::uint32_t, std::uint32_t>>> walked_;
    std::optional<std::vector<bool>> walkedRows_;
    bool skipLabels_ = false;
};

} // namespace gpueff::pipeline
