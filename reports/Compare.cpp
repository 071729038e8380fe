#include "reports/Compare.h"

#include "engine/common/Error.h"
#include "metrics/PopFactors.h"
#include "reports/CompareLevels.h"
#include "reports/CompareParts.h"
#include "reports/CompareScaling.h"
#include "reports/CompareSplit.h"
#include "reports/CompareTables.h"
#include "reports/MarkdownTable.h"
#include "reports/ReportMarkdown.h"
#include "reports/SvgCompare.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>

namespace gpueff::reports {

using compare::kConventions;
using compare::Value;
using detail::MarkdownTable;
using nlohmann::json;

namespace {

struct Run {
    std::string label, trace, windowSource;
    Value devices, window;
    Value factors[2][std::size(kEfficiencyFactors)]; // [convention][factor]
    Value usefulSum[2];
    std::set<std::string> kernels;
};

Run readRun(const model::Report& report, const std::string& label) {
    Run r;
    r.label = label;
    r.trace = report.trace ? report.trace->prv : "";
    r.window = static_cast<double>(report.window.durationNs);
    r.windowSource = report.window.source;
    for (std::size_t c = 0; c < 2; ++c) {
        const auto& convention = report.efficiency.convention(c);
        for (std::size_t f = 0; f < std::size(kEfficiencyFactors); ++f)
            r.factors[c][f] = convention.factor(f);
        r.usefulSum[c] = static_cast<double>(convention.usefulSumNs);
    }
    r.devices = static_cast<double>(report.devices.size());
    for (const auto& k : report.kernelSummary.overall)
        if (!k.name.empty()) r.kernels.insert(k.name);
    return r;
}

// A factor of PopFactors.h of two numbers of the reports: absent when one is, or when it would divide by 0.
Value definedRatio(Value numerator, Value denominator, double (*factor)(double, double)) {
    if (!numerator || !denominator || *denominator == 0) return std::nullopt;
    return factor(*numerator, *denominator);
}

std::string points(Value v, Value ref) {
    if (!v || !ref) return "";
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, " (%+.2f pp)", (*v - *ref) * 100.0);
    return buffer;
}

std::string speedupCell(Value v) {
    if (!v) return "n/a";
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.2fx", *v);
    return buffer;
}

std::string countCell(Value v) {
    return v ? std::to_string(static_cast<long long>(*v)) : "n/a";
}

std::vector<std::string> header(const std::vector<Run>& runs) {
    std::vector<std::string> h{"Metric"};
    for (const auto& r : runs) h.push_back(compare::runLabelCell(r.label));
    return h;
}

std::string alignment(const std::vector<Run>& runs) {
    return "l" + std::string(runs.size(), 'r');
}

} // namespace

void checkReportSchema(const json& report, const std::string& label) {
    auto it = report.is_object() ? report.find("schema") : report.end();
    std::string schema = it != report.end() && it->is_string() ? it->get<std::string>() : "";
    if (schema != "gpueff-report/1")
        throw Error(label + ": not a gpueff report (schema is " +
                    (schema.empty() ? "missing" : "\"" + schema + "\"") +
                    ", expected \"gpueff-report/1\"; write it with gpueff analyze)");
}

namespace {

// The run the others are set against: the one labelled `wanted`, else the one with the fewest devices when
// every count is known and they differ (the first of those), else the first. `reason` says which.
std::size_t chooseReference(const std::vector<Run>& runs, const std::string& wanted, std::string& reason) {
    if (!wanted.empty()) {
        std::string known;
        for (std::size_t i = 0; i < runs.size(); ++i) {
            if (runs[i].label == wanted) {
                reason = "chosen with --ref";
                return i;
            }
            known += (i ? ", \"" : "\"") + runs[i].label + "\"";
        }
        throw Error("--ref \"" + wanted + "\": no run has that label (the labels are " + known + ")");
    }
    bool allKnown = true, differ = false;
    for (const auto& r : runs) {
        allKnown = allKnown && r.devices.has_value();
        differ = differ || (r.devices && runs[0].devices && *r.devices != *runs[0].devices);
    }
    std::size_t ref = 0;
    if (differ && allKnown)
        for (std::size_t i = 1; i < runs.size(); ++i)
            if (*runs[i].devices < *runs[ref].devices) ref = i;
    reason = !(differ && allKnown) ? "the first run given"
             : ref == 0            ? "the first run given, which has the fewest devices"
                                   : "the run with the fewest devices";
    return ref;
}

std::vector<std::string> runWarnings(const std::vector<Run>& runs, std::size_t ref) {
    std::vector<std::string> warnings;
    // A trace without GPU rows (a CPU-only MPI trace) gives a report without devices: every device figure
    // of that run is n/a, which the reader should learn once rather than from every table.
    for (const auto& r : runs)
        if (r.devices && *r.devices == 0)
            warnings.push_back("run \"" + r.label +
                               "\" has no GPU device (its trace has no GPU activity): its device figures are "
                               "n/a; `gpueff modelfactors` gives the MPI efficiency of a CPU-only trace");
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (i == ref) continue;
        const Run &a = runs[ref], &b = runs[i];
        if (!a.kernels.empty() && !b.kernels.empty()) {
            bool common = false;
            for (const auto& k : b.kernels) common = common || a.kernels.count(k);
            if (!common)
                warnings.push_back(
                    "runs \"" + a.label + "\" and \"" + b.label +
                    "\" have no kernel name in common: they may not be runs of the same application");
        }
        if (!a.windowSource.empty() && !b.windowSource.empty() && a.windowSource != b.windowSource)
            warnings.push_back("the windows were chosen differently (" + a.windowSource + " for \"" +
                               a.label + "\", " + b.windowSource + " for \"" + b.label +
                               "\"): the efficiencies cover different parts of the runs");
    }
    return warnings;
}

