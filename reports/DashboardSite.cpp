#include "reports/DashboardSite.h"

#include "reports/CompareParts.h"
#include "reports/DashboardAssets.h"
#include "reports/DashboardBadges.h"
#include "reports/DashboardFigures.h"
#include "reports/DashboardScaling.h"

#include <set>

namespace gpueff::reports::dashboard {

namespace {

using nlohmann::json;

json optionalJson(const std::optional<std::string>& v) {
    return v ? json(*v) : json(nullptr);
}

json attributesJson(const RunAttributes& a) {
    return {{"commit", optionalJson(a.commit)},
            {"date", optionalJson(a.date)},
            {"branch", optionalJson(a.branch)},
            {"gpus", a.gpus ? json(*a.gpus) : json(nullptr)},
            {"tags", a.tags}};
}

// The four device factors of a unit per convention, keyed as report.json keys them.
json factorsJson(const compare::RunUnit& unit) {
    static constexpr const char* kKeys[] = {"parallel_efficiency", "load_balance", "communication_efficiency",
                                            "orchestration_efficiency"};
    json out;
    for (std::size_t c = 0; c < compare::kConventionCount; ++c)
        for (std::size_t f = 0; f < compare::kFactorCount; ++f)
            out[compare::kConventions[c].key][kKeys[f]] = compare::orNull(unit.factors[c][f]);
    return out;
}

json gateChecksJson(const std::vector<compare::GateResult>& gates) {
    json out = json::array();
    for (const auto& g : gates)
        out.push_back({{"gate", g.gate->text},
                       {"failed", g.failed},
                       {"significant", compare::orNull(g.significant)},
                       {"measured", compare::orNull(g.measured)},
                       {"detail", g.detail}});
    return out;
}

json runEntry(const DashboardRun& run, const RunFigures& f) {
    const auto& u = f.unit;
    auto start = run.startUtcNs();
    json j = {{"id", run.id},
              {"label", run.label},
              {"source", run.source},
              {"start_utc_ns", start ? json(*start) : json(nullptr)},
              {"attributes", attributesJson(run.attributes)},
              {"devices", run.report.devices.size()},
              {"unit", u.perIteration ? "iteration" : "window"},
              {"steady_iterations", u.perIteration ? json(u.durations.size()) : json(nullptr)},
              {"iteration_time_ns", u.timeNs},
              {"efficiency", factorsJson(u)},
              {"speedup", compare::orNull(f.speedup)},
              {"gates", gateChecksJson(f.gates)},
              {"regression", f.regressed()}};
    for (std::size_t c = 0; c < compare::kConventionCount; ++c) {
        j["global_efficiency"][compare::kConventions[c].key] = compare::orNull(f.globalEfficiency[c]);
        j["computational_efficiency"][compare::kConventions[c].key] =
            compare::orNull(f.computationalEfficiency[c]);
    }
    return j;
}

json indexJson(const std::vector<DashboardRun>& runs, const std::vector<RunFigures>& figures,
               const SiteOptions& options, const std::vector<compare::Gate>& gates, bool scaling) {
    json jruns = json::array();
    std::set<std::string> tags;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        jruns.push_back(runEntry(runs[i], figures[i]));
        for (const auto& [name, value] : runs[i].attributes.tags) tags.insert(name);
    }
    json jgates = json::array();
    for (const auto& g : gates) jgates.push_back(g.text);
    return {{"schema", "gpueff-dashboard/1"},
            {"generator", std::string("gpueff ") + GPUEFF_VERSION},
            {"order_by", options.orderBy},
            {"reference", runs.empty() ? json(nullptr) : json(runs[options.reference].label)},
            {"gates", std::move(jgates)},
            {"tags", tags},
            {"scaling", scaling},
            {"warnings", options.warnings},
            {"runs", std::move(jruns)}};
}

std::string script(const char* function, const std::string& jsonText) {
    return std::string(function) + "(" + jsonText + ");\n";
}

} // namespace

std::string runDataScript(const std::vector<DashboardRun>& runs, std::size_t i) {
    const auto& run = runs[i];
    json links = json::array();
    for (const auto& l : run.links) links.push_back({{"name", l.name}, {"href", l.href}});
    json head = {{"id", run.id},
                 {"label", run.label},
                 {"source", run.source},
                 {"attributes", attributesJson(run.attributes)},
                 {"links", std::move(links)},
                 {"prev", i > 0 ? json(runs[i - 1].id) : json(nullptr)},
                 {"next", i + 1 < runs.size() ? json(runs[i + 1].id) : json(nullptr)}};
    // The report goes in as read (it parsed, so it is JSON): no second serialisation of the largest part.
    std::string text = head.dump();
    text.pop_back();
    text += ",\"report\":";
    text += run.reportText;
    text += "}";
    return script("gpueffRun", text);
}

std::vector<SiteFile> buildSite(const std::vector<DashboardRun>& runs,
                                const std::vector<ComparisonInput>& comparisons, const SiteOptions& options) {
    std::vector<SiteFile> files;
    for (const auto& asset : siteAssets())
        files.push_back({std::string(asset.name), std::string(asset.bytes)});
    auto gates = options.gates.empty() ? defaultDashboardGates() : options.gates;
    auto figures = runFigures(runs, options.reference, gates);
    auto studies = scalingStudies(runs, options.scalingTag);
    auto scaling = scalingData(runs, std::move(studies), comparisons, options.scalingTag);
    files.push_back(
        {"data/index.js", script("gpueffIndex", indexJson(runs, figures, options, gates,
                                                          !scaling.studies.empty() || !comparisons.empty())
                                                    .dump())});
    files.push_back({"data/scaling.js", script("gpueffScaling", scaling.json.dump())});
    for (auto& plot : scaling.plots) files.push_back({std::move(plot.first), std::move(plot.second)});
    for (std::size_t i = 0; i < runs.size(); ++i)
        files.push_back({"runs/" + runs[i].id + ".js", runDataScript(runs, i)});
    if (!runs.empty())
        for (auto& [path, svg] : runBadges(figures.back())) files.push_back({path, std::move(svg)});
    return files;
}

} // namespace gpueff::reports::dashboard
