#include "jobs/DashboardJob.h"
#include "tools/gpueff/Commands.h"

#include <algorithm>
#include <memory>

namespace gpueff::cli {

namespace {

struct DashboardArgs {
    std::vector<std::string> inputs, gates;
    std::string outDir, labels, runsFile, orderBy = "start", reference, scaling, metrics;
    bool quiet = false;
};

} // namespace

Action addDashboard(CLI::App& app) {
    auto args = std::make_shared<DashboardArgs>();
    auto* cmd = app.add_subcommand(
        "dashboard",
        "Make a static web site of many runs (SITE/index.html; opens from file:// and on any static\n"
        "host, offline): the runs as a table, their efficiency factors (both NCCL conventions),\n"
        "iteration time and global efficiency over the runs as zoomable charts with regressions marked\n"
        "by the significance test of `compare --gate` (each run against the one before), badges of the\n"
        "latest run (SITE/badges/*.svg), scaling studies (scaling.html) and one page per run\n"
        "(run.html?run=ID) with everything report.md says. --metrics writes the flat export for other\n"
        "dashboards. Reports that cannot be read are named and skipped. docs/dashboard.md");
    cmd->add_option("inputs", args->inputs,
                    "report.json files, directories written by `gpueff analyze -o DIR`, compare.json files,\n"
                    "or directories searched for report.json and compare.json")
        ->required();
    cmd->add_option("-o,--output", args->outDir, "the site directory SITE (created when missing)")
        ->required();
    cmd->add_option("--labels", args->labels,
                    "comma-separated run names, one per report in the order found (default: the runs\n"
                    "file's label, else the directory name of each DIR/report.json)");
    cmd->add_option(
           "--runs", args->runsFile,
           "runs.json or runs.csv: per run (its report.json, directory or label) its label, commit,\n"
           "date, branch, gpus and free tags (docs/dashboard.md \"Runs file\")")
        ->check(CLI::ExistingFile);
    cmd->add_option("--order-by", args->orderBy,
                    "start (the trace's UTC session start; default), label, file (as given) or date (the\n"
                    "runs file's)")
        ->check(CLI::IsMember({"start", "label", "file", "date"}));
    cmd->add_option("--ref", args->reference,
                    "the label of the run the comparative factors (speedup, global efficiency) are against\n"
                    "(default: the first run)");
    cmd->add_option(
           "--gate", args->gates,
           "a condition of `compare --gate` (e.g. iteration_time<=+3%), repeatable, checked on each\n"
           "run against the run before it: a failure beyond the run-to-run noise marks a regression\n"
           "(default: iteration_time<=+1%, a significant slowdown of more than 1 %)")
        ->allow_extra_args(false);
    cmd->add_option("--scaling", args->scaling,
                    "a tag (or branch, commit, date, gpus) grouping runs into scaling studies on\n"
                    "scaling.html (default: all runs, when their device counts differ)");
    cmd->add_option("--metrics", args->metrics,
                    "also write FILE.csv or FILE.jsonl: one row per run x level (run, iteration, phase) x\n"
                    "device x NCCL convention (docs/dashboard.md \"Flat metrics\")");
    cmd->add_flag("-q,--quiet", args->quiet, "no progress or summary lines");
    return [args] {
        jobs::DashboardRequest request;
        request.inputs = args->inputs;
        request.outDir = args->outDir;
        request.labels = labelList(args->labels);
        request.runsFile = args->runsFile;
        request.orderBy = args->orderBy;
        request.reference = args->reference;
        request.scalingTag = args->scaling;
        request.metricsFile = args->metrics;
        request.quiet = args->quiet;
        if (!args->metrics.empty()) {
            auto ext = std::filesystem::path(args->metrics).extension();
            if (ext != ".csv" && ext != ".jsonl")
                throw UsageError("--metrics " + args->metrics + ": the file name ends in .csv or .jsonl");
        }
        request.gates = parseGates(args->gates);
        return jobs::runDashboard(request);
    };
}

} // namespace gpueff::cli