// The runs' overview table and compare.json "runs": device counts, windows, useful sums, the factors with
// their differences from the reference.
void overview(const std::vector<Run>& runs, const std::vector<compare::RunUnit>& units, std::size_t ref,
              std::string& md, json& j) {
    // The traces, long words a table cell cannot wrap, are listed under the table: seven columns would not
    // fit a page 900 px wide (GitHub).
    MarkdownTable overview({"Run", "Devices", "Window", "Window source", "Useful sum (NCCL as communication)",
                            "Useful sum (NCCL as useful)"},
                           "lrrlrr");
    std::string traces;
    json jruns = json::array();
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const Run& r = runs[i];
        traces +=
            "- " + escapeMarkdown(r.label) + ": " + escapeMarkdown(r.trace.empty() ? "n/a" : r.trace) + "\n";
        overview.row({escapeMarkdown(r.label), countCell(r.devices), formatDuration(r.window),
                      escapeMarkdown(r.windowSource.empty() ? "n/a" : r.windowSource),
                      formatDuration(r.usefulSum[0]), formatDuration(r.usefulSum[1])});
        const auto& u = units[i];
        json jr = {{"label", r.label},
                   {"trace", r.trace},
                   {"devices", compare::integerOrNull(r.devices)},
                   {"window_ns", compare::integerOrNull(r.window)},
                   {"window_source", r.windowSource},
                   {"unit",
                    {{"kind", u.perIteration ? "iteration" : "window"},
                     {"time_ns", u.timeNs},
                     {"steady_iterations", u.perIteration ? json(u.iterations) : json(nullptr)},
                     {"window_units", u.windowUnits}}}};
        for (std::size_t c = 0; c < 2; ++c) {
            jr["useful_sum_ns"][kConventions[c].key] = compare::integerOrNull(r.usefulSum[c]);
            for (std::size_t f = 0; f < std::size(kEfficiencyFactors); ++f) {
                jr["efficiency"][kConventions[c].key][kEfficiencyFactors[f].key] =
                    compare::orNull(r.factors[c][f]);
                Value diff;
                if (r.factors[c][f] && runs[ref].factors[c][f])
                    diff = (*r.factors[c][f] - *runs[ref].factors[c][f]) * 100.0;
                jr["difference_pp"][kConventions[c].key][kEfficiencyFactors[f].key] = compare::orNull(diff);
            }
        }
        jruns.push_back(std::move(jr));
    }
    j["runs"] = std::move(jruns);
    md += "## Runs\n\n" + overview.str() + "\nTraces:\n\n" + traces + "\n";
}

