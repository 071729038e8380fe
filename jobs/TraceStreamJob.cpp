#include "jobs/TraceStreamJob.h"

#include "engine/common/Error.h"
#include "engine/nsys/ReportExport.h"
#include "engine/nsys/Translator.h"
#include "engine/output/OutputFiles.h"
#include "engine/pipeline/PrvSink.h"
#include "engine/pipeline/PrvSource.h"
#include "jobs/JobInputs.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

namespace gpueff::jobs {

namespace {

// Between the stages and the .prv writer: the output is written without a sidecar JSON, so a comment line
// that points to one (translate's, made with no sidecar or copied from a trace that has one) loses that part.
class NoSidecarComments : public pipeline::Stage {
public:
    using Stage::Stage;
    void begin(const pipeline::StreamInfo& info) override {
        auto out = info;
        for (auto& c : out.comments) c = withoutSidecarReference(c);
        next_.begin(out);
    }
    void consume(const pipeline::TraceRecord& record) override { next_.consume(record); }
    void end(const pipeline::StreamLabels& labels) override { next_.end(labels); }
};

} // namespace

std::string withoutSidecarReference(const std::string& comment) {
    if (comment.rfind("# gpueff ", 0) != 0 || comment.find(" translate: ") == std::string::npos)
        return comment;
    auto see = comment.rfind("; see ");
    return see == std::string::npos ? comment : comment.substr(0, see);
}

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
    std::unique_ptr<pipeline::PrvSink> prvSink;
    std::unique_ptr<NoSidecarComments> comments;
    if (!request.prefix.empty()) {
        prvSink = std::make_unique<pipeline::PrvSink>(files, request.prefix);
        comments = std::make_unique<NoSidecarComments>(*prvSink);
    }
    std::vector<pipeline::RecordSink*> sinks;
    if (comments) sinks.push_back(comments.get());
    if (sink) sinks.push_back(sink);
    pipeline::Tee tee(sinks);
    bool tty = !request.quiet && ::isatty(STDERR_FILENO);
    TraceStreamSummary summary;
    if (prv) {
        const auto& input = request.inputs.front();
        std::vector<std::unique_ptr<pipeline::RecordSink>> made(stages.size());
        pipeline::RecordSink* head = &tee;
        for (std::size_t i = stages.size(); i-- > 0;) {
            made[i] = stages[i](*head);
            head = made[i].get();
        }
        pipeline::PrvSourceOptions o;
        if (tty)
            o.progress = [&request, &input](std::uint64_t done, std::uint64_t total) {
                if (total > 0)
                    std::fprintf(stderr, "\r%s: %.0f%% of %s (%.0f MB)\x1b[K", request.command.c_str(),
                                 100.0 * static_cast<double>(done) / static_cast<double>(total),
                                 input.c_str(), static_cast<double>(total) / 1e6);
            };
        auto s = pipeline::streamPrv(input, *head, o);
        if (tty) std::fputs("\r\x1b[K", stderr);
        std::error_code ec;
        auto size = std::filesystem::file_size(input, ec);
        summary.fileBytes = ec ? 0 : size;
        summary.stoppedEarly = s.stoppedEarly;
        summary.bytesRead = s.stoppedEarly ? s.bytesRead : summary.fileBytes;
        summary.records = s.records;
        if (s.recordsAfterEnd && !request.quiet)
            std::fprintf(stderr, "gpueff: warning: %s: %llu records after the header's end time\n",
                         input.c_str(), static_cast<unsigned long long>(s.recordsAfterEnd));
    } else {
        nsys::TranslateOptions o;
        for (const auto& in : request.inputs) o.inputs.push_back(nsys::exportedSqlite(in));
        o.only = request.only;
        o.skip = request.skip;
        o.streamedKinds = request.streamedKinds;
        o.unaligned = request.unaligned;
        o.progress = !request.quiet;
        o.stages = stages;
        o.warn = [](const std::string& line) { std::fprintf(stderr, "gpueff: warning: %s\n", line.c_str()); };
        auto log = [quiet = request.quiet](const std::string& line) {
            if (!quiet) std::fprintf(stderr, "gpueff: %s\n", line.c_str());
        };
        auto s = nsys::translate(o, log, files, &tee);
        summary.records = s.records;
    }
    if (prvSink) {
        files.commit();
        summary.bytesWritten = prvSink->bytes();
    }
    summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (prvSink && !request.quiet)
        std::fprintf(stderr, "gpueff: wrote %s.prv (%.1f MB), .pcf and .row in %.2f s\n",
                     request.prefix.c_str(), static_cast<double>(summary.bytesWritten) / 1e6,
                     summary.seconds);
    if (request.stats && prvSink)
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
