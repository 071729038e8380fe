#include "engine/common/Error.h"
#include "engine/paraver/OutputFiles.h"
#include "engine/semantic/HistogramOutput.h"
#include "engine/semantic/LoadedTrace.h"
#include "engine/semantic/Window.h"
#include "tools/gpueff/Commands.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace gpueff::cli {

namespace {

struct HistogramArgs {
    std::string trace;
    std::vector<std::string> cfgs;
    std::string outputDir = ".";
    int precision = 2;
    bool json = false, lenient = false, quiet = false, stats = false;
};

double seconds(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

int run(const HistogramArgs& a) {
    auto start = std::chrono::steady_clock::now();
    if (a.precision < 0 || a.precision > 20) throw Error("--precision must be between 0 and 20");
    // Parse every cfg first: a broken cfg fails before the (possibly long) trace load.
    std::vector<semantic::Cfg> cfgs;
    for (const auto& path : a.cfgs) cfgs.push_back(semantic::parseCfg(path));
    paraver::ReadOptions options;
    options.lenient = a.lenient;
    auto loaded = semantic::LoadedTrace::load(a.trace, options);
    double loadSeconds = seconds(start);
    for (const auto& w : loaded->trace().warnings()) std::fprintf(stderr, "gpueff: warning: %s\n", w.c_str());
    if (a.stats) std::fprintf(stderr, "load %s: %.3f s\n", a.trace.c_str(), loadSeconds);

    std::filesystem::create_directories(a.outputDir);
    std::vector<std::filesystem::path> finals;
    for (const auto& cfg : cfgs) {
        const char* extension = cfg.histogram ? (a.json ? ".json" : ".txt") : ".csv";
        finals.push_back(std::filesystem::path(a.outputDir) / (cfg.name + extension));
    }
    OutputFiles outputs(finals);
    for (std::size_t i = 0; i < cfgs.size(); ++i) {
        auto cfgStart = std::chrono::steady_clock::now();
        const auto& cfg = cfgs[i];
        for (const auto& w : cfg.warnings) std::fprintf(stderr, "gpueff: warning: %s\n", w.c_str());
        semantic::WindowSet windows(cfg, loaded->context());
        if (!a.quiet)
            for (const auto& w : windows.warnings()) std::fprintf(stderr, "gpueff: warning: %s\n", w.c_str());
        std::ofstream out(outputs.temporary(i));
        if (!out) throw Error(outputs.temporary(i).string() + ": cannot write");
        if (cfg.histogram) {
            auto table = semantic::computeHistogram(cfg, windows);
            if (a.json)
                out << semantic::histogramJson(table).dump(2) << '\n';
            else
                semantic::writeHistogramText(out, table, a.precision);
        } else {
            semantic::writeTimelineCsv(out, windows, windows.size() - 1);
        }
        out.close();
        if (!out) throw Error(outputs.final(i).string() + ": write failed (disk full?)");
        if (a.stats) std::fprintf(stderr, "cfg %s: %.3f s\n", cfg.name.c_str(), seconds(cfgStart));
    }
    outputs.commit();
    if (!a.quiet)
        for (const auto& f : finals) std::fprintf(stderr, "%s written\n", f.string().c_str());
    return 0;
}

} // namespace

Action addHistogram(CLI::App& app) {
    auto args = std::make_shared<HistogramArgs>();
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
                    "decimals of histogram values (default 2; 10 gives paramedir -npr's output)");
    cmd->add_flag("--json", args->json, "write histograms as DIR/<cfg>.json instead of text");
    cmd->add_flag("--lenient", args->lenient, "skip malformed trace lines (counted) instead of failing");
    cmd->add_flag("-q,--quiet", args->quiet, "do not list the files written");
    cmd->add_flag("--stats", args->stats, "print load and per-cfg times on stderr");
    return [args] { return run(*args); };
}

} // namespace gpueff::cli
