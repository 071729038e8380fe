// `gpueff filter`: a run (nsys exports or a Paraver trace) with only some records, as a Paraver trace.
#include "jobs/FilterJob.h"
#include "tools/gpueff/Commands.h"
#include "tools/gpueff/StreamOptions.h"

#include <optional>

namespace gpueff::cli {

namespace {
struct FilterArgs {
    jobs::FilterRequest request;
    std::string only, skip, types, dropTypes, tasks, devices;
};
} // namespace

Action addFilter(CLI::App& app) {
    auto args = std::make_shared<FilterArgs>();
    auto& request = args->request;
    request.stream.command = "filter";
    auto* cmd = app.add_subcommand(
        "filter",
        "Keep part of a run's records, as Paraver's filter does, streaming: nsys exports (translated on the "
        "way) or one Paraver trace of any writer -> PREFIX.prv/.pcf/.row. Criteria combine (a record is kept "
        "when it passes all): record kinds (--only/--skip, nsys exports), event types (--types/--drop-types: "
        "pairs of other types are removed, an event left without pairs too), the minimum duration of "
        "kernels, calls and ranges (--min-duration), tasks (--tasks) and GPU devices (--devices). The header "
        "keeps every object, so the .row stays valid and rows without records stay empty.");
    addStreamInputs(cmd, request.stream);
    addKindOptions(cmd, args->only, args->skip);
    cmd->add_option("--types", args->types,
                    "keep only events of these types: numbers and inclusive ranges, e.g. 63000006,9400-9499 "
                    "(states and communications stay)");
    cmd->add_option("--drop-types", args->dropTypes, "remove events of these types (same syntax)");
    cmd->add_option(
           "--min-duration", request.filter.minDuration,
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
    cmd->add_flag("-q,--quiet", request.stream.quiet, "no progress and no summary");
    cmd->add_flag("--stats", request.stream.stats, "print input MB/s (for benchmarks)");
    return [args] {
        auto& r = args->request;
        r.stream.only = splitList(args->only);
        r.stream.skip = splitList(args->skip);
        if (!args->types.empty()) r.filter.keepTypes = parseRanges(args->types, "--types");
        if (!args->dropTypes.empty()) r.filter.dropTypes = parseRanges(args->dropTypes, "--drop-types");
        if (!args->tasks.empty()) r.filter.tasks = parseRanges(args->tasks, "--tasks");
        if (!args->devices.empty()) r.filter.devices = parseRanges(args->devices, "--devices");
        jobs::filterTrace(r);
        return 0;
    };
}

} // namespace gpueff::cli
