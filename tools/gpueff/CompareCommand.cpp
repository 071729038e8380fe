#include "engine/common/Error.h"
#include "jobs/CompareJob.h"
#include "tools/gpueff/Commands.h"

#include <memory>

namespace gpueff::cli {

namespace {

struct CompareArgs {
    std::vector<std::string> inputs, gates;
    std::string outDir, labels, reference, junit;
    bool weak = false, quiet = false;
};

// --labels "a,b,c": one non-empty name per input, in order (empty when the option is not given).
std::vector<std::string> givenLabels(const CompareArgs& a) {
    auto out = labelList(a.labels);
    if (!out.empty() && out.size() != a.inputs.size())
        throw UsageError("--labels gives " + std::to_string(out.size()) + " labels for " +
                         std::to_string(a.inputs.size()) + " reports");
    return out;
}

} // namespace

Action addCompare(CLI::App& app) {
    auto args = std::make_shared<CompareArgs>();
    auto* cmd = app.add_subcommand(
        "compare",
        "Compare runs (reports of `gpueff analyze`, or traces) into DIR/compare.md, DIR/compare.json\n"
        "and DIR/plots/*.svg. Per steady iteration when every run has steady iterations, else per\n"
        "window: a verdict for each run against the reference (faster or slower by how much, with a\n"
        "95 % interval from the iterations, and the parts of the POP split that explain it), the\n"
        "comparative POP factors (speedup, computational and global efficiency, any device counts),\n"
        "where the device time went, the work per iteration; the device efficiencies over the\n"
        "windows; when the device counts differ, the scaling table, and with 3 or more counts each\n"
        "factor fitted as a + b log2(n); the kernels that changed most, GPU gaps, host offload and MPI\n"
        "efficiency, iterations and phases. Exit status 4 when a --gate fails (outputs written).");
    cmd->add_option(
           "reports", args->inputs,
           "two or more report.json files, directories written by `gpueff analyze -o DIR`, or traces\n"
           "(nsys exports, Kineto traces, Paraver traces written by gpueff or nsys2prv), analyzed on the way "
           "with default "
           "options")
        ->required();
    cmd->add_option("-o,--output", args->outDir,
                    "output directory DIR (created when missing): compare.md, compare.json, plots/*.svg")
        ->required();
    cmd->add_option(
        "--labels", args->labels,
        "comma-separated run names, one per report, in order (default: the directory name of each\n"
        "DIR/report.json, else the file name)");
    cmd->add_flag(
        "--weak", args->weak,
        "weak scaling (the problem grows with the devices): computational scalability is multiplied\n"
        "by n(run) / n(reference); default: strong scaling");
    cmd->add_option("--ref", args->reference,
                    "the label of the run the others are compared against (default: the first run, or the\n"
                    "one with the fewest devices when the counts differ)");
    cmd->add_option("--gate", args->gates,
                    "a condition for CI, repeatable: FIGURE OP NUMBER[UNIT] on every run against the\n"
                    "reference, e.g. iteration_time<=+3%, parallel_efficiency>=-2pp,\n"
                    "computational_efficiency>=0.97 (units: % relative change, pp points, ns/us/ms/s a\n"
                    "time change, none the value; FIGURE@nccl_as_useful for the other convention). Fails\n"
                    "when broken beyond the run-to-run noise; any failure makes the exit status 4")
        ->allow_extra_args(false); // one condition per --gate: the reports may follow
    cmd->add_option("--junit", args->junit, "also write the gates as a JUnit XML file (for CI test reports)");
    cmd->add_flag("-q,--quiet", args->quiet, "do not list the files written");
    return [args] {
        if (args->inputs.size() < 2) throw UsageError("compare needs at least two reports");
        // Checked before any trace is analyzed: a usage error should not wait for an analysis.
        jobs::CompareRequest request{args->inputs, givenLabels(*args), args->outDir, args->weak,
                                     args->quiet,  args->reference,    {},           args->junit};
        request.gates = parseGates(args->gates);
        if (!args->junit.empty() && args->gates.empty())
            throw UsageError("--junit needs at least one --gate");
        return jobs::runCompare(request);
    };
}

} // namespace gpueff::cli
