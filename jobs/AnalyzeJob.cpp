#include "jobs/AnalyzeJob.h"

#include "engine/common/Error.h"
#include "engine/common/JsonText.h"
#include "engine/common/MemorySize.h"
#include "engine/common/Parallel.h"
#include "engine/nsys/Translator.h"
#include "engine/output/OutputFiles.h"
#include "engine/paraver/ShortLabels.h"
#include "engine/semantic/LoadedTrace.h"
#include "jobs/Distributed.h"
#include "jobs/JobInputs.h"
#include "jobs/Pipeline.h"
#include "jobs/ShardedAnalysis.h"
#include "jobs/StaleOutputs.h"
#include "jobs/TraceCfgs.h"
#include "metrics/Analysis.h"
#include "reports/BuildReport.h"
#include "reports/ReportMarkdown.h"
#include "reports/model/ReportIo.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <unistd.h>

namespace gpueff::jobs {

namespace {

namespace fs = std::filesystem;

// --memory-limit, or half the memory available now (4 GiB where the system does not say).
std::uint64_t memoryLimit(const AnalyzeRequest& request) {
    if (request.memoryLimit) return request.memoryLimit;
    auto half = defaultMemoryLimit();
    return half ? half : std::uint64_t{4} << 30;
}

// A Paraver trace as semantic::LoadedTrace::load reads it, except that kernels labelled `short [full]` for
// Paraver's histogram headers (a trace gpueff wrote) are named in full: the report of a trace is the report
// of its exports. nsys2prv's plain names stay as they are.
std::unique_ptr<semantic::LoadedTrace> loadForAnalysis(const fs::path& prv,
                                                       const paraver::ReadOptions& read) {
    return semantic::LoadedTrace::load(prv, read, std::nullopt, paraver::useFullKernelNames);
}

// An input of the report as the translation placed it.
reports::ReportInput reportInput(const nsys::ReportOffset& o) {
    const auto& a = o.alignment;
    return {o.input.string(), o.nsysVersion,   o.host,     o.offsetNs,  a.method,
            a.syncPoint,      a.uncertaintyNs, a.evidence, o.utcStartNs};
}

// Inputs as the sidecar of our translation recorded them (path, versions, host, clock offset and alignment),
// and what the report's notes say of them: the rows each input had skipped, how the inputs were merged.
std::vector<reports::ReportInput> sidecarInputs(const fs::path& sidecar, std::vector<std::string>& notes) {
    std::vector<reports::ReportInput> out;
    std::ifstream in(sidecar);
    if (!in) return out;
    try {
        auto j = nlohmann::json::parse(in);
        for (const auto& i : j.value("inputs", nlohmann::json::array())) {
            auto& input = out.emplace_back();
            input.path = i.value("path", "");
            input.nsysVersion = i.value("nsys_version", "");
            input.host = i.value("host", "");
            input.offsetNs = i.value("offset_ns", std::int64_t{0});
            input.alignment = i.value("alignment", "");
            input.syncPoint = i.value("sync_point", "");
            if (i.contains("alignment_uncertainty_ns") && i["alignment_uncertainty_ns"].is_number_integer())
                input.alignmentUncertaintyNs = i["alignment_uncertainty_ns"].get<std::int64_t>();
            input.alignmentEvidence = i.value("alignment_evidence", std::size_t{0});
            if (i.contains("session_utc_ns") && i["session_utc_ns"].is_number_integer())
                input.utcStartNs = i["session_utc_ns"].get<std::int64_t>();
            auto skipped = i.value("skipped_rows", nsys::SkippedRows{});
            auto repaired = i.value("repaired_text", std::map<std::string, std::uint64_t>{});
            for (auto& n : nsys::dataNotes(input.path, skipped, repaired)) notes.push_back(std::move(n));
        }
        for (const auto& w : j.value("warnings", std::vector<std::string>{})) notes.push_back(w);
    } catch (const nlohmann::json::exception& e) {
        throw Error(sidecar.string() + ": not a gpueff sidecar: " + e.what());
    }
    return out;
}

// What the analysis of the exports gives the report, besides the analysis itself.
struct ExportAnalysis {
    std::optional<metrics::Analysis> analysis; // absent on the processes of a distributed run but rank 0
    fs::path prvShown;
    std::vector<reports::ReportInput> sources;
    std::vector<std::string> dataNotes;
    std::size_t tasks = 0, threads = 0;
    double translateSeconds = 0; // the one pass, before the analysis reads its parts
    double importSeconds = 0;    // of it, reading Kineto traces
    std::vector<StageTime> passStages;
    // The trace's cfgs of an earlier run that this one does not write (NAME.cfgs/, jobs/TraceCfgs.h).
    std::unique_ptr<StaleOutputs> staleCfgs;
};

using Log = std::function<void(const std::string&)>;

// The request's options as the analysis takes them, its patterns compiled: a RequestError for one that
// cannot be run, before any input is opened.
metrics::AnalysisOptions analysisOptions(const AnalyzeRequest& request) {
    metrics::AnalysisOptions options;
    options.jobs = workerCount(request.jobs);
    options.begin = request.begin;
    options.end = request.end;
    options.region = request.region;
    options.gemmPattern = userPattern("--gemm-pattern", request.gemm);
    if (!request.iterations.empty())
        options.iterationPattern = userPattern("--iterations", request.iterations);
    if (request.iterationsFrom == "gpu")
        options.iterationSource = metrics::IterationSource::Gpu;
    else if (request.iterationsFrom == "off")
        options.iterationSource = metrics::IterationSource::Off;
    else if (request.iterationsFrom != "markers")
        throw RequestError("--iterations-from '" + request.iterationsFrom +
                           "': expected markers, gpu or off");
    return options;
}

// The exports translated (the trace into `out` unless told not to) and analysed in the same pass; with
// peers, this process's share of a distributed run (jobs/Distributed.h). The spill goes into `dir`.
ExportAnalysis analyzeExports(const AnalyzeRequest& request, metrics::AnalysisOptions options,
                              const fs::path& dir, output::OutputFiles& out, Peers* peers, const Log& log,
                              const Log& warn) {
    ExportAnalysis result;
    auto start = std::chrono::steady_clock::now();
    std::vector<fs::path> inputs(request.inputs.begin(), request.inputs.end());
    bool root = !peers || peers->rank() == 0;
    // The default limit is the machine's state, not the user's choice: said where someone reads it.
    if (!request.memoryLimit && root && !request.quiet && ::isatty(STDERR_FILENO))
        log("memory limit " + std::to_string(memoryLimit(request) >> 20) +
            " MiB (half of the available memory; --memory-limit SIZE to set it)");
    PipelineRequest pipeline;
    pipeline.command = "analyze";
    auto& o = pipeline.import;
    o.inputs = inputs;
    auto stem = request.name.empty() ? inputStem(inputs.front()) : request.name;
    fs::path prefix;
    if (request.writeTrace && root) prefix = dir / stem;
    o.progress = !request.quiet && root;
    o.jobs = request.jobs;
    o.unaligned = request.unaligned;
    o.warn = warn;
    // The processes of one machine share its memory (the maps of the exports each one opens, too).
    o.memoryLimit = request.memoryLimit || !peers
                        ? memoryLimit(request)
                        : memoryLimit(request) / static_cast<std::uint64_t>(peers->sizeOnNode());
    o.spillDirectory = dir;
    // Without the trace files, the analysis needs each row's records in order only: reports read in turn.
    pipeline.rowOrderOnly = !request.writeTrace;
    std::unique_ptr<PeerDistribution> distribution;
    if (peers) {
        distribution = std::make_unique<PeerDistribution>(*peers, inputs, request.writeTrace, log);
        o.distribution = distribution.get();
    }
    // One pass: the merged records go to the .prv writer and, per analysis unit, to a temporary file the
    // analysis then reads a shard at a time.
    ShardedAnalysis sharded(dir);
    std::size_t first = out.size();
    // With the trace, what its cfgs are made from is gathered in the same pass.
    TraceCfgFacts facts;
    pipeline::Tee withFacts({&sharded.sink(), &facts});
    pipeline::RecordSink* analysis = prefix.empty() ? &sharded.sink() : &withFacts;
    pipeline.chain.prefix = prefix;
    pipeline.sidecar = true;
    // The root of a distributed run writing the trace merges every process's records into it; its analysis
    // gets its own records alone, beside the chain.
    if (distribution && distribution->root() && distribution->traceWritten() && !prefix.empty()) {
        pipeline.localOnly = analysis;
    } else if (!prefix.empty() && !distribution) {
        // The analysis beside the trace, fed by the workers that read the reports.
        pipeline.rowOrder = &sharded.sink();
        pipeline.chain.sinks = {&facts};
    } else {
        pipeline.chain.sinks = {analysis};
    }
    auto summary = runPipeline(pipeline, out, log).translation;
    returnFreedMemory(); // the pass's, before the analysis' shards
    if (!prefix.empty()) {
        result.prvShown = out.final(first);
        result.staleCfgs = addTraceCfgs(out, dir, prefix, facts, summary.communicationsByTag);
    }
    for (const auto& i : summary.offsets) {
        // HTA reads a Kineto trace's own microseconds: its rounding is replayed in that clock.
        options.kinetoClockShifts.push_back(
            i.format == import::InputFormat::KinetoTrace ? std::optional(i.offsetNs) : std::nullopt);
        result.sources.push_back(reportInput(i));
        for (auto& n : nsys::dataNotes(i.input.string(), i.skippedRows, i.repairedText))
            result.dataNotes.push_back(std::move(n));
    }
    for (const auto& w : summary.warnings) result.dataNotes.push_back(w);
    result.translateSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.importSeconds = summary.importSeconds;
    result.passStages = summary.stages;
    for (const auto& n : summary.notes) result.dataNotes.push_back(n);
    const auto& shown = request.writeTrace ? result.prvShown : o.inputs.front();
    if (peers) {
        auto whole = wholeTotals(*peers, sharded.totals());
        PeerAnalysis exchange(*peers);
        result.analysis =
            sharded.analyzePart(options, o.memoryLimit, shown, distribution->own(), whole, exchange);
    } else {
        result.analysis = sharded.analyze(options, memoryLimit(request), shown, log);
    }
    for (const auto& w : sharded.warnings()) warn(w);
    semantic::ObjectModel objects(sharded.header());
    result.tasks = objects.count(semantic::Level::Task);
    result.threads = objects.count(semantic::Level::Thread);
    return result;
}

// The translation, the report and the plots are one output set: written into DIR's staging directory
// (DIR locked meanwhile) and moved into place together at the end, so the report always describes the trace
// beside it and a failure leaves DIR as it was.
nlohmann::json analyzeInto(const AnalyzeRequest& request, const metrics::AnalysisOptions& options,
                           const fs::path& dir, Peers* peers) {
    auto t0 = std::chrono::steady_clock::now();
    auto since = [&t0] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    Log log = [quiet = request.quiet](const std::string& line) {
        if (!quiet) std::fprintf(stderr, "gpueff: %s\n", line.c_str());
    };
    // Rows skipped from the inputs are printed even with --quiet: the numbers leave them out.
    Log warn = [](const std::string& line) { std::fprintf(stderr, "gpueff: warning: %s\n", line.c_str()); };
    bool paraverInput = inputKind(request.inputs, "analyze") == InputKind::ParaverTrace;
    output::OutputFiles out({}, dir);
    ExportAnalysis exports;
    double translateSeconds = 0, loadSeconds = 0, importSeconds = 0;
    if (paraverInput) {
        fs::path prv = request.inputs.front();
        exports.prvShown = prv;
        exports.sources = sidecarInputs(semantic::traceStem(prv).string() + ".json", exports.dataNotes);
        // Only the event types the analysis reads.
        paraver::ReadOptions read;
        read.eventTypes = metrics::eventTypesRead();
        auto trace = loadForAnalysis(prv, read);
        translateSeconds = loadSeconds = since();
        for (const auto& w : trace->trace().warnings()) warn(w);
        exports.analysis = metrics::analyze(*trace, options);
        exports.tasks = trace->context().objects.count(semantic::Level::Task);
        exports.threads = trace->context().objects.count(semantic::Level::Thread);
    } else {
        exports = analyzeExports(request, options, dir, out, peers, log, warn);
        translateSeconds = loadSeconds = exports.translateSeconds;
        importSeconds = exports.importSeconds;
    }
    const auto& analysis = exports.analysis;
    const auto& prvShown = exports.prvShown;
    reports::ReportContextInfo info;
    info.prv = prvShown.string();
    info.inputs = exports.sources;
    info.dataNotes = exports.dataNotes;
    info.tasks = exports.tasks;
    info.threads = exports.threads;
    std::vector<StageTime> reportStages;
    StageClock clock(reportStages);
    auto model = reports::buildReport(*analysis, info);
    clock.end("model", false);
    nlohmann::json report = reports::model::writeReport(model);
    clock.end("json", false);
    double analyzeSeconds = since();
    // report.md and its plots render from the model while report.json is written (an error of the JSON's
    // first, as in sequence).
    reports::RenderedReport rendered;
    auto json = out.add(dir / "report.json"), markdown = out.add(dir / "report.md");
    forEachIndex(2, 2, [&](std::size_t i) {
        if (i == 0)
            output::writeTextFile(out.temporary(json), out.final(json),
                                  [&](std::ostream& file) { dumpJson(report, file); });
        else
            rendered = reports::renderMarkdownReport(model);
    });
    clock.end("files", true);
    output::writeTextFile(out.temporary(markdown), out.final(markdown), rendered.markdown);
    for (const auto& [rel, text] : rendered.files) {
        auto i = out.add(dir / rel);
        output::writeTextFile(out.temporary(i), out.final(i), text);
    }
    if (exports.staleCfgs) exports.staleCfgs->moveAside();
    out.commit();
    if (exports.staleCfgs) exports.staleCfgs->commit();
    double total = since();
    if (!request.quiet) {
        const auto& e = analysis->ncclAsCommunication;
        log("window " + std::to_string(analysis->window.begin) + " .. " +
            std::to_string(analysis->window.end) + " ns (" + analysis->window.source + "), " +
            std::to_string(analysis->activity.devices.size()) + " devices");
        if (e.computable)
            std::fprintf(stderr,
                         "gpueff: parallel efficiency %.1f%% = load balance %.1f%% x communication %.1f%% x "
                         "orchestration %.1f%%\n",
                         100 * e.parallel, 100 * e.loadBalance, 100 * e.communication, 100 * e.orchestration);
        for (const auto& n : analysis->notes) log("note: " + n);
        log("wrote " + (dir / "report.json").string() + ", " + (dir / "report.md").string());
    }
    if (request.stats)
        std::printf("import_s=%.4f translate_s=%.4f load_s=%.4f analyze_s=%.4f report_s=%.4f total_s=%.4f\n",
                    importSeconds, translateSeconds, loadSeconds - translateSeconds,
                    analyzeSeconds - loadSeconds, total - analyzeSeconds, total);
    if (request.stats) {
        printStages("pass", exports.passStages);
        printStages("analysis", analysis->stages);
        printStages("report", reportStages);
    }
    return report;
}

} // namespace

nlohmann::json analyzeToDirectory(const AnalyzeRequest& request, Peers* peers) {
    const auto options = analysisOptions(request);
    if (peers && inputKind(request.inputs, "analyze") == InputKind::ParaverTrace)
        throw RequestError("a Paraver trace is analysed by one process: run gpueff analyze without mpirun");
    if (peers && peers->rank() != 0) {
        // The other processes write nothing: their share of the records waits in a temporary file.
        output::OutputFiles none;
        auto quiet = [](const std::string&) {};
        analyzeExports(request, options, fs::temp_directory_path(), none, peers, quiet, quiet);
        return {};
    }
    fs::path dir = request.outDir;
    return output::inOutputDirectory(dir, [&] { return analyzeInto(request, options, dir, peers); });
}

} // namespace gpueff::jobs
