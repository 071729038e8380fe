#include "engine/common/Error.h"
#include "engine/paraver/OutputFiles.h"
#include "engine/semantic/LoadedTrace.h"
#include "metrics/Analysis.h"
#include "reports/Compare.h"
#include "tools/gpueff/Commands.h"

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace gpueff::cli {

namespace {

namespace fs = std::filesystem;

struct CompareArgs {
    std::vector<std::string> inputs;
    std::string markdown, json, labels;
    bool weak = false, quiet = false;
};

bool isTrace(const std::string& input) {
    return input.ends_with(".sqlite") || input.ends_with(".nsys-rep") || semantic::isParaverTrace(input);
}

// A trace given to compare is analyzed in a scratch directory removed afterwards: only its report is kept.
nlohmann::json analyzeTrace(const std::string& input, std::size_t index) {
    auto scratch = fs::temp_directory_path() /
                   ("gpueff-compare-" + std::to_string(::getpid()) + "-" + std::to_string(index));
    struct Remove {
        fs::path path;
        ~Remove() {
            std::error_code ec;
            fs::remove_all(path, ec);
        }
    } cleanup{scratch};
    AnalyzeRequest request;
    request.inputs = {input};
    request.outDir = scratch.string();
    request.gemm = metrics::kDefaultGemmPattern;
    request.quiet = true;
    std::fprintf(stderr, "gpueff: analyzing %s\n", input.c_str());
    return analyzeToDirectory(request);
}

// A report.json file, or a directory written by `gpueff analyze` that holds one.
fs::path reportPath(const std::string& input) {
    fs::path p(input);
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
        p /= "report.json";
        if (!fs::exists(p, ec))
            throw Error(input + ": directory holds no report.json (run gpueff analyze first)");
    } else if (!fs::exists(p, ec)) {
        throw Error(input + ": no such file or directory");
    }
    return p;
}

nlohmann::json readReport(const fs::path& path) {
    std::ifstream in(path);
    if (!in) throw Error(path.string() + ": cannot read");
    try {
        return nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
        throw Error(path.string() + ": not valid JSON: " + e.what());
    }
}

// The directory name for DIR/report.json (what `analyze -o DIR` names), else the file name without .json.
std::string defaultLabel(const fs::path& path) {
    if (path.filename() == "report.json") {
        auto dir = fs::absolute(path).parent_path().filename().string();
        if (!dir.empty()) return dir;
    }
    return path.stem().string();
}

std::vector<std::string> splitLabels(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string item;
    while (std::getline(in, item, ',')) out.push_back(item);
    return out;
}

int run(const CompareArgs& a) {
    if (a.inputs.size() < 2) throw Error("compare needs at least two reports");
    std::vector<nlohmann::json> reports;
    std::vector<std::string> labels;
    for (const auto& input : a.inputs) {
        if (isTrace(input)) {
            reports.push_back(analyzeTrace(input, reports.size()));
            labels.push_back(fs::path(input).stem().string());
            continue;
        }
        fs::path path = reportPath(input);
        reports.push_back(readReport(path));
        reports::checkReportSchema(reports.back(), path.string());
        labels.push_back(defaultLabel(path));
    }
    if (!a.labels.empty()) {
        labels = splitLabels(a.labels);
        if (labels.size() != a.inputs.size())
            throw Error("--labels gives " + std::to_string(labels.size()) + " labels for " +
                        std::to_string(a.inputs.size()) + " reports");
    }
    // Default labels can collide (two runs/report.json in different parents named alike): number them.
    std::set<std::string> seen;
    for (std::size_t i = 0; i < labels.size(); ++i)
        if (!seen.insert(labels[i]).second) labels[i] += " #" + std::to_string(i + 1);

    reports::CompareOptions options;
    options.weak = a.weak;
    auto comparison = reports::compareReports(reports, labels, options);

    std::vector<fs::path> finals{a.markdown};
    if (!a.json.empty()) finals.emplace_back(a.json);
    OutputFiles outputs(finals);
    writeTextFile(outputs.temporary(0), finals[0], comparison.markdown);
    if (!a.json.empty()) writeTextFile(outputs.temporary(1), finals[1], comparison.json.dump(2) + "\n");
    outputs.commit();
    for (const auto& w : comparison.json["warnings"])
        std::fprintf(stderr, "gpueff: warning: %s\n", w.get<std::string>().c_str());
    if (!a.quiet)
        for (const auto& f : finals) std::fprintf(stderr, "%s written\n", f.string().c_str());
    return 0;
}

} // namespace

Action addCompare(CLI::App& app) {
    auto args = std::make_shared<CompareArgs>();
    auto* cmd = app.add_subcommand(
        "compare",
        "Compare runs (reports of `gpueff analyze`, or traces): side-by-side device efficiencies (both NCCL\n"
        "conventions) with differences from the first run in percentage points, and, when the\n"
        "device counts differ, speedup, computational scalability and global efficiency against\n"
        "the run with the fewest devices.");
    cmd->add_option(
           "reports", args->inputs,
           "two or more report.json files, directories written by `gpueff analyze -o DIR`, or traces\n"
           "(nsys exports, Paraver traces written by gpueff), analyzed on the way with default options")
        ->required();
    cmd->add_option("-o,--output", args->markdown, "write the Markdown comparison to FILE (required)")
        ->required();
    cmd->add_option("--json", args->json, "also write the comparison as JSON to FILE");
    cmd->add_option(
        "--labels", args->labels,
        "comma-separated run names, one per report, in order (default: the directory name of each\n"
        "DIR/report.json, else the file name)");
    cmd->add_flag(
        "--weak", args->weak,
        "weak scaling (the problem grows with the devices): computational scalability is multiplied\n"
        "by n(run) / n(reference); default: strong scaling");
    cmd->add_flag("-q,--quiet", args->quiet, "do not list the files written");
    return [args] { return run(*args); };
}

} // namespace gpueff::cli
