#include "jobs/DashboardJob.h"

#include "engine/common/Error.h"
#include "engine/output/OutputFiles.h"
#include "jobs/DashboardInputs.h"
#include "jobs/JobInputs.h"
#include "jobs/StaleOutputs.h"
#include "reports/Compare.h"
#include "reports/DashboardSite.h"
#include "reports/MetricsExport.h"
#include "reports/ReportSchema.h"
#include "reports/model/ReportIo.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <thread>

namespace gpueff::jobs {

namespace {

namespace fs = std::filesystem;
using reports::dashboard::ComparisonInput;
using reports::dashboard::DashboardRun;
using reports::dashboard::RunAttributes;

// What one input file turned out to be once read.
struct Loaded {
    std::optional<DashboardRun> run;
    std::optional<ComparisonInput> comparison;
    std::string warning; // why it was skipped
    std::exception_ptr failure;
};

Loaded load(const FoundInput& input) {
    Loaded out;
    auto label = input.path.string();
    try {
        std::ifstream in(input.path, std::ios::binary);
        if (!in) throw Error(label + ": cannot open");
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        auto document = reports::parseReport(text, label);
        auto schema = document.is_object() ? document.value("schema", std::string()) : std::string();
        if (schema == "gpueff-compare/1") {
            out.comparison = ComparisonInput{label, std::move(document)};
            return out;
        }
        reports::checkReportSchema(document, label);
        DashboardRun run;
        run.source = label;
        run.report = reports::model::readReport(document, label);
        run.reportText = std::move(text);
        out.run = std::move(run);
    } catch (const Error& e) {
        out.warning = std::string(e.what()) + ": skipped";
    } catch (...) {
        out.failure = std::current_exception(); // rethrown by the main thread: a bug, never a silent skip
    }
    return out;
}

// Every input read by a few threads (reading and checking a report is most of the work), in input order.
std::vector<Loaded> loadAll(const std::vector<FoundInput>& inputs) {
    std::vector<Loaded> out(inputs.size());
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t i; (i = next++) < inputs.size();) out[i] = load(inputs[i]);
    };
    unsigned n = std::clamp<unsigned>(std::thread::hardware_concurrency(), 1, 16);
    n = static_cast<unsigned>(std::min<std::size_t>(n, inputs.size()));
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < n; ++t) threads.emplace_back(worker);
    worker();
    for (auto& t : threads) t.join();
    for (const auto& l : out)
        if (l.failure) std::rethrow_exception(l.failure);
    return out;
}

std::string withoutTrailingSlash(std::string s) {
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    return s;
}

// The names a runs file may give a run by: its report.json, its directory (as given, as found), its label
// (given with --labels, else the default).
std::vector<std::string> runKeys(const DashboardRun& run, const std::string& given) {
    fs::path report(run.source);
    return {withoutTrailingSlash(given), report.lexically_normal().string(),
            withoutTrailingSlash(report.parent_path().lexically_normal().string()),
            run.label.empty() ? reportLabel(run.source) : run.label};
}

// Runs the user did not label get the default; names that collide are numbered, as compare numbers them.
void defaultLabels(std::vector<DashboardRun>& runs) {
    std::vector<std::string> labels;
    for (const auto& r : runs) labels.push_back(r.label.empty() ? reportLabel(r.source) : r.label);
    numberRepeatedLabels(labels);
    for (std::size_t i = 0; i < runs.size(); ++i) runs[i].label = std::move(labels[i]);
}

// Runs with a key first, in its order, then those without one, in input order (a stable sort on keys computed
// once). Returns how many have none.
template <class Key>
std::size_t sortByKey(std::vector<DashboardRun>& runs, Key key) {
    std::vector<std::pair<decltype(key(runs.front())), std::size_t>> keyed;
    for (std::size_t i = 0; i < runs.size(); ++i) keyed.emplace_back(key(runs[i]), i);
    std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
        return a.first && (!b.first || *a.first < *b.first);
    });
    std::vector<DashboardRun> sorted;
    std::size_t missing = 0;
    for (auto& [k, i] : keyed) {
        missing += !k;
        sorted.push_back(std::move(runs[i]));
    }
    runs = std::move(sorted);
    return missing;
}

