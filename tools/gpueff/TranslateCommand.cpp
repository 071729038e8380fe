#include "engine/common/Error.h"
#include "engine/common/MemorySize.h"
#include "jobs/Pipeline.h"
#include "jobs/TranslateJob.h"
#include "tools/gpueff/Commands.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace gpueff::cli {

namespace {

struct TranslateArgs {
    std::vector<std::string> inputs;
    std::string prefix;
    std::string only, skip;
    bool threadNames = false, quiet = false, stats = false, unaligned = false;
    unsigned jobs = 0;
    std::uint64_t memoryLimit = 0;
};

} // namespace

void addJobsOption(CLI::App* command, unsigned& jobs) {
    command
        ->add_option("-j,--jobs", jobs,
                     "read the reports with N parallel workers (default: one per core, here " +
                         std::to_string(std::max(1u, std::thread::hardware_concurrency())) +
                         "); the output is the same for every N")
        ->type_name("N")
        ->check(CLI::Range(1u, 4096u));
}

void addUnalignedOption(CLI::App* command, bool& unaligned) {
    command->add_flag(
        "--unaligned", unaligned,
        "merge inputs whose clocks cannot be aligned (no session start and no sync point shared "
        "by every input: docs/events.md, Time), each starting at the earliest session start; "
        "without it, several such inputs are refused");
}

Action addTranslate(CLI::App& app) {
    auto args = std::make_shared<TranslateArgs>();
    std::string kinds;
    for (const auto& k : nsys::kindNames()) kinds += (kinds.empty() ? "" : ", ") + k;
    auto* cmd = app.add_subcommand(
        "translate", "Translate Nsight Systems SQLite exports or PyTorch profiler traces (one per rank or "
                     "node) into one Paraver trace PREFIX.prv/.pcf/.row, "
                     "with a PREFIX.json sidecar recording inputs, versions, "
                     "clock offsets, per-kind counts and anything skipped, and in PREFIX.cfgs/ the cfgs of "
                     "gpueff that apply to this trace, made for it (open them with the trace in wxparaver).");
    cmd->add_option("reports", args->inputs,
                    "nsys SQLite exports (.sqlite), .nsys-rep reports when nsys is on PATH, or PyTorch "
                    "profiler (Kineto) "
                    "traces (.json, .json.gz: docs/events.md); several reports are "
                    "merged, clocks aligned by their UTC session start and refined by the end of MPI_Init or "
                    "of the first MPI collective (an input without a session start is placed by those alone)")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("-o,--output", args->prefix,
                    "output prefix: writes PREFIX.prv, PREFIX.pcf, PREFIX.row, PREFIX.json and PREFIX.cfgs/")
        ->required();
    cmd->add_option("--only", args->only, "translate only these record kinds (comma-separated): " + kinds);
    cmd->add_option("--skip", args->skip, "do not translate these record kinds (comma-separated)");
    cmd->add_flag("--thread-names", args->threadNames,
                  "name CPU threads in the .row file with their nsys thread names instead of THREAD 1.t.n");
    cmd->add_flag("-q,--quiet", args->quiet, "no progress line and no summary");
    cmd->add_flag("--stats", args->stats, "print records/s and MB/s of the translation (for benchmarks)");
    addJobsOption(cmd, args->jobs);
    addUnalignedOption(cmd, args->unaligned);
    addMemoryLimitOption(cmd, args->memoryLimit,
                         "memory the reports may hold open at once while their records are merged (default: "
                         "half the memory available); beyond it (about 2 MiB per report), they are read in "
                         "turn and their records wait in a temporary file beside PREFIX until merged");
    return [args] {
        jobs::TranslateRequest request;
        request.prefix = args->prefix;
        auto& o = request.import;
        o.inputs.assign(args->inputs.begin(), args->inputs.end());
        o.only = splitList(args->only);
        o.skip = splitList(args->skip);
        o.threadNames = args->threadNames;
        o.progress = !args->quiet;
        o.jobs = args->jobs;
        o.unaligned = args->unaligned;
        o.memoryLimit = args->memoryLimit ? args->memoryLimit : defaultMemoryLimit();
        auto start = std::chrono::steady_clock::now();
        auto log = [quiet = args->quiet](const std::string& line) {
            if (!quiet) std::fprintf(stderr, "gpueff: %s\n", line.c_str());
        };
        o.warn = [](const std::string& line) { std::fprintf(stderr, "gpueff: warning: %s\n", line.c_str()); };
        auto s = jobs::translateToPrefix(request, log);
        double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!args->quiet)
            std::fprintf(
                stderr,
                "gpueff: wrote %s.prv: %llu records, %zu tasks, %zu threads, %zu nodes, %.3f ms of trace\n",
                args->prefix.c_str(), static_cast<unsigned long long>(s.records), s.tasks, s.threads, s.nodes,
                static_cast<double>(s.durationNs) / 1e6);
        if (args->stats)
            std::printf("records=%llu bytes=%llu seconds=%.4f records_per_s=%.0f MB_per_s=%.1f\n",
                        static_cast<unsigned long long>(s.records), static_cast<unsigned long long>(s.bytes),
                        secs, static_cast<double>(s.records) / secs,
                        static_cast<double>(s.bytes) / 1e6 / secs);
        if (args->stats) jobs::printStages("pass", s.stages);
        return 0;
    };
}

} // namespace gpueff::cli