// The device model's factors over each run's window, with their differences from the reference, and their
// plots.
void deviceEfficiency(const std::vector<Run>& runs, std::size_t ref, Comparison& out) {
    std::string& md = out.markdown;
    md +=
        "## Device efficiency over the windows\n\nEach run's whole window. Differences in percentage points "
        "against \"" +
        escapeMarkdown(runs[ref].label) +
        "\". Colour scale (POP): \xF0\x9F\x9F\xA9 >= 80 %, \xF0\x9F\x9F\xA8 70-80 %, "
        "\xF0\x9F\x9F\xA7 60-70 %, \xF0\x9F\x9F\xA5 < 60 %.\n\n";
    for (std::size_t c = 0; c < 2; ++c) {
        MarkdownTable t(header(runs), alignment(runs));
        for (std::size_t f = 0; f < std::size(kEfficiencyFactors); ++f) {
            std::vector<std::string> row{kEfficiencyFactors[f].label};
            for (std::size_t i = 0; i < runs.size(); ++i) {
                std::string change = i != ref ? points(runs[i].factors[c][f], runs[ref].factors[c][f]) : "";
                // More runs than fit a line: the change under the value (docs/compare.md).
                if (runs.size() > compare::kInlineRuns && !change.empty())
                    change = "<br>" + change.substr(2, change.size() - 3);
                row.push_back(formatEfficiency(runs[i].factors[c][f]) + change);
            }
            t.row(row);
        }
        md += std::string("### ") + kConventions[c].title + "\n\n" + t.str() + "\n";
        std::vector<std::string> labels;
        std::vector<std::array<Value, compare::kDeviceFactorCount>> factors;
        for (const auto& r : runs) {
            labels.push_back(r.label);
            factors.emplace_back();
            std::copy(std::begin(r.factors[c]), std::end(r.factors[c]), factors.back().begin());
        }
        std::vector<std::string> series;
        for (std::size_t f = 0; f < compare::kDeviceFactorCount; ++f)
            series.emplace_back(compare::kScalingFactors[f].label);
        compare::addPlot(compare::efficiencyPlotFile(c),
                         std::string("Device efficiency factors per run (") + kConventions[c].title + ")",
                         series, svg::efficiencyByRunChart(kConventions[c].title, labels, factors), out.files,
                         out.json, md);
    }
}

// The POP scaling table across device counts (only when the counts differ and are all known), against the
// reference, with the fits of CompareScaling.h.
void scaling(const std::vector<Run>& runs, std::size_t ref, const std::string& reason, bool weak,
             std::vector<std::string>& warnings, Comparison& out) {
    json& j = out.json;
    std::string& md = out.markdown;
    bool allKnown = true, differ = false;
    for (const auto& r : runs) {
        allKnown = allKnown && r.devices.has_value();
        differ = differ || (r.devices && runs[0].devices && *r.devices != *runs[0].devices);
    }
    j["scaling"] = nullptr;
    if (differ && !allKnown) {
        warnings.push_back("device count unknown for some runs: no scaling table");
        md += "> **Warning:** " + escapeMarkdown(warnings.back()) + "\n\n";
    }
    if (!differ || !allKnown) return;
    const Run& R = runs[ref];
    MarkdownTable t(header(runs), alignment(runs));
    std::vector<std::string> devicesRow{"Devices"}, speedupRow{"Speedup T(ref) / T(run)"};
    std::vector<std::string> scal[2], global[2];
    json jscaling = json::array();
    std::vector<compare::ScalingRun> points;
    for (const auto& r : runs) {
        auto& point = points.emplace_back();
        point.label = r.label, point.devices = *r.devices;
        devicesRow.push_back(countCell(r.devices));
        Value speedup = definedRatio(R.window, r.window, metrics::pop::speedup);
        speedupRow.push_back(speedupCell(speedup));
        json js = {{"label", r.label}, {"speedup", compare::orNull(speedup)}};
        for (std::size_t c = 0; c < 2; ++c) {
            Value s = definedRatio(R.usefulSum[c], r.usefulSum[c], metrics::pop::computationScalability);
            if (s && weak) s = metrics::pop::weakComputationScalability(*s, *r.devices, *R.devices);
            Value g;
            if (s && r.factors[c][0]) g = metrics::pop::globalEfficiency(*r.factors[c][0], *s);
            scal[c].push_back(formatEfficiency(s));
            global[c].push_back(formatEfficiency(g));
            js["computational_scalability"][kConventions[c].key] = compare::orNull(s);
            js["global_efficiency"][kConventions[c].key] = compare::orNull(g);
            std::copy(std::begin(r.factors[c]), std::end(r.factors[c]), point.values[c]);
            point.values[c][compare::kDeviceFactorCount] = s;
            point.values[c][compare::kDeviceFactorCount + 1] = g;
        }
        jscaling.push_back(std::move(js));
    }
    t.row(devicesRow);
    t.row(speedupRow);
    for (std::size_t c = 0; c < 2; ++c) {
        std::string suffix = std::string(" (") + kConventions[c].title + ")";
        std::vector<std::string> row{"Global efficiency" + suffix};
        row.insert(row.end(), global[c].begin(), global[c].end());
        t.row(row);
        row = {"&emsp;Parallel efficiency" + suffix};
        for (const auto& r : runs) row.push_back(formatEfficiency(r.factors[c][0]));
        t.row(row);
        row = {"&emsp;Computational scalability" + suffix};
        row.insert(row.end(), scal[c].begin(), scal[c].end());
        t.row(row);
    }
    j["scaling"] = {{"reference", R.label}, {"weak", weak}, {"runs", std::move(jscaling)}};
    md += std::string("## Scaling\n\n") + (weak ? "Weak" : "Strong") + " scaling against \"" +
          escapeMarkdown(R.label) + "\" (" + reason +
          "), over the windows. Computational scalability = sum of useful time (ref) / "
          "sum of useful time (run)" +
          (weak ? " x n(run) / n(ref)" : "") +
          "; global efficiency = parallel efficiency x computational scalability.\n\n" + t.str() + "\n";
    if (weak)
        md += "Speedup compares window lengths as measured; under weak scaling the runs do different "
              "amounts of work.\n\n";
    compare::appendScalingFits(points, md, j, out.files);
}

} // namespace

