// `gpueff analyze`: exports (translated on the way) or a Paraver trace -> report.json, report.md and plots.
#include "engine/semantic/LoadedTrace.h"
#include "jobs/AnalyzeJob.h"
#include "metrics/Analysis.h"
#include "tools/gpueff/Commands.h"

namespace gpueff::cli {

namespace {

// Inputs as given on the command line (none is the sample export in data/); the nsys importer exports a
// .nsys-rep first (engine/import).
nlohmann::json analyzeInputs(jobs::AnalyzeRequest request, jobs::Peers* peers) {
    if (request.inputs.empty()) request.inputs.push_back(GPUEFF_SAMPLE_EXPORT);
    return jobs::analyzeToDirectory(request, peers);
}

} // namespace

Action addAnalyze(CLI::App& app, jobs::Peers* peers) {
    auto args = std::make_shared<jobs::AnalyzeRequest>();
    args->gemm = metrics::kDefaultGemmPattern;
    auto* cmd = app.add_subcommand(
        "analyze",
        "The GPU efficiency model and metrics of a run: device parallel efficiency = load balance x "
        "communication "
        "efficiency x orchestration efficiency (NCCL counted as communication and as useful), kernels in "
        "flight "
        "and queued, communication/computation overlap, per-GEMM tensor-core profile, kernel statistics, GPU "
        "gaps, host offload and MPI efficiency, the nsys stats NVTX, CUDA API and GPU memory summaries; the "
        "same per iteration (NVTX markers or the repeating kernel "
        "sequence) and per phase, stragglers at NCCL collectives, kernels alone vs under communication. "
        "Nsight Systems exports and PyTorch profiler (Kineto) traces are translated into DIR/NAME.prv "
        "(with the cfgs that apply to it in DIR/NAME.cfgs/, for wxparaver) "
        "and analyzed in the same pass (--no-trace: the report only); "
        "writes DIR/report.json (docs/report.md), DIR/report.md and DIR/plots/*.svg. Without inputs, "
        "analyzes "
        "the sample export shipped in data/. Under `mpirun -n R` (a build with MPI), the reports are shared "
        "among the R processes and rank 0 writes the same outputs.");
    cmd->add_option(
           "inputs", args->inputs,
           "nsys SQLite exports or PyTorch profiler (Kineto) traces (.json, .json.gz; several: one run, "
           "merged "
           "like `translate`), or one Paraver trace (.prv/.prv.gz) written by gpueff or by BSC's nsys2prv")
        ->check(CLI::ExistingFile);
    cmd->add_option("-o,--output", args->outDir, "output directory (created when missing)")
        ->capture_default_str();
    cmd->add_option("--name", args->name, "name of the translated trace (default: the first input's stem)")
        ->check(fileNameValidator());
    cmd->add_option("--begin", args->begin, "analysis window begin, trace ns (default: first GPU activity)")
        ->check(nanosecondsValidator());
    cmd->add_option("--end", args->end, "analysis window end, trace ns (default: last GPU activity)")
        ->check(nanosecondsValidator());
    cmd->add_option("--region", args->region, "analysis window = span of the NVTX ranges with this name");
    cmd->add_option(
        "--iterations", args->iterations,
        "regular expression (ECMAScript, case-insensitive, matched whole) of the NVTX range names that mark "
        "iterations; phases are the ranges nested one level inside them (default: " +
            std::string(metrics::kDefaultIterationPattern) + ")");
    cmd->add_option(
           "--iterations-from", args->iterationsFrom,
           "markers: NVTX ranges, else the repeating kernel sequence of the first GPU; gpu: the kernel "
           "sequence only; off: no iterations")
        ->check(CLI::IsMember({"markers", "gpu", "off"}))
        ->capture_default_str();
    cmd->add_option("--gemm-pattern", args->gemm,
                    "regular expression (ECMAScript, case-insensitive, found anywhere in the name) of GEMM "
                    "kernel names for the tensor-core profile")
        ->capture_default_str();
    cmd->add_flag(
        "--no-trace", [args](std::int64_t) { args->writeTrace = false; },
        "do not write the translated trace (NAME.prv/.pcf/.row/.json, NAME.cfgs/), only the report");
    cmd->add_flag("-q,--quiet", args->quiet, "no progress and no summary");
    cmd->add_flag("--stats", args->stats,
                  "print the seconds of each phase (for benchmarks; import_s, the reading of Kineto traces, "
                  "is part of translate_s)");
    addJobsOption(cmd, args->jobs);
    addUnalignedOption(cmd, args->unaligned);
    addMemoryLimitOption(
        cmd, args->memoryLimit,
        "records of nsys exports the analysis holds in memory at a time (default: half the "
        "memory available); beyond it, the analysis reads the trace in parts, one device or "
        "process at a time, from a temporary file in the output directory, and with the trace "
        "files many reports (about 2 MiB each open) are read in turn before they are merged");
    return [args, peers] {
        analyzeInputs(*args, peers);
        return 0;
    };
}

} // namespace gpueff::cli
