// `gpueff analyze`: exports (translated on the way) or a Paraver trace -> report.json, report.md and plots.
#include "engine/common/Error.h"
#include "engine/nsys/Translator.h"
#include "engine/paraver/OutputFiles.h"
#include "engine/semantic/LoadedTrace.h"
#include "metrics/Analysis.h"
#include "reports/ReportJson.h"
#include "reports/ReportMarkdown.h"
#include "tools/gpueff/Commands.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>

namespace gpueff::cli {

namespace {

namespace fs = std::filesystem;

// Inputs as the sidecar of our translation recorded them (path, versions, host, clock offset).
std::vector<reports::ReportInput> sidecarInputs(const fs::path& sidecar) {
    std::vector<reports::ReportInput> out;
    std::ifstream in(sidecar);
    if (!in) return out;
    try {
        auto j = nlohmann::json::parse(in);
        for (const auto& i : j.value("inputs", nlohmann::json::array()))
            out.push_back({i.value("path", ""), i.value("nsys_version", ""), i.value("host", ""),
                           i.value("offset_ns", std::int64_t{0})});
    } catch (const nlohmann::json::exception& e) {
        throw Error(sidecar.string() + ": not a gpueff sidecar: " + e.what());
    }
    return out;
}

} // namespace

Action addAnalyze(CLI::App& app) {
    auto args = std::make_shared<AnalyzeRequest>();
    args->gemm = metrics::kDefaultGemmPattern;
    auto* cmd = app.add_subcommand(
        "analyze",
        "The GPU efficiency model and metrics of a run: device parallel efficiency = load balance x "
        "communication "
        "efficiency x orchestration efficiency (NCCL counted as communication and as useful), kernels in "
        "flight "
        "and queued, communication/computation overlap, per-GEMM tensor-core profile, kernel statistics, GPU "
        "gaps, host offload and MPI efficiency. Nsight Systems exports are first translated into "
        "DIR/NAME.prv; "
        "writes DIR/report.json (docs/report.md), DIR/report.md and DIR/plots/*.svg. Without inputs, "
        "analyzes "
        "the sample export shipped in data/.");
    cmd->add_option("inputs", args->inputs,
                    "nsys SQLite exports (several: one run, merged like `translate`), or one Paraver trace "
                    "(.prv/.prv.gz) written by gpueff")
        ->check(CLI::ExistingFile);
    cmd->add_option("-o,--output", args->outDir, "output directory (created when missing)")
        ->capture_default_str();
    cmd->add_option("--name", args->name, "name of the translated trace (default: the first input's stem)");
    cmd->add_option("--begin", args->begin, "analysis window begin, trace ns (default: first GPU activity)");
    cmd->add_option("--end", args->end, "analysis window end, trace ns (default: last GPU activity)");
    cmd->add_option("--region", args->region, "analysis window = span of the NVTX ranges with this name");
    cmd->add_option("--gemm-pattern", args->gemm,
                    "extended regular expression (case-insensitive) of GEMM kernel names for the tensor-core "
                    "profile")
        ->capture_default_str();
    cmd->add_flag("-q,--quiet", args->quiet, "no progress and no summary");
    cmd->add_flag("--stats", args->stats, "print the seconds of each phase (for benchmarks)");
    return [args] {
        analyzeToDirectory(*args);
        return 0;
    };
}

nlohmann::json analyzeToDirectory(const AnalyzeRequest& request) {
    auto t0 = std::chrono::steady_clock::now();
    auto since = [&t0] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    auto log = [quiet = request.quiet](const std::string& line) {
        if (!quiet) std::fprintf(stderr, "gpueff: %s\n", line.c_str());
    };
    std::vector<fs::path> inputs(request.inputs.begin(), request.inputs.end());
    if (inputs.empty()) inputs.push_back(GPUEFF_SAMPLE_EXPORT);
    fs::path dir = request.outDir;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw Error(dir.string() + ": cannot create the output directory: " + ec.message());

    fs::path prv;
    std::vector<reports::ReportInput> sources;
    std::vector<fs::path> translated; // removed again when the analysis fails
    if (semantic::isParaverTrace(inputs.front())) {
        if (inputs.size() > 1) throw Error("analyze takes one Paraver trace (or several nsys exports)");
        prv = inputs.front();
        sources = sidecarInputs(semantic::traceStem(prv).string() + ".json");
    } else {
        nsys::TranslateOptions o;
        for (const auto& in : inputs) {
            if (semantic::isParaverTrace(in))
                throw Error(in.string() + ": a Paraver trace cannot be mixed with nsys exports");
            o.inputs.push_back(exportedSqlite(in));
        }
        auto stem = request.name.empty() ? inputs.front().stem().string() : request.name;
        o.prefix = dir / stem;
        o.progress = !request.quiet;
        nsys::translate(o, log);
        for (const char* ext : {".prv", ".pcf", ".row", ".json"})
            translated.push_back(o.prefix.string() + ext);
        prv = o.prefix.string() + ".prv";
        sources = sidecarInputs(o.prefix.string() + ".json");
    }
    double translateSeconds = since();
    nlohmann::json report;
    try {
        // Only the event types the cfgs of the analysis read: GPU activity, synchronization, GPU metrics,
        // MPI, and NVTX ranges when a region is asked for.
        paraver::ReadOptions read;
        read.eventTypes = {{63000001, 63000001}, {63000006, 63000009}, {9400, 9499}, {50000001, 50000005}};
        if (!request.region.empty()) read.eventTypes.push_back({9500, 9600 + 100 * 9001});
        auto trace = semantic::LoadedTrace::load(prv, read);
        for (const auto& w : trace->trace().warnings())
            std::fprintf(stderr, "gpueff: warning: %s\n", w.c_str());
        double loadSeconds = since();
        metrics::AnalysisOptions options;
        options.begin = request.begin;
        options.end = request.end;
        options.region = request.region;
        options.gemmPattern = request.gemm;
        auto analysis = metrics::analyze(*trace, options);
        reports::ReportContextInfo info;
        info.prv = prv.string();
        info.inputs = sources;
        info.tasks = trace->context().objects.count(semantic::Level::Task);
        info.threads = trace->context().objects.count(semantic::Level::Thread);
        report = reports::reportJson(analysis, info);
        double analyzeSeconds = since();
        auto rendered = reports::renderMarkdownReport(report);
        std::vector<fs::path> finals{dir / "report.json", dir / "report.md"};
        for (const auto& [rel, text] : rendered.files) {
            finals.push_back(dir / rel);
            fs::create_directories(finals.back().parent_path());
        }
        OutputFiles out(finals);
        writeTextFile(out.temporary(0), out.final(0), report.dump(2) + "\n");
        writeTextFile(out.temporary(1), out.final(1), rendered.markdown);
        for (std::size_t i = 0; i < rendered.files.size(); ++i)
            writeTextFile(out.temporary(i + 2), out.final(i + 2), rendered.files[i].second);
        out.commit();
        double total = since();
        if (!request.quiet) {
            const auto& e = analysis.ncclAsCommunication;
            log("window " + std::to_string(analysis.window.begin) + " .. " +
                std::to_string(analysis.window.end) + " ns (" + analysis.window.source + "), " +
                std::to_string(analysis.activity.devices.size()) + " devices");
            if (e.computable)
                std::fprintf(
                    stderr,
                    "gpueff: parallel efficiency %.1f%% = load balance %.1f%% x communication %.1f%% x "
                    "orchestration %.1f%%\n",
                    100 * e.parallel, 100 * e.loadBalance, 100 * e.communication, 100 * e.orchestration);
            for (const auto& n : analysis.notes) log("note: " + n);
            log("wrote " + (dir / "report.json").string() + ", " + (dir / "report.md").string());
        }
        if (request.stats)
            std::printf("translate_s=%.4f load_s=%.4f analyze_s=%.4f report_s=%.4f total_s=%.4f\n",
                        translateSeconds, loadSeconds - translateSeconds, analyzeSeconds - loadSeconds,
                        total - analyzeSeconds, total);
    } catch (...) {
        for (const auto& p : translated) fs::remove(p, ec);
        throw;
    }
    return report;
}

} // namespace gpueff::cli