Comparison compareReports(const std::vector<model::Report>& reports, const std::vector<std::string>& labelsIn,
                          const CompareOptions& options) {
    if (reports.empty()) throw Error("compare: no report to compare");
    if (!labelsIn.empty() && labelsIn.size() != reports.size())
        throw Error("compare: " + std::to_string(labelsIn.size()) + " labels for " +
                    std::to_string(reports.size()) + " reports");
    std::vector<Run> runs;
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < reports.size(); ++i) {
        labels.push_back(labelsIn.empty() ? "run " + std::to_string(i + 1) : labelsIn[i]);
        runs.push_back(readRun(reports[i], labels.back()));
    }
    std::string reason;
    const std::size_t ref = chooseReference(runs, options.reference, reason);
    // The unit of comparison: the steady iteration when every run has some, else the window.
    bool perIteration = true;
    for (const auto& r : reports) perIteration = perIteration && compare::hasSteadyIterations(r);
    std::vector<compare::RunUnit> units;
    for (std::size_t i = 0; i < reports.size(); ++i)
        units.push_back(compare::runUnit(reports[i], labels[i], perIteration));
    const compare::Comparing comparing{reports, units, ref, options.weak};

    Comparison out;
    json& j = out.json;
    j = {{"schema", "gpueff-compare/1"},
         {"weak", options.weak},
         {"plots", json::array()},
         {"warnings", json::array()},
         {"reference", {{"label", runs[ref].label}, {"index", ref}, {"reason", reason}}}};
    std::vector<std::string> warnings = runWarnings(runs, ref);
    std::string& md = out.markdown;
    md = "# Comparison of " + std::to_string(runs.size()) + " runs\n\n";
    for (const auto& w : warnings) md += "> **Warning:** " + escapeMarkdown(w) + "\n\n";
    md += "Reference: \"" + escapeMarkdown(runs[ref].label) + "\" (" + reason + ").\n\n";
    if (runs.size() > 1) compare::verdictSection(comparing, md, j);
    out.gates = compare::evaluateGates(options.gates, units, ref, options.weak);
    j["gates"] = compare::gatesJson(out.gates);
    md += compare::gatesMarkdown(out.gates);
    overview(runs, units, ref, md, j);
    // The levels first, for their parts shown higher up (the kernels under communication).
    std::string levels, overlap;
    compareLevels(reports, labels, levels, overlap, j, out.files);
    if (runs.size() > 1) {
        compare::comparativeSection(comparing, md, j);
        compare::timeSplitSection(comparing, md, j, out.files);
        compare::kernelDeltas(reports, labels, units, ref, md, j);
        md += overlap;
        compare::perUnitSection(comparing, md, j);
    } else {
        j["kernel_deltas"] = json::array();
        md += overlap;
    }
    deviceEfficiency(runs, ref, out);
    scaling(runs, ref, reason, options.weak, warnings, out);
    for (const auto& w : warnings) j["warnings"].push_back(w);
    compare::compareTables(reports, labels, md, j);
    md += levels;
    return out;
}

std::vector<std::string> comparePlotFiles() {
    std::vector<std::string> files;
    for (std::size_t c = 0; c < compare::kConventionCount; ++c) {
        files.push_back(compare::efficiencyPlotFile(c));
        files.push_back(compare::scalingPlotFile(c));
    }
    files.push_back(compare::kPhasesPlotFile);
    files.push_back(compare::kTimeSplitPlotFile);
    return files;
}

} // namespace gpueff::reports
