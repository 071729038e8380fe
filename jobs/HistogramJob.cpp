#include "jobs/HistogramJob.h"

#include "engine/common/Error.h"
#include "engine/common/JsonText.h"
#include "engine/paraver/OutputFiles.h"
#include "engine/semantic/HistogramOutput.h"
#include "engine/semantic/LoadedTrace.h"
#include "engine/semantic/TypesRead.h"
#include "engine/semantic/Window.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>

namespace gpueff::jobs {

namespace {

double seconds(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// Each cfg's output in DIR, all or none (OutputFiles).
void writeOutputs(const HistogramRequest& a, const std::vector<semantic::Cfg>& cfgs,
                  const semantic::LoadedTrace& loaded, const std::filesystem::path& dir) {
    OutputFiles outputs({}, dir);
    std::map<std::filesystem::path, std::string> writer; // output -> the cfg writing it
    for (std::size_t i = 0; i < cfgs.size(); ++i) {
        const char* extension = cfgs[i].histogram ? (a.json ? ".json" : ".txt") : ".csv";
        auto final = dir / (cfgs[i].name + extension);
        // Outputs are named after the cfg's file name: a/x.cfg and b/x.cfg would write the same file, the
        // second silently replacing the first. Refused before anything is written.
        if (auto [it, fresh] = writer.emplace(final, a.cfgs[i]); !fresh)
            throw Error(it->second + " and " + a.cfgs[i] + " would both write " + final.string() +
                        "; give cfgs with different file names (or separate runs with different -o)");
        outputs.add(final);
    }
    for (std::size_t i = 0; i < cfgs.size(); ++i) {
        auto cfgStart = std::chrono::steady_clock::now();
        const auto& cfg = cfgs[i];
        for (const auto& w : cfg.warnings) std::fprintf(stderr, "gpueff: warning: %s\n", w.c_str());
        semantic::WindowSet windows(cfg, loaded.context());
        if (!a.quiet)
            for (const auto& w : windows.warnings()) std::fprintf(stderr, "gpueff: warning: %s\n", w.c_str());
        std::ofstream out(outputs.temporary(i));
        if (!out) throw Error(outputs.temporary(i).string() + ": cannot write");
        if (cfg.histogram) {
            auto table = semantic::computeHistogramPlanes(cfg, windows);
            if (a.json)
                out << dumpJson(semantic::histogramJson(table));
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
        for (std::size_t i = 0; i < outputs.size(); ++i)
            std::fprintf(stderr, "%s written\n", outputs.final(i).string().c_str());
}

} // namespace

int runHistogram(const HistogramRequest& a) {
    auto start = std::chrono::steady_clock::now();
    // Parse every cfg first: a broken cfg fails before the (possibly long) trace load.
    std::vector<semantic::Cfg> cfgs;
    for (const auto& path : a.cfgs) cfgs.push_back(semantic::parseCfg(path));
    paraver::ReadOptions options;
    options.lenient = a.lenient;
    // Only the event types some window can see are kept in memory (same numbers, see TypesRead.h). The
    // .pcf is read first for the windows that name types by label.
    {
        paraver::TraceLabels labels;
        paraver::readPcf(semantic::traceStem(a.trace).string() + ".pcf", labels);
        if (auto types = semantic::eventTypesSeen(cfgs, labels)) {
            options.eventTypes = std::move(*types);
            // No range keeps nothing, which ReadOptions reads as "all": a range no type has says none.
            if (options.eventTypes.empty()) options.eventTypes.emplace_back(0, 0);
        }
    }
    auto loaded = semantic::LoadedTrace::load(a.trace, options);
    double loadSeconds = seconds(start);
    for (const auto& w : loaded->trace().warnings()) std::fprintf(stderr, "gpueff: warning: %s\n", w.c_str());
    if (a.stats) std::fprintf(stderr, "load %s: %.3f s\n", a.trace.c_str(), loadSeconds);

    std::filesystem::path dir = a.outputDir;
    std::error_code ec;
    bool created = !std::filesystem::exists(dir, ec);
    std::filesystem::create_directories(dir, ec);
    if (ec) throw Error(dir.string() + ": cannot create the output directory: " + ec.message());
    try {
        writeOutputs(a, cfgs, *loaded, dir);
    } catch (...) {
        if (created) std::filesystem::remove(dir, ec); // only when empty
        throw;
    }
    return 0;
}

} // namespace gpueff::jobs
