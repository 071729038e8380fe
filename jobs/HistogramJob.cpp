#include "jobs/HistogramJob.h"

#include "engine/common/Error.h"
#include "engine/common/JsonText.h"
#include "engine/output/OutputFiles.h"
#include "engine/semantic/HistogramOutput.h"
#include "engine/semantic/LoadedTrace.h"
#include "engine/semantic/TypesRead.h"
#include "engine/semantic/Window.h"
#include "jobs/HistogramPlan.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>

namespace gpueff::jobs {

namespace {

double seconds(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

void warn(const std::vector<std::string>& warnings) {
    for (const auto& w : warnings) std::fprintf(stderr, "gpueff: warning: %s\n", w.c_str());
}

// Each cfg's output in DIR, all or none (OutputFiles): a/x.cfg and b/x.cfg would write the same file, the
// second silently replacing the first; refused before anything is written.
void declareOutputs(const HistogramRequest& a, const std::vector<semantic::Cfg>& cfgs,
                    const std::filesystem::path& dir, output::OutputFiles& outputs) {
    std::map<std::filesystem::path, std::string> writer; // output -> the cfg writing it
    for (std::size_t i = 0; i < cfgs.size(); ++i) {
        const char* extension = cfgs[i].histogram ? (a.json ? ".json" : ".txt") : ".csv";
        auto final = dir / (cfgs[i].name + extension);
        if (auto [it, fresh] = writer.emplace(final, a.cfgs[i]); !fresh)
            throw Error(it->second + " and " + a.cfgs[i] + " would both write " + final.string() +
                        "; give cfgs with different file names (or separate runs with different -o)");
        outputs.add(final);
    }
}

std::ofstream openTemporary(const output::OutputFiles& outputs, std::size_t i) {
    std::ofstream out(outputs.temporary(i));
    if (!out) throw Error(outputs.temporary(i).string() + ": cannot write");
    return out;
}

void closeOutput(std::ofstream& out, const output::OutputFiles& outputs, std::size_t i) {
    out.close();
    if (!out) throw Error(outputs.final(i).string() + ": write failed (disk full?)");
}

void writeTables(const HistogramRequest& a, std::ostream& out,
                 const std::vector<semantic::HistogramTable>& t) {
    if (a.json)
        out << dumpJson(semantic::histogramJson(t));
    else
        semantic::writeHistogramText(out, t, a.precision);
}

void commit(const HistogramRequest& a, output::OutputFiles& outputs) {
    outputs.commit();
    if (!a.quiet)
        for (std::size_t i = 0; i < outputs.size(); ++i)
            std::fprintf(stderr, "%s written\n", outputs.final(i).string().c_str());
}

// The whole trace in memory: every cfg evaluated on it in turn.
void evaluateLoaded(const HistogramRequest& a, const std::vector<semantic::Cfg>& cfgs,
                    const semantic::LoadedTrace& loaded, output::OutputFiles& outputs) {
    for (std::size_t i = 0; i < cfgs.size(); ++i) {
        auto cfgStart = std::chrono::steady_clock::now();
        const auto& cfg = cfgs[i];
        warn(cfg.warnings);
        semantic::WindowSet windows(cfg, loaded.context());
        warn(windows.warnings());
        auto out = openTemporary(outputs, i);
        if (cfg.histogram)
            writeTables(a, out, semantic::computeHistogramPlanes(cfg, windows));
        else
            semantic::writeTimelineCsv(out, windows, windows.size() - 1);
        closeOutput(out, outputs, i);
        if (a.stats) std::fprintf(stderr, "cfg %s: %.3f s\n", cfg.name.c_str(), seconds(cfgStart));
    }
    commit(a, outputs);
}

// A trace larger than the memory limit: passes over the file, each loading the records of one group of
// rows. The first round evaluates every group in order (timelines written as they come, histogram cells
// filled, computed column scales folded); histograms whose columns come from every row's values
// (ComputeYScale) fill their cells in a second round, from the last group loaded backwards (that group is
// still in memory).
void evaluateInPasses(const HistogramRequest& a, const std::vector<semantic::Cfg>& cfgs,
                      paraver::ReadOptions options, const PassPlan& plan, output::OutputFiles& outputs) {
    std::vector<std::unique_ptr<semantic::HistogramByRows>> histograms(cfgs.size());
    std::vector<std::ofstream> timelines(cfgs.size());
    for (std::size_t i = 0; i < cfgs.size(); ++i)
        if (!cfgs[i].histogram) timelines[i] = openTemporary(outputs, i);
    std::size_t passes = 1; // the counting pass
    auto load = [&](const semantic::RowGroup& group) {
        auto start = std::chrono::steady_clock::now();
        options.firstThread = group.firstThread;
        options.endThread = group.endThread;
        auto loaded = semantic::LoadedTrace::load(a.trace, options, plan.eventTypes);
        ++passes;
        if (a.stats)
            std::fprintf(stderr, "pass %zu (threads %u to %llu): load %.3f s\n", passes,
                         group.firstThread + 1,
                         static_cast<unsigned long long>(
                             std::min<std::uint64_t>(group.endThread, loaded->trace().threads.size())),
                         seconds(start));
        return loaded;
    };
    std::unique_ptr<semantic::LoadedTrace> loaded;
    bool secondRound = false;
    for (std::size_t g = 0; g < plan.groups.size(); ++g) {
        const auto& group = plan.groups[g];
        loaded.reset(); // the previous group's records go before the next group's come
        loaded = load(group);
        if (g == 0) warn(loaded->trace().warnings());
        for (std::size_t i = 0; i < cfgs.size(); ++i) {
            const auto& cfg = cfgs[i];
            if (g == 0) warn(cfg.warnings);
            semantic::WindowSet windows(cfg, loaded->context());
            if (g == 0) warn(windows.warnings());
            if (!cfg.histogram) {
                semantic::writeTimelineCsv(timelines[i], windows, windows.size() - 1, group);
                continue;
            }
            if (!histograms[i]) histograms[i] = std::make_unique<semantic::HistogramByRows>(cfg, windows);
            histograms[i]->scale(windows, group);
            if (histograms[i]->scaleFirst())
                secondRound = true;
            else
                histograms[i]->add(windows, group);
        }
    }
    if (secondRound)
        for (std::size_t g = plan.groups.size(); g-- > 0;) {
            if (g + 1 != plan.groups.size()) {
                loaded.reset();
                loaded = load(plan.groups[g]);
            }
            for (std::size_t i = 0; i < cfgs.size(); ++i) {
                if (!histograms[i] || !histograms[i]->scaleFirst()) continue;
                semantic::WindowSet windows(cfgs[i], loaded->context());
                histograms[i]->add(windows, plan.groups[g]);
            }
        }
    for (std::size_t i = 0; i < cfgs.size(); ++i) {
        if (!cfgs[i].histogram) {
            closeOutput(timelines[i], outputs, i);
            continue;
        }
        // The tables read labels only: the last group's trace has the same header, .pcf and .row.
        semantic::WindowSet windows(cfgs[i], loaded->context());
        auto out = openTemporary(outputs, i);
        writeTables(a, out, histograms[i]->tables(windows));
        closeOutput(out, outputs, i);
    }
    commit(a, outputs);
    if (!a.quiet)
        std::fprintf(stderr,
                     "gpueff: %s: about %s in memory, more than the memory limit of %s: read in %zu passes "
                     "(1 counting records, %zu for %zu groups of %s rows%s)\n",
                     a.trace.c_str(), memoryText(plan.estimate).c_str(), memoryText(plan.limit).c_str(),
                     passes, passes - 1, plan.groups.size(), semantic::levelName(plan.level),
                     secondRound ? ", twice for histograms with a computed column scale" : "");
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
    if (!std::filesystem::exists(a.trace)) throw Error(a.trace + ": no such trace");
    auto plan = planPasses(a.trace, options, cfgs, a.memoryLimit ? a.memoryLimit : defaultMemoryLimit());
    if (a.stats && plan.counted)
        std::fprintf(stderr, "pass 1 (counting records): %.3f s, about %s in memory\n", seconds(start),
                     memoryText(plan.estimate).c_str());
    if (!plan.wholeTraceWindow.empty())
        std::fprintf(
            stderr,
            "gpueff: warning: %s: about %s in memory, more than the memory limit of %s, but %s needs "
            "every row at once: the trace is loaded whole\n",
            a.trace.c_str(), memoryText(plan.estimate).c_str(), memoryText(plan.limit).c_str(),
            plan.wholeTraceWindow.c_str());
    if (plan.groups.size() > 1 && plan.largestGroup > plan.limit && !a.quiet)
        std::fprintf(stderr,
                     "gpueff: warning: %s: a group of one %s row needs about %s, more than the memory limit "
                     "of %s: it is loaded alone\n",
                     a.trace.c_str(), semantic::levelName(plan.level), memoryText(plan.largestGroup).c_str(),
                     memoryText(plan.limit).c_str());

    std::filesystem::path dir = a.outputDir;
    output::inOutputDirectory(dir, [&] {
        output::OutputFiles outputs({}, dir);
        declareOutputs(a, cfgs, dir, outputs);
        if (plan.groups.size() > 1) {
            evaluateInPasses(a, cfgs, options, plan, outputs);
        } else {
            auto loaded = semantic::LoadedTrace::load(a.trace, options);
            if (a.stats) std::fprintf(stderr, "load %s: %.3f s\n", a.trace.c_str(), seconds(start));
            warn(loaded->trace().warnings());
            evaluateLoaded(a, cfgs, *loaded, outputs);
        }
    });
    return 0;
}

} // namespace gpueff::jobs
