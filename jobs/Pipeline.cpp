#include "jobs/Pipeline.h"

#include "engine/common/Error.h"
#include "engine/output/OutputFiles.h"

#include <cstdio>
#include <unistd.h>

namespace gpueff::jobs {

namespace {

pipeline::PrvSourceSummary readParaver(const PipelineRequest& request, pipeline::RecordSink& head) {
    const auto& input = request.import.inputs.front();
    pipeline::PrvSourceOptions o;
    bool tty = request.import.progress && ::isatty(STDERR_FILENO);
    if (tty)
        o.progress = [&request, &input](std::uint64_t done, std::uint64_t total) {
            if (total > 0)
                std::fprintf(stderr, "\r%s: %.0f%% of %s (%.0f MB)\x1b[K", request.command.c_str(),
                             100.0 * static_cast<double>(done) / static_cast<double>(total), input.c_str(),
                             static_cast<double>(total) / 1e6);
        };
    auto s = pipeline::streamPrv(input, head, o);
    if (tty) std::fputs("\r\x1b[K", stderr);
    return s;
}

using Log = std::function<void(const std::string&)>;

// A Paraver trace, streamed as it is.
void runParaver(const PipelineRequest& request, pipeline::SinkChain& chain, output::OutputFiles&, const Log&,
                PipelineResult& result) {
    if (request.import.inputs.size() > 1)
        throw Error(request.command + " takes one Paraver trace, got " +
                    std::to_string(request.import.inputs.size()) + " inputs");
    result.prv = readParaver(request, chain.head());
    result.records = result.prv.records;
}

// nsys exports and reports, Kineto traces: the nsys importer, with its sidecar when asked.
void runTranslation(const PipelineRequest& request, pipeline::SinkChain& chain, output::OutputFiles& files,
                    const Log& log, PipelineResult& result) {
    nsys::TranslateOutputs out;
    out.chain = &chain;
    out.rowOrderOnly = request.rowOrderOnly;
    out.localOnly = request.localOnly;
    out.rowOrder = request.rowOrder;
    const auto& prefix = request.chain.prefix;
    if (!prefix.empty()) {
        // A translation (with its sidecar) names the .row's application after its outputs; a cut or a filter
        // of exports keeps the input's name, as a cut of a trace keeps that trace's .row.
        if (request.sidecar) out.application = prefix.filename().string();
        out.prvName = pipeline::withExtension(prefix, ".prv").filename().string();
    }
    if (request.sidecar && !prefix.empty()) {
        out.sidecarFile = pipeline::withExtension(prefix, ".json");
        out.sidecarPath = files.temporary(files.add(out.sidecarFile));
    }
    result.translation = nsys::translate(request.import, log, out);
    result.records = result.translation.records;
}

// How each registered format (engine/import) is read into the chain: a new importer is a row there and here.
struct ImporterRun {
    import::InputFormat format;
    void (*run)(const PipelineRequest&, pipeline::SinkChain&, output::OutputFiles&, const Log&,
                PipelineResult&);
};
constexpr ImporterRun kImporterRuns[] = {
    {import::InputFormat::NsysExport, runTranslation},
    {import::InputFormat::NsysReport, runTranslation},
    {import::InputFormat::KinetoTrace, runTranslation},
    {import::InputFormat::ParaverTrace, runParaver},
};

} // namespace

PipelineResult runPipeline(const PipelineRequest& request, output::OutputFiles& files, const Log& log) {
    if (request.import.inputs.empty()) throw Error(request.command + ": no input given");
    PipelineResult result;
    const auto& first = request.import.inputs.front();
    result.format = request.import.images.empty() ? import::importerOf(import::exportedInput(first)).format
                                                  : import::InputFormat::NsysExport;
    pipeline::SinkChain chain(files, request.chain);
    for (const auto& importer : kImporterRuns)
        if (importer.format == result.format) importer.run(request, chain, files, log, result);
    result.traceBytes = chain.traceBytes();
    return result;
}

void printStages(const std::string& group, const std::vector<StageTime>& stages) {
    for (const auto& stage : stages)
        std::printf("stage=%s.%s wall_s=%.4f cpu_s=%.4f on_workers=%d peak_rss_mb=%.1f\n", group.c_str(),
                    stage.name.c_str(), stage.wallSeconds, stage.cpuSeconds, stage.parallel ? 1 : 0,
                    static_cast<double>(stage.peakBytes) / (1 << 20));
}

} // namespace gpueff::jobs