void order(std::vector<DashboardRun>& runs, const std::string& by, std::vector<std::string>& warnings) {
    if (by == "file" || runs.empty()) return;
    std::size_t missing = 0;
    if (by == "label")
        sortByKey(runs, [](const DashboardRun& r) { return std::optional<std::string>(r.label); });
    else if (by == "date")
        missing = sortByKey(runs, [](const DashboardRun& r) { return r.attributes.date; });
    else
        missing = sortByKey(runs, [](const DashboardRun& r) { return r.startUtcNs(); });
    if (missing)
        warnings.push_back(std::to_string(missing) + " run(s) have no " +
                           (by == "date" ? "date in the runs file" : "session start (UTC) in report.json") +
                           ": shown after the others, in input order");
}

// A relative link from the site to `target`, with the characters a URL reserves escaped.
std::string href(const fs::path& target, const fs::path& site) {
    auto rel = fs::relative(fs::absolute(target), fs::absolute(site)).generic_string();
    std::string out;
    const char* hex = "0123456789ABCDEF";
    for (unsigned char c : rel) {
        if (std::isalnum(c) || std::string_view("/-._~").find(static_cast<char>(c)) != std::string_view::npos)
            out += static_cast<char>(c);
        else
            out += '%', out += hex[c >> 4], out += hex[c & 15];
    }
    return out;
}

// The files of the run to open from its page: report.md, the Paraver trace and its cfgs (to open in
// wxparaver), the report.json; only those that exist.
std::vector<reports::dashboard::RunLink> runLinks(const DashboardRun& run, const fs::path& site) {
    std::vector<reports::dashboard::RunLink> out;
    std::error_code ec;
    fs::path report(run.source), dir = report.parent_path();
    auto add = [&](const std::string& name, const fs::path& file) {
        if (fs::is_regular_file(file, ec)) out.push_back({name, href(file, site)});
    };
    add("report.md", dir / "report.md");
    add("report.json", report);
    if (!run.report.trace) return out;
    fs::path prv(run.report.trace->prv);
    if (prv.is_relative() && !fs::exists(prv, ec)) prv = dir / prv.filename();
    add("trace (.prv)", prv);
    add("names (.pcf)", fs::path(prv).replace_extension(".pcf"));
    add("rows (.row)", fs::path(prv).replace_extension(".row"));
    fs::path cfgs = fs::path(prv).replace_extension(".cfgs");
    if (fs::is_directory(cfgs, ec)) {
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(cfgs, ec))
            if (e.path().extension() == ".cfg") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) add("cfg: " + f.stem().string(), f);
    }
    return out;
}

void warn(std::vector<std::string>& warnings, std::string text) {
    std::fprintf(stderr, "gpueff: warning: %s\n", text.c_str());
    warnings.push_back(std::move(text));
}

// --metrics FILE: CSV or JSON Lines by its extension, staged in `set`.
void writeMetricsFile(output::OutputFiles& set, const std::vector<DashboardRun>& runs,
                      const std::string& file) {
    auto ext = fs::path(file).extension().string();
    reports::dashboard::MetricsFormat format;
    if (ext == ".csv")
        format = reports::dashboard::MetricsFormat::Csv;
    else if (ext == ".jsonl")
        format = reports::dashboard::MetricsFormat::JsonLines;
    else
        throw RequestError("--metrics " + file + ": the file name ends in .csv or .jsonl");
    auto i = set.add(fs::absolute(file));
    std::FILE* out = std::fopen(set.temporary(i).c_str(), "wb");
    if (!out) throw Error(file + ": cannot write the metrics export");
    bool failed = false;
    reports::dashboard::writeMetrics(runs, format, [&](std::string_view text) {
        failed |= std::fwrite(text.data(), 1, text.size(), out) != text.size();
    });
    failed |= std::fclose(out) != 0;
    if (failed) throw Error(file + ": cannot write the metrics export (disk full?)");
}

