// `gpueff filter`: a run (nsys exports or a Paraver trace) with only some records, as a Paraver trace.
#include "engine/paraver/PrvParser.h"
#include "engine/paraver/RowModel.h"
#include "engine/paraver/TraceHeader.h"
#include "engine/paraver/TraceLabels.h"
#include "engine/pipeline/FilterStage.h"
#include "engine/pipeline/PrvSource.h"
#include "tools/gpueff/Commands.h"
#include "tools/gpueff/TraceStream.h"

#include <cstdio>
#include <optional>

namespace gpueff::cli {

namespace {
struct FilterArgs {
    TraceStreamJob job;
    std::string only, skip, types, dropTypes, tasks, devices;
    std::optional<std::int64_t> minDuration;
};
} // namespace

Action addFilter(CLI::App& app) {
    auto args = std::make_shared<FilterArgs>();
    args->job.command = "filter";
    auto* cmd = app.add_subcommand(
        "filter",
        "Keep part of a run's records, as Paraver's filter does, streaming: nsys exports (translated on the "
        "way) or one Paraver trace of any writer -> PREFIX.prv/.pcf/.row. Criteria combine (a record is kept "
        "when it passes all): record kinds (--only/--skip, nsys exports), event types (--types/--drop-types: "
        "pairs of other types are removed, an event left without pairs too), the minimum duration of "
        "kernels, "
        "calls and ranges (--min-duration), tasks (--tasks) and GPU devices (--devices). The header keeps "
        "every "
        "object, so the .row stays valid and rows without records stay empty.");
    addStreamInputs(cmd, args->job);
    addKindOptions(cmd, args->only, args->skip);
    cmd->add_option("--types", args->types,
                    "keep only events of these types: numbers and inclusive ranges, e.g. 63000006,9400-9499 "
                    "(states and communications stay)");
    cmd->add_option("--drop-types", args->dropTypes, "remove events of these types (same syntax)");
    cmd->add_option(
           "--min-duration", args->minDuration,
           "drop kernels, memory operations, CUDA/MPI/OS calls, synchronizations and NVTX ranges shorter "
           "than this (trace time: ns for gpueff traces and nsys exports), their begin and end records "
           "both")
        ->check(nanosecondsValidator());
    cmd->add_option(
        "--tasks", args->tasks,
        "keep the rows of these tasks (1-based, as in the header; e.g. 1,3-4); communications are kept "
        "when both ends are");
    cmd->add_option("--devices", args->devices,
                    "keep, of the GPU rows (CUDA-D<d>.S<s> and Metrics GPU<d>), those of these CUDA devices "
                    "(e.g. 0,2); CPU rows stay");
    cmd->add_flag("-q,--quiet", args->job.quiet, "no progress and no summary");
    cmd->add_flag("--stats", args->job.stats, "print input MB/s (for benchmarks)");
    return [args] {
        auto& job = args->job;
        job.only = splitList(args->only);
        job.skip = splitList(args->skip);
        pipeline::FilterOptions o;
        if (!args->types.empty()) o.keepTypes = parseRanges(args->types, "--types");
        if (!args->dropTypes.empty()) o.dropTypes = parseRanges(args->dropTypes, "--drop-types");
        if (!args->tasks.empty()) o.tasks = parseRanges(args->tasks, "--tasks");
        if (!args->devices.empty()) o.devices = parseRanges(args->devices, "--devices");
        if (args->minDuration) {
            if (*args->minDuration <= 0 || *args->minDuration > paraver::kMaxTime)
                throw UsageError("--min-duration must be in 1.." + std::to_string(paraver::kMaxTime) +
                                 ", got " + std::to_string(*args->minDuration));
            o.minDuration = args->minDuration;
        }
        bool prv = paraverInput(job);
        if (o.keepTypes.empty() && o.dropTypes.empty() && !o.minDuration && o.tasks.empty() &&
            o.devices.empty() && job.only.empty() && job.skip.empty())
            throw UsageError(
                "filter: nothing to filter: give --types, --drop-types, --min-duration, --tasks, "
                "--devices, --only or --skip");
        if (prv && !o.devices.empty()) {
            // A Paraver trace says which rows are GPU rows of which device in its .row only.
            paraver::TraceLabels labels;
            paraver::readRow(pipeline::companionFile(job.inputs.front(), ".row"), labels, {});
            paraver::GzipFile file(job.inputs.front());
            paraver::LineReader in(file, job.inputs.front());
            o.layout = paraver::layoutFromLabels(paraver::readHeaderLine(in, paraver::kMaxObjects), labels);
        }
        pipeline::FilterCounts counts;
        streamTrace(job, {[&](pipeline::RecordSink& next) {
                        return std::make_unique<pipeline::FilterStage>(next, o, &counts);
                    }});
        if (!job.quiet) {
            std::fprintf(stderr, "gpueff: filter: %llu records kept, %llu dropped",
                         static_cast<unsigned long long>(counts.recordsKept),
                         static_cast<unsigned long long>(counts.recordsDropped));
            if (o.minDuration)
                std::fprintf(stderr, " (%llu intervals shorter than %lld)",
                             static_cast<unsigned long long>(counts.shortIntervals),
                             static_cast<long long>(*o.minDuration));
            std::fputc('\n', stderr);
        }
        return 0;
    };
}

} // namespace gpueff::cli
