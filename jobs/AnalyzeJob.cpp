#include "jobs/AnalyzeJob.h"

#include "engine/common/Error.h"
#include "engine/common/JsonText.h"
#include "engine/common/MemorySize.h"
#include "engine/nsys/Translator.h"
#include "engine/paraver/OutputFiles.h"
#include "engine/semantic/LoadedTrace.h"
#include "jobs/JobInputs.h"
#include "jobs/ShardedAnalysis.h"
#include "metrics/Analysis.h"
#include "reports/ReportJson.h"
#include "reports/ReportMarkdown.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>

namespace gpueff::jobs {

namespace {

namespace fs = std::filesystem;

// --memory-limit, or half the memory available now (4 GiB where the system does not say).
std::uint64_t memoryLimit(const AnalyzeRequest& request) {
    if (request.memoryLimit) return request.memoryLimit;
    return availableMemory().value_or(std::uint64_t{8} << 30) / 2;
}

// Inputs as the sidecar of our translation recorded them (path, versions, host, clock offset), and the
// rows each input had skipped (notes of the report).
std::vector<reports::ReportInput> sidecarInputs(const fs::path& sidecar, std::vector<std::string>& notes) {
    std::vector<reports::ReportInput> out;
    std::ifstream in(sidecar);
    if (!in) return out;
    try {
        auto j = nlohmann::json::parse(in);
        for (const auto& i : j.value("inputs", nlohmann::json::array())) {
            out.push_back({i.value("path", ""), i.value("nsys_version", ""), i.value("host", ""),
                           i.value("offset_ns", std::int64_t{0})});
            auto skipped = i.value("skipped_rows", nsys::SkippedRows{});
            auto repaired = i.value("repaired_text", std::map<std::string, std::uint64_t>{});
            for (auto& n : nsys::dataNotes(out.back().path, skipped, repaired)) notes.push_back(std::move(n));
        }
    } catch (const nlohmann::json::exception& e) {
        throw Error(sidecar.string() + ": not a gpueff sidecar: " + e.what());
    }
    return out;
}

// The translation, the report and the plots are one output set: written into DIR's staging directory
// (DIR locked meanwhile) and moved into place together at the end, so the report always describes the trace
// beside it and a failure leaves DIR as it was.
nlohmann::json analyzeInto(const AnalyzeRequest& request, const fs::path& dir) {
    auto t0 = std::chrono::steady_clock::now();
    auto since = [&t0] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    auto log = [quiet = request.quiet](const std::string& line) {
        if (!quiet) std::fprintf(stderr, "gpueff: %s\n", line.c_str());
    };
    // Rows skipped from the inputs are printed even with --quiet: the numbers leave them out.
    auto warn = [](const std::string& line) { std::fprintf(stderr, "gpueff: warning: %s\n", line.c_str()); };
    std::vector<fs::path> inputs(request.inputs.begin(), request.inputs.end());
    bool paraverInput = inputKind(request.inputs, "analyze") == InputKind::ParaverTrace;
    OutputFiles out({}, dir);
    metrics::AnalysisOptions options;
    options.begin = request.begin;
    options.end = request.end;
    options.region = request.region;
    options.gemmPattern = request.gemm;

    fs::path prvShown;
    std::vector<reports::ReportInput> sources;
    std::vector<std::string> dataNotes;
    std::optional<metrics::Analysis> analysis;
    std::size_t tasks = 0, threads = 0;
    double translateSeconds = 0, loadSeconds = 0;
    if (paraverInput) {
        prvShown = inputs.front();
        sources = sidecarInputs(semantic::traceStem(prvShown).string() + ".json", dataNotes);
        // Only the event types the cfgs of the analysis read.
        paraver::ReadOptions read;
        read.eventTypes = metrics::eventTypesRead(!request.region.empty());
        auto trace = semantic::LoadedTrace::load(prvShown, read);
        translateSeconds = loadSeconds = since();
        for (const auto& w : trace->trace().warnings()) warn(w);
        analysis = metrics::analyze(*trace, options);
        tasks = trace->context().objects.count(semantic::Level::Task);
        threads = trace->context().objects.count(semantic::Level::Thread);
    } else {
        nsys::TranslateOptions o;
        for (const auto& in : inputs) o.inputs.push_back(in);
        auto stem = request.name.empty() ? inputs.front().stem().string() : request.name;
        if (request.writeTrace) o.prefix = dir / stem;
        o.progress = !request.quiet;
        o.jobs = request.jobs;
        o.warn = warn;
        // One pass: the merged records go to the .prv writer and, per analysis unit, to a temporary file the
        // analysis then reads a shard at a time.
        ShardedAnalysis sharded(!request.region.empty(), dir);
        std::size_t first = out.size();
        auto summary = nsys::translate(o, log, out, &sharded.sink());
        if (request.writeTrace) prvShown = out.final(first);
        for (const auto& i : summary.offsets) {
            sources.push_back({i.input.string(), i.nsysVersion, i.host, i.offsetNs});
            for (auto& n : nsys::dataNotes(i.input.string(), i.skippedRows, i.repairedText))
                dataNotes.push_back(std::move(n));
        }
        translateSeconds = loadSeconds = since();
        for (const auto& w : sharded.warnings()) warn(w);
        analysis = sharded.analyze(options, memoryLimit(request),
                                   request.writeTrace ? prvShown : o.inputs.front(), log);
        semantic::ObjectModel objects(sharded.header());
        tasks = objects.count(semantic::Level::Task);
        threads = objects.count(semantic::Level::Thread);
    }
    reports::ReportContextInfo info;
    info.prv = prvShown.string();
    info.inputs = sources;
    info.dataNotes = dataNotes;
    info.tasks = tasks;
    info.threads = threads;
    nlohmann::json report = reports::reportJson(*analysis, info);
    double analyzeSeconds = since();
    auto rendered = reports::renderMarkdownReport(report);
    auto json = out.add(dir / "report.json"), markdown = out.add(dir / "report.md");
    writeTextFile(out.temporary(json), out.final(json), dumpJson(report));
    writeTextFile(out.temporary(markdown), out.final(markdown), rendered.markdown);
    for (const auto& [rel, text] : rendered.files) {
        auto i = out.add(dir / rel);
        writeTextFile(out.temporary(i), out.final(i), text);
    }
    out.commit();
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
        std::printf("translate_s=%.4f load_s=%.4f analyze_s=%.4f report_s=%.4f total_s=%.4f\n",
                    translateSeconds, loadSeconds - translateSeconds, analyzeSeconds - loadSeconds,
                    total - analyzeSeconds, total);
    return report;
}

} // namespace

nlohmann::json analyzeToDirectory(const AnalyzeRequest& request) {
    fs::path dir = request.outDir;
    std::error_code ec;
    bool created = !fs::exists(dir, ec);
    fs::create_directories(dir, ec);
    if (ec) throw Error(dir.string() + ": cannot create the output directory: " + ec.message());
    try {
        return analyzeInto(request, dir);
    } catch (...) {
        // A directory this run created holds nothing after a failure: remove it too (only when empty).
        if (created) fs::remove(dir, ec);
        throw;
    }
}

} // namespace gpueff::jobs
