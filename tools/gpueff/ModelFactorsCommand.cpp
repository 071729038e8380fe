#include "jobs/ModelFactorsJob.h"
#include "tools/gpueff/Commands.h"

namespace gpueff::cli {

Action addModelFactors(CLI::App& app) {
    auto args = std::make_shared<jobs::ModelFactorsRequest>();
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
    return [args] { return jobs::runModelFactors(*args); };
}

} // namespace gpueff::cli
