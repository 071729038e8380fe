#pragma once
// The back half of every command's pipeline, built once from what the command asks for: stages -> Tee ->
// sinks (the trace files PREFIX.prv/.pcf/.row, the analysis, any other RecordSink) -> the caller's output
// set. translate, analyze, cut and filter build it here, whatever their input's format; the importer only
// streams into head() (paraver-kernel's edit chain, parse -> cut -> filter -> write, is the model).
#include "engine/pipeline/PrvSink.h"
#include "engine/pipeline/RecordSink.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <vector>

namespace gpueff::pipeline {

// Makes a stage around the sink after it (cut, filter).
using StageFactory = std::function<std::unique_ptr<RecordSink>(RecordSink& next)>;

struct ChainRequest {
    std::filesystem::path prefix;     // PREFIX.prv/.pcf/.row added to the output set; empty: no trace files
    std::vector<StageFactory> stages; // first = nearest the importer
    std::vector<RecordSink*> sinks;   // beside the trace files, after the stages (the analysis)
    // Between the stages and the trace files only (what the written trace says differently from the stream,
    // e.g. a comment line): made around the .prv writer.
    StageFactory traceEdit;
};

class SinkChain {
public:
    // Adds the trace files to `files` (uncommitted: the caller commits them with its other outputs).
    SinkChain(output::OutputFiles& files, ChainRequest request);
    SinkChain(const SinkChain&) = delete;
    SinkChain& operator=(const SinkChain&) = delete;

    RecordSink& head() { return *head_; }
    bool writesTrace() const { return prv_ != nullptr; }
    bool hasStages() const { return !stages_.empty(); }
    std::uint64_t traceBytes() const { return prv_ ? prv_->bytes() : 0; }

private:
    std::unique_ptr<PrvSink> prv_;
    std::unique_ptr<RecordSink> traceEdit_;
    std::unique_ptr<Tee> tee_;
    std::vector<std::unique_ptr<RecordSink>> stages_;
    RecordSink* head_ = nullptr;
};

} // namespace gpueff::pipeline
