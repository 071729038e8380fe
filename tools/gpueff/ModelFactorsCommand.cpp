#include "engine/common/Error.h"
#include "engine/paraver/OutputFiles.h"
#include "metrics/ModelFactors.h"
#include "reports/ModelFactorsReport.h"
#include "tools/gpueff/Commands.h"

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace gpueff::cli {

namespace {

struct ModelFactorsArgs {
    std::vector<std::string> traces;
    std::string csv, json, md;
    bool quiet = false;
};

int run(const ModelFactorsArgs& a) {
    std::vector<metrics::RunMeasures> runs;
    for (const auto& t : a.traces) {
        if (!a.quiet) std::fprintf(stderr, "measuring %s\n", t.c_str());
        auto loaded = semantic::LoadedTrace::load(t);
        for (const auto& w : loaded->trace().warnings())
            std::fprintf(stderr, "gpueff: warning: %s\n", w.c_str());
        runs.push_back(metrics::measureRun(*loaded));
    }
    auto factors = metrics::computeModelFactors(std::move(runs));
    auto csv = reports::modelFactorsCsv(factors);
    std::vector<std::filesystem::path> finals;
    std::vector<std::string> texts;
    if (!a.csv.empty()) {
        finals.emplace_back(a.csv);
        texts.push_back(csv);
    }
    if (!a.json.empty()) {
        finals.emplace_back(a.json);
        texts.push_back(dumpJson(reports::modelFactorsJson(factors)));
    }
    if (!a.md.empty()) {
        finals.emplace_back(a.md);
        texts.push_back(reports::modelFactorsMarkdown(factors));
    }
    OutputFiles outputs(finals);
    for (std::size_t i = 0; i < finals.size(); ++i) {
        std::ofstream out(outputs.temporary(i));
        out << texts[i];
        out.close();
        if (!out) throw Error(finals[i].string() + ": cannot write");
    }
    outputs.commit();
    if (finals.empty()) std::fputs(csv.c_str(), stdout);
    return 0;
}

} // namespace

Action addModelFactors(CLI::App& app) {
    auto args = std::make_shared<ModelFactorsArgs>();
    auto* cmd = app.add_subcommand(
        "modelfactors",
        "POP model factors of CPU runs of one application at different process counts (Paraver traces with\n"
        "state Running and, for IPC and frequency, PAPI_TOT_INS/PAPI_TOT_CYC): parallel efficiency = load\n"
        "balance x communication efficiency, computation scalability, global efficiency, IPC, instruction "
        "and\n"
        "frequency scalability, speedup; in BSC basicanalysis' csv layout. Without --csv/--json/--md the "
        "csv\n"
        "goes to stdout.");
    cmd->add_option("traces", args->traces, "Paraver traces (.prv or .prv.gz), one per process count")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--csv", args->csv, "write the csv table to FILE");
    cmd->add_option("--json", args->json, "write the factors as JSON to FILE");
    cmd->add_option("--md", args->md, "write a Markdown table to FILE");
    cmd->add_flag("-q,--quiet", args->quiet, "no progress messages");
    return [args] { return run(*args); };
}

} // namespace gpueff::cli