// Files an earlier site in `dir` holds that a site can write (pages, assets, data, runs, badges, scaling
// plots): the candidates for removal when this site does not write them.
std::vector<std::string> earlierSiteFiles(const fs::path& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    for (const char* page : {"index.html", "run.html", "scaling.html"})
        if (fs::is_regular_file(dir / page, ec)) out.push_back(page);
    for (const char* sub : {"assets", "data", "runs", "badges", "scaling"}) {
        if (!fs::is_directory(dir / sub, ec)) continue;
        for (auto it = fs::recursive_directory_iterator(dir / sub, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
            if (it->is_regular_file(ec)) out.push_back(fs::relative(it->path(), dir).generic_string());
    }
    return out;
}

// The site as a whole or not at all (engine/output/OutputFiles): staged inside SITE, moved in together,
// with the files of an earlier site this one does not write removed in the same commit; then the metrics
// export, which may lie anywhere.
void writeSite(const std::vector<reports::dashboard::SiteFile>& files, const std::vector<DashboardRun>& runs,
               const DashboardRequest& request) {
    fs::path dir(request.outDir);
    output::inOutputDirectory(dir, [&] {
        output::OutputFiles outputs({}, dir);
        std::set<std::string> written;
        for (const auto& f : files) {
            auto i = outputs.add(dir / f.path);
            output::writeTextFile(outputs.temporary(i), outputs.final(i), f.text);
            written.insert(f.path);
        }
        StaleOutputs stale(dir, earlierSiteFiles(dir), written);
        output::OutputFiles metrics;
        if (!request.metricsFile.empty()) writeMetricsFile(metrics, runs, request.metricsFile);
        stale.moveAside();
        outputs.commit();
        stale.commit();
        metrics.commit();
    });
}

} // namespace

int runDashboard(const DashboardRequest& request) {
    if (std::find(std::begin(kDashboardOrders), std::end(kDashboardOrders), request.orderBy) ==
        std::end(kDashboardOrders))
        throw RequestError("--order-by " + request.orderBy + ": expected start, label, file or date");
    auto found = findDashboardInputs(request.inputs);
    auto attributes =
        request.runsFile.empty() ? std::map<std::string, RunAttributes>{} : readRunsFile(request.runsFile);
    if (!request.quiet) std::fprintf(stderr, "gpueff: reading %zu file(s)\n", found.size());
    auto loaded = loadAll(found);

    std::vector<std::string> warnings;
    std::vector<DashboardRun> runs;
    std::vector<ComparisonInput> comparisons;
    std::set<std::string> matched;
    for (std::size_t i = 0; i < loaded.size(); ++i) {
        if (!loaded[i].warning.empty()) warn(warnings, loaded[i].warning);
        if (loaded[i].comparison) comparisons.push_back(std::move(*loaded[i].comparison));
        if (!loaded[i].run) continue;
        auto& run = runs.emplace_back(std::move(*loaded[i].run));
        if (runs.size() <= request.labels.size()) run.label = request.labels[runs.size() - 1];
        for (const auto& key : runKeys(run, found[i].given)) {
            auto it = attributes.find(key);
            if (it == attributes.end()) continue;
            run.attributes = it->second;
            matched.insert(key);
            if (run.label.empty() && it->second.label) run.label = *it->second.label;
            break;
        }
    }
    if (!request.labels.empty() && request.labels.size() != runs.size())
        throw RequestError("--labels gives " + std::to_string(request.labels.size()) + " labels for " +
                           std::to_string(runs.size()) + " reports");
    for (const auto& [key, a] : attributes)
        if (!matched.count(key)) warn(warnings, request.runsFile + ": run \"" + key + "\" matches no report");
    if (runs.empty()) throw Error("dashboard: no report to show (every input was skipped)");
    defaultLabels(runs);
    order(runs, request.orderBy, warnings);

    reports::dashboard::SiteOptions options;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        char id[32];
        std::snprintf(id, sizeof id, "r%04zu", i + 1);
        runs[i].id = id;
        runs[i].links = runLinks(runs[i], request.outDir);
        if (runs[i].label == request.reference) options.reference = i;
    }
    if (!request.reference.empty() && runs[options.reference].label != request.reference)
        throw RequestError("--ref \"" + request.reference + "\": no run has that label");
    options.gates = request.gates;
    options.orderBy = request.orderBy;
    options.scalingTag = request.scalingTag;
    options.warnings = warnings;
    if (!request.quiet) std::fprintf(stderr, "gpueff: writing the site of %zu run(s)\n", runs.size());
    auto files = reports::dashboard::buildSite(runs, comparisons, options);
    writeSite(files, runs, request);
    if (!request.quiet)
        std::fprintf(stderr, "gpueff: wrote %s (%zu files)%s%s\n",
                     (fs::path(request.outDir) / "index.html").c_str(), files.size(),
                     request.metricsFile.empty() ? "" : " and ", request.metricsFile.c_str());
    return 0;
}

} // namespace gpueff::jobs
