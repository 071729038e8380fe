#include "jobs/TraceStreamJob.h"

#include "engine/common/Error.h"
#include "engine/output/OutputFiles.h"
#include "jobs/JobInputs.h"
#include "jobs/Pipeline.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

namespace gpueff::jobs {

namespace {

// Between the stages and the .prv writer: the output is written without a sidecar JSON, so a translation it
// comes from (made with no sidecar, or a trace that has one) names none.
class NoSidecarReference : public pipeline::Stage {
public:
    using Stage::Stage;
    void begin(const pipeline::StreamInfo& info) override {
        auto out = info;
        if (out.provenance.translation) out.provenance.translation->sidecar.clear();
        next_.begin(out);
    }
    void consume(const pipeline::TraceRecord& record) override { next_.consume(record); }
    void end(const pipeline::StreamLabels& labels) override { next_.end(labels); }
};

} // namespace

bool paraverInput(const TraceStreamRequest& request) {
    bool prv = inputKind(request.inputs, request.command) == InputKind::ParaverTrace;
    if (prv && (!request.only.empty() || !request.skip.empty()))
        throw RequestError(request.command +
                           ": --only/--skip select record kinds of nsys exports; for a Paraver trace use "
                           "--types/--drop-types");
    return prv;
}

TraceStreamSummary streamTrace(const TraceStreamRequest& request, const std::vector<StageFactory>& stages,
                               pipeline::RecordSink* sink) {
    bool prv = paraverInput(request);
    auto start = std::chrono::steady_clock::now();
    output::OutputFiles files;
    PipelineRequest pipeline;
    pipeline.command = request.command;
    auto& o = pipeline.import;
    o.inputs.assign(request.inputs.begin(), request.inputs.end());
    o.only = request.only;
    o.skip = request.skip;
    o.streamedKinds = request.streamedKinds;
    o.unaligned = request.unaligned;
    o.progress = !request.quiet;
    o.warn = [](const std::string& line) { std::fprintf(stderr, "gpueff: warning: %s\n", line.c_str()); };
    pipeline.chain.prefix = request.prefix;
    pipeline.chain.stages = stages;
    pipeline.chain.sinks = {sink};
    pipeline.chain.traceEdit = [](pipeline::RecordSink& next) {
        return std::make_unique<NoSidecarReference>(next);
    };
    auto log = [quiet = request.quiet](const std::string& line) {
        if (!quiet) std::fprintf(stderr, "gpueff: %s\n", line.c_str());
    };
    auto result = runPipeline(pipeline, files, log);
    TraceStreamSummary summary;
    summary.records = result.records;
    if (prv) {
        const auto& input = request.inputs.front();
        std::error_code ec;
        auto size = std::filesystem::file_size(input, ec);
        summary.fileBytes = ec ? 0 : size;
        summary.stoppedEarly = result.prv.stoppedEarly;
        summary.bytesRead = result.prv.stoppedEarly ? result.prv.bytesRead : summary.fileBytes;
        if (result.prv.recordsAfterEnd && !request.quiet)
            std::fprintf(stderr, "gpueff: warning: %s: %llu records after the header's end time\n",
                         input.c_str(), static_cast<unsigned long long>(result.prv.recordsAfterEnd));
    }
    const bool written = !request.prefix.empty();
    if (written) {
        files.commit();
        summary.bytesWritten = result.traceBytes;
    }
    summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (written && !request.quiet)
        std::fprintf(stderr, "gpueff: wrote %s.prv (%.1f MB), .pcf and .row in %.2f s\n",
                     request.prefix.c_str(), static_cast<double>(summary.bytesWritten) / 1e6,
                     summary.seconds);
    if (request.stats && written)
        std::printf(
            "records_in=%llu bytes_in=%llu bytes_read=%llu bytes_out=%llu seconds=%.4f MB_per_s=%.1f\n",
            static_cast<unsigned long long>(summary.records),
            static_cast<unsigned long long>(summary.fileBytes),
            static_cast<unsigned long long>(summary.bytesRead),
            static_cast<unsigned long long>(summary.bytesWritten), summary.seconds,
            static_cast<double>(summary.fileBytes) / 1e6 / summary.seconds);
    return summary;
}

} // namespace gpueff::jobs
