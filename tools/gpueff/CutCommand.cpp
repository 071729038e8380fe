// `gpueff cut`: a time window of a run (nsys exports or a Paraver trace) as a smaller Paraver trace.
#include "jobs/CutJob.h"
#include "tools/gpueff/Commands.h"
#include "tools/gpueff/StreamOptions.h"

namespace gpueff::cli {

namespace {
struct CutArgs {
    jobs::CutRequest request;
    std::string only, skip;
};
} // namespace

Action addCut(CLI::App& app) {
    auto args = std::make_shared<CutArgs>();
    auto& request = args->request;
    request.stream.command = "cut";
    auto* cmd = app.add_subcommand(
        "cut",
        "Cut a time window out of a run, as Paraver's cutter does, streaming: nsys exports (translated on "
        "the way) or one Paraver trace of any writer -> PREFIX.prv/.pcf/.row whose time 0 is the window's "
        "begin (a comment line in the .prv says where it was). Kernels, calls and ranges open at the "
        "window's "
        "begin start at 0 and those open at its end close there, so `gpueff analyze` of the cut trace gives "
        "the device model of that window of the full run; states are clipped, communications kept when both "
        "ends lie in the window. The window: --begin/--end, or the span of an NVTX region (--region, "
        "optionally its k-th occurrence on each thread). A trace gpueff wrote is in time order: its reading "
        "stops at the window's end.");
    addStreamInputs(cmd, request.stream);
    auto* begin = cmd->add_option("--begin", request.begin,
                                  "window begin in trace time (ns for gpueff traces and nsys exports; the "
                                  "trace's unit for other Paraver traces); default 0")
                      ->check(nanosecondsValidator());
    auto* end = cmd->add_option("--end", request.end, "window end in trace time; default the trace's end")
                    ->check(nanosecondsValidator());
    auto* region = cmd->add_option("--region", request.region,
                                   "window = span of the NVTX ranges with this name (from the first begin to "
                                   "the last end, found by a first pass over the input: of nsys exports, "
                                   "over their NVTX ranges only)");
    cmd->add_option("--occurrence", request.occurrence,
                    "with --region: the K-th range of that name on each thread (1 = first), the window "
                    "spanning them on every thread that has one")
        ->needs(region)
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{UINT32_MAX}));
    region->excludes(begin)->excludes(end);
    addKindOptions(cmd, args->only, args->skip);
    cmd->add_flag("-q,--quiet", request.stream.quiet, "no progress and no summary");
    cmd->add_flag("--stats", request.stream.stats, "print input MB/s (for benchmarks)");
    return [args] {
        args->request.stream.only = splitList(args->only);
        args->request.stream.skip = splitList(args->skip);
        jobs::cutTrace(args->request);
        return 0;
    };
}

} // namespace gpueff::cli
