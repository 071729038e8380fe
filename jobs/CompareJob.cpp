#include "jobs/CompareJob.h"

#include "engine/common/Error.h"
#include "engine/common/JsonText.h"
#include "engine/import/Importers.h"
#include "engine/output/OutputFiles.h"
#include "jobs/AnalyzeJob.h"
#include "jobs/JobInputs.h"
#include "jobs/StaleOutputs.h"
#include "metrics/Analysis.h"
#include "reports/Compare.h"
#include "reports/ReportSchema.h"
#include "reports/model/ReportIo.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <stdlib.h>
#include <unistd.h>

namespace gpueff::jobs {

namespace {

namespace fs = std::filesystem;

// A trace (analyzed first) rather than a report: anything the importers' registry recognises.
bool isTrace(const std::string& input) {
    return import::sniffInput(input) != nullptr;
}

// A private scratch directory (mkdtemp under $TMPDIR: a fresh name even for concurrent runs), removed with
// everything in it when this object goes, whether the analysis succeeded or threw.
class ScratchDirectory {
public:
    ScratchDirectory() {
        std::error_code ec;
        auto base = fs::temp_directory_path(ec);
        if (ec) throw Error("compare: no temporary directory for analyzing traces: " + ec.message());
        std::string pattern = (base / "gpueff-compare-XXXXXX").string();
        if (!::mkdtemp(pattern.data()))
            throw Error(base.string() +
                        ": cannot create a scratch directory for compare: " + std::strerror(errno));
        path_ = pattern;
    }
    ~ScratchDirectory() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    ScratchDirectory(const ScratchDirectory&) = delete;
    ScratchDirectory& operator=(const ScratchDirectory&) = delete;
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

// A trace given to compare is analyzed in a scratch directory removed afterwards: only its report is kept.
nlohmann::json analyzeTrace(const std::string& input) {
    ScratchDirectory scratch;
    AnalyzeRequest request;
    request.inputs = {input};
    request.outDir = (scratch.path() / "analysis").string();
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
    std::ifstream in(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in && !in.eof()) throw Error(path.string() + ": cannot read");
    return reports::parseReport(text, path.string());
}

// As `analyze -o DIR`: the directory is created when missing, the outputs are staged inside it (DIR locked
// meanwhile) and moved into place together, and a directory this run created is removed again when the run
// fails, so that a failure leaves nothing behind. The plots of an earlier comparison that this one does not
// draw are removed with the commit.
void writeComparison(const reports::Comparison& comparison, const fs::path& dir, const std::string& junit) {
    output::inOutputDirectory(dir, [&] {
        output::OutputFiles outputs({}, dir);
        auto md = outputs.add(dir / "compare.md"), json = outputs.add(dir / "compare.json");
        output::writeTextFile(outputs.temporary(md), outputs.final(md), comparison.markdown);
        output::writeTextFile(outputs.temporary(json), outputs.final(json), dumpJson(comparison.json));
        std::set<std::string> written;
        for (const auto& [relative, text] : comparison.files) {
            auto i = outputs.add(dir / relative);
            output::writeTextFile(outputs.temporary(i), outputs.final(i), text);
            written.insert(relative);
        }
        // Plots of an earlier comparison that this one does not draw go with the commit (back on failure).
        StaleOutputs stale(dir, reports::comparePlotFiles(), written);
        // The JUnit file may lie anywhere (a CI job's report path): its own set, staged with the others and
        // put in place right after them.
        output::OutputFiles junitFile;
        if (!junit.empty()) {
            auto x = junitFile.add(fs::absolute(junit));
            output::writeTextFile(junitFile.temporary(x), junitFile.final(x),
                                  reports::compare::gatesJunit(comparison.gates));
        }
        stale.moveAside();
        outputs.commit();
        stale.commit();
        junitFile.commit();
    });
}

} // namespace

int runCompare(const CompareRequest& a) {
    if (a.inputs.size() < 2) throw Error("compare needs at least two reports");
    if (!a.labels.empty() && a.labels.size() != a.inputs.size())
        throw Error("compare: " + std::to_string(a.labels.size()) + " labels for " +
                    std::to_string(a.inputs.size()) + " reports");
    // The labels first (from the inputs' names), so that a --ref naming no run is refused before any
    // trace is analyzed.
    std::vector<std::string> labels;
    std::vector<bool> traces;
    for (const auto& input : a.inputs) {
        traces.push_back(isTrace(input));
        labels.push_back(traces.back() ? inputStem(input) : reportLabel(reportPath(input)));
    }
    if (!a.labels.empty()) labels = a.labels;
    // Default labels can collide (two runs/report.json in different parents named alike): number them.
    auto seen = numberRepeatedLabels(labels);
    if (!a.reference.empty() && !seen.count(a.reference)) {
        std::string known;
        for (const auto& l : labels) known += (known.empty() ? "\"" : ", \"") + l + "\"";
        throw RequestError("--ref \"" + a.reference + "\": no run has that label (the labels are " + known +
                           ")");
    }
    std::vector<reports::model::Report> reports;
    for (std::size_t i = 0; i < a.inputs.size(); ++i) {
        const auto& input = a.inputs[i];
        if (traces[i]) {
            reports.push_back(reports::model::readReport(analyzeTrace(input), input));
            continue;
        }
        fs::path path = reportPath(input);
        auto document = readReport(path);
        reports::checkReportSchema(document, path.string());
        reports.push_back(reports::model::readReport(document, path.string()));
    }

    reports::CompareOptions options;
    options.weak = a.weak;
    options.reference = a.reference;
    options.gates = a.gates;
    auto comparison = reports::compareReports(reports, labels, options);
    writeComparison(comparison, a.outDir, a.junit);
    for (const auto& w : comparison.json["warnings"])
        std::fprintf(stderr, "gpueff: warning: %s\n", w.get<std::string>().c_str());
    if (!a.quiet)
        std::fprintf(stderr, "gpueff: wrote %s, %s and %zu plots\n",
                     (fs::path(a.outDir) / "compare.md").c_str(),
                     (fs::path(a.outDir) / "compare.json").c_str(), comparison.files.size());
    for (const auto& g : comparison.gates)
        if (g.failed)
            std::fprintf(stderr, "gpueff: gate failed: %s for \"%s\": %s\n", g.gate->text.c_str(),
                         g.run.c_str(), g.detail.c_str());
    return comparison.gateFailed() ? kGateFailed : 0;
}

} // namespace gpueff::jobs
