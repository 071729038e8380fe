// `gpueff cut`: a time window of a run (nsys exports or a Paraver trace) as a smaller Paraver trace.
#include "engine/nsys/Translator.h"
#include "engine/pipeline/CutStage.h"
#include "engine/pipeline/RegionSpan.h"
#include "tools/gpueff/Commands.h"
#include "tools/gpueff/TraceStream.h"

#include <cstdio>
#include <optional>

namespace gpueff::cli {

namespace {
struct CutArgs {
    TraceStreamJob job;
    std::string only, skip, region;
    std::optional<std::int64_t> begin, end;
    std::optional<std::uint64_t> occurrence;
};
} // namespace

Action addCut(CLI::App& app) {
    auto args = std::make_shared<CutArgs>();
    args->job.command = "cut";
    auto* cmd = app.add_subcommand(
        "cut",
        "Cut a time window out of a run, as Paraver's cutter does, streaming: nsys exports (translated on "
        "the "
        "way) or one Paraver trace of any writer -> PREFIX.prv/.pcf/.row whose time 0 is the window's begin "
        "(a comment line in the .prv says where it was). Kernels, calls and ranges open at the window's "
        "begin "
        "start at 0 and those open at its end close there, so `gpueff analyze` of the cut trace gives the "
        "device model of that window of the full run; states are clipped, communications kept when both "
        "ends lie in the window. The window: --begin/--end, or the span of an NVTX region (--region, "
        "optionally its k-th occurrence on each thread).");
    addStreamInputs(cmd, args->job);
    auto* begin = cmd->add_option("--begin", args->begin,
                                  "window begin in trace time (ns for gpueff traces and nsys exports; the "
                                  "trace's unit for other Paraver traces); default 0")
                      ->check(nanosecondsValidator());
    auto* end = cmd->add_option("--end", args->end, "window end in trace time; default the trace's end")
                    ->check(nanosecondsValidator());
    auto* region = cmd->add_option("--region", args->region,
                                   "window = span of the NVTX ranges with this name (from the first begin to "
                                   "the last end, found by a first pass over the input)");
    cmd->add_option(
           "--occurrence", args->occurrence,
           "with --region: the K-th range of that name on each thread (1 = first), the window spanning "
           "them on every thread that has one")
        ->needs(region)
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{UINT32_MAX}));
    region->excludes(begin)->excludes(end);
    addKindOptions(cmd, args->only, args->skip);
    cmd->add_flag("-q,--quiet", args->job.quiet, "no progress and no summary");
    cmd->add_flag("--stats", args->job.stats, "print input MB/s (for benchmarks)");
    return [args] {
        auto& job = args->job;
        job.only = splitList(args->only);
        job.skip = splitList(args->skip);
        if (args->region.empty() && !args->begin && !args->end)
            throw UsageError("cut: give the window: --begin/--end or --region");
        if (args->begin && args->end && *args->begin >= *args->end)
            throw UsageError("cut: --begin " + std::to_string(*args->begin) + " must be before --end " +
                             std::to_string(*args->end));
        if (args->begin && *args->begin < 0) throw UsageError("cut: --begin must be >= 0");
        paraverInput(job); // usage errors before any work
        std::int64_t from = args->begin.value_or(0);
        std::optional<std::int64_t> to = args->end;
        std::string description =
            job.inputs.size() == 1 ? job.inputs.front() : std::to_string(job.inputs.size()) + " reports";
        if (!args->region.empty()) {
            pipeline::RegionFinder finder(args->region, args->occurrence);
            auto first = job;
            first.prefix.clear();
            first.quiet = true;
            streamTrace(first, {}, &finder);
            std::tie(from, *(to = std::int64_t{})) = finder.span();
            if (from >= *to)
                throw Error("--region '" + args->region + "': the span has no length (" +
                            std::to_string(from) + ")");
            if (!job.quiet)
                std::fprintf(stderr, "gpueff: region '%s'%s: %lld .. %lld\n", args->region.c_str(),
                             args->occurrence ? (" occurrence " + std::to_string(*args->occurrence)).c_str()
                                              : "",
                             static_cast<long long>(from), static_cast<long long>(*to));
            description += " (NVTX region \"" + args->region + "\"" +
                           (args->occurrence ? ", occurrence " + std::to_string(*args->occurrence) : "") +
                           ")";
        }
        pipeline::CutCounts counts;
        streamTrace(job, {[&](pipeline::RecordSink& next) {
                        return std::make_unique<pipeline::CutStage>(next, from, to, description, &counts);
                    }});
        if (!job.quiet) {
            std::fprintf(stderr, "gpueff: cut: %llu records kept\n",
                         static_cast<unsigned long long>(counts.recordsKept));
            if (counts.communicationsCut)
                std::fprintf(stderr,
                             "gpueff: cut: %llu communications crossing the window's bounds left out\n",
                             static_cast<unsigned long long>(counts.communicationsCut));
        }
        if (counts.lateRecords && !job.quiet)
            std::fprintf(
                stderr,
                "gpueff: cut: %llu events before the window came after their thread's first record "
                "inside it (the input is not in time order per thread): the values they leave at the "
                "window's begin are written at time 0\n",
                static_cast<unsigned long long>(counts.lateRecords));
        return 0;
    };
}

} // namespace gpueff::cli
