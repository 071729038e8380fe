#include "jobs/CompareJob.h"
#include "tools/gpueff/Commands.h"

#include <memory>

namespace gpueff::cli {

namespace {

struct CompareArgs {
    std::vector<std::string> inputs;
    std::string outDir, labels;
    bool weak = false, quiet = false;
};

// --labels "a,b,c": one non-empty name per input, in order (empty when the option is not given).
std::vector<std::string> givenLabels(const CompareArgs& a) {
    std::vector<std::string> out;
    if (a.labels.empty()) return out;
    std::size_t start = 0;
    while (true) {
        auto comma = a.labels.find(',', start);
        out.push_back(a.labels.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (out.size() != a.inputs.size())
        throw UsageError("--labels gives " + std::to_string(out.size()) + " labels for " +
                         std::to_string(a.inputs.size()) + " reports");
    for (std::size_t i = 0; i < out.size(); ++i)
        if (out[i].empty()) throw UsageError("--labels: label " + std::to_string(i + 1) + " is empty");
    return out;
}

} // namespace

Action addCompare(CLI::App& app) {
    auto args = std::make_shared<CompareArgs>();
    auto* cmd = app.add_subcommand(
        "compare",
        "Compare runs (reports of `gpueff analyze`, or traces) into DIR/compare.md, DIR/compare.json\n"
        "and DIR/plots/*.svg: side-by-side device efficiencies (both NCCL conventions) with differences\n"
        "from the first run in percentage points; when the device counts differ, speedup,\n"
        "computational scalability and global efficiency against the run with the fewest devices,\n"
        "and with 3 or more distinct counts each factor fitted as a + b log2(n) and extrapolated to\n"
        "2x and 4x the largest count; the kernels that changed most against the first run, GPU gaps,\n"
        "host offload and MPI efficiency, iterations and phases.");
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
    cmd->add_flag("-q,--quiet", args->quiet, "do not list the files written");
    return [args] {
        if (args->inputs.size() < 2) throw UsageError("compare needs at least two reports");
        // Checked before any trace is analyzed: a usage error should not wait for an analysis.
        jobs::CompareRequest request{args->inputs, givenLabels(*args), args->outDir, args->weak, args->quiet};
        return jobs::runCompare(request);
    };
}

} // namespace gpueff::cli
