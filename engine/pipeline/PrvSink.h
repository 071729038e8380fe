#pragma once
#include "engine/output/OutputFiles.h"
#include "engine/pipeline/RecordSink.h"

#include <filesystem>
#include <memory>

namespace gpueff::pipeline {

// Writes the stream as PREFIX.prv, PREFIX.pcf and PREFIX.row: added to the caller's output set at
// construction (in that order), committed by the caller with its other outputs.
class PrvSink : public RecordSink {
public:
    PrvSink(output::OutputFiles& files, std::filesystem::path prefix);
    ~PrvSink() override;
    void begin(const StreamInfo& info) override;
    void consume(const TraceRecord& record) override { writer_->write(record); }
    void end(const StreamLabels& labels) override;

    std::size_t prvFile() const { return prv_; } // index in the output set; .pcf and .row follow
    std::uint64_t bytes() const { return bytes_; }

private:
    output::OutputFiles& files_;
    std::filesystem::path prefix_;
    std::size_t prv_;
    std::unique_ptr<paraver::PrvWriter> writer_;
    std::uint64_t bytes_ = 0;
};

// PREFIX + ext: PREFIX.prv, PREFIX.pcf, PREFIX.json beside them.
std::filesystem::path withExtension(std::filesystem::path prefix, const char* ext);

// Writes one of the stream's label files through `write` into `path` (errors name `shown`).
void writeLabelFile(const std::function<void(std::FILE*)>& write, const std::filesystem::path& path,
                    const std::filesystem::path& shown);

} // namespace gpueff::pipeline
