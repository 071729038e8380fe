#include "jobs/HistogramJob.h"
#include "jobs/HistogramPlan.h"
#include "tools/gpueff/Commands.h"

namespace gpueff::cli {

Action addHistogram(CLI::App& app) {
    auto args = std::make_shared<jobs::HistogramRequest>();
    auto* cmd =
        app.add_subcommand("histogram", "Evaluate Paraver cfgs on a Paraver trace, headless, like paramedir: "
                                        "for each cfg write DIR/<cfg>.txt\n"
                                        "(its last histogram, paramedir's tab-separated layout) or, for a "
                                        "cfg without histogram, DIR/<cfg>.csv\n"
                                        "(its last window's timeline: object, begin, duration, value).");
    cmd->add_option("trace", args->trace, "Paraver trace (.prv or .prv.gz; .pcf and .row beside it)")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("cfgs", args->cfgs, "Paraver cfg files (ConfigFile 3.x)")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("-o,--output", args->outputDir, "output directory (default: the current directory)");
    cmd->add_option("--precision", args->precision,
                    "decimals of histogram values (default 2; 10 gives paramedir -npr's output)")
        ->check(CLI::Range(0, 20));
    cmd->add_flag("--json", args->json, "write histograms as DIR/<cfg>.json instead of text");
    cmd->add_flag("--lenient", args->lenient, "skip malformed trace lines (counted) instead of failing");
    cmd->add_flag("-q,--quiet", args->quiet, "do not list the files written");
    cmd->add_flag("--stats", args->stats, "print load and per-cfg times on stderr");
    addMemoryLimitOption(cmd, args->memoryLimit,
                         "memory the trace may take, e.g. 512M, 4G (default: half of MemAvailable); a larger "
                         "trace is read in passes, each keeping a group of rows, with the same outputs");
    return [args] { return jobs::runHistogram(*args); };
}

} // namespace gpueff::cli
