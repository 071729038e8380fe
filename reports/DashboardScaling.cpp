#include "reports/DashboardScaling.h"

#include "reports/Compare.h"
#include "reports/CompareParts.h"

#include <map>
#include <set>

namespace gpueff::reports::dashboard {

namespace {

using nlohmann::json;

std::optional<std::string> attribute(const DashboardRun& run, const std::string& tag) {
    const auto& a = run.attributes;
    if (auto it = a.tags.find(tag); it != a.tags.end()) return it->second;
    if (tag == "branch") return a.branch;
    if (tag == "commit") return a.commit;
    if (tag == "date") return a.date;
    if (tag == "gpus" && a.gpus) return std::to_string(*a.gpus);
    return std::nullopt;
}

std::size_t deviceCounts(const std::vector<DashboardRun>& runs, const ScalingStudy& study) {
    std::set<std::size_t> counts;
    for (auto i : study.runs) counts.insert(runs[i].report.devices.size());
    return counts.size();
}

// One study as compare sees it: its scaling table and fits (compare.json "scaling"), and its plots.
json studyJson(const std::vector<DashboardRun>& runs, const ScalingStudy& study, std::size_t index,
               std::vector<std::pair<std::string, std::string>>& plots) {
    json ids = json::array(), labels = json::array();
    for (auto i : study.runs) ids.push_back(runs[i].id), labels.push_back(runs[i].label);
    json j = {{"name", study.name}, {"runs", ids},     {"labels", labels},
              {"scaling", nullptr}, {"note", nullptr}, {"plots", json::array()}};
    if (deviceCounts(runs, study) < 2) {
        j["note"] = "every run has the same device count: no scaling to show";
        return j;
    }
    if (study.runs.size() > kMaxStudyRuns) {
        j["note"] =
            "more than " + std::to_string(kMaxStudyRuns) + " runs: compare a selection with gpueff compare";
        return j;
    }
    std::vector<model::Report> reports;
    std::vector<std::string> names;
    for (auto i : study.runs) reports.push_back(runs[i].report), names.push_back(runs[i].label);
    auto comparison = compareReports(reports, names);
    j["scaling"] = comparison.json["scaling"];
    std::set<std::string> wanted;
    for (std::size_t c = 0; c < compare::kConventionCount; ++c) wanted.insert(compare::scalingPlotFile(c));
    for (auto& [path, svg] : comparison.files) {
        if (!wanted.count(path)) continue;
        auto target = "scaling/" + std::to_string(index + 1) + "/" + path;
        j["plots"].push_back(target);
        plots.emplace_back(target, std::move(svg));
    }
    return j;
}

} // namespace

std::vector<ScalingStudy> scalingStudies(const std::vector<DashboardRun>& runs, const std::string& tag) {
    std::vector<ScalingStudy> out;
    if (tag.empty()) {
        ScalingStudy all{"all runs", {}};
        for (std::size_t i = 0; i < runs.size(); ++i) all.runs.push_back(i);
        if (deviceCounts(runs, all) >= 2) out.push_back(std::move(all));
        return out;
    }
    std::map<std::string, std::size_t> byValue; // value -> index in out, in order of first appearance
    for (std::size_t i = 0; i < runs.size(); ++i) {
        auto value = attribute(runs[i], tag);
        if (!value) continue;
        auto [it, added] = byValue.emplace(*value, out.size());
        if (added) out.push_back({*value, {}});
        out[it->second].runs.push_back(i);
    }
    return out;
}

ScalingData scalingData(const std::vector<DashboardRun>& runs, std::vector<ScalingStudy> studies,
                        const std::vector<ComparisonInput>& comparisons, const std::string& tag) {
    ScalingData out;
    json jstudies = json::array(), jcomparisons = json::array();
    for (std::size_t s = 0; s < studies.size(); ++s)
        jstudies.push_back(studyJson(runs, studies[s], s, out.plots));
    for (const auto& c : comparisons) jcomparisons.push_back({{"source", c.source}, {"compare", c.document}});
    out.json = {{"tag", tag.empty() ? json(nullptr) : json(tag)},
                {"studies", std::move(jstudies)},
                {"comparisons", std::move(jcomparisons)}};
    out.studies = std::move(studies);
    return out;
}

} // namespace gpueff::reports::dashboard
