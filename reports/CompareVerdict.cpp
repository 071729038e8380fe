#include "reports/CompareVerdict.h"

#include "reports/CompareFigures.h"
#include "reports/ReportMarkdown.h"
#include "reports/SvgFrame.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace gpueff::reports::compare {

using nlohmann::json;

namespace {

// A share of the total kernel time above which a kernel that runs in one run only makes them incomparable.
constexpr double kForeignKernelShare = 0.05;

std::string percentOf(Value v) {
    return v ? formatFixed(*v * 100, "%.1f %%") : "n/a";
}
std::string pointsBetween(Value before, Value after) {
    return before && after ? formatFixed((*after - *before) * 100, "%+.1f pp") : "n/a";
}

struct Part {
    const char* name;
    const char* factor;  // the efficiency that loses it
    double delta;        // device time per unit, run - reference
    Value before, after; // the factor in the reference and in the run
    std::string evidence;
};

// The kernel (collective or not, as asked) whose time per unit changed most, as "\"NAME\" +x ms per iteration
// (...)" (plain text: compare.json holds it as it is, compare.md escaped).
std::string kernelEvidence(const RunUnit& ref, const RunUnit& run, bool collective, const char* per) {
    // Per unit: the whole trace's figures of each run times its own `per`.
    struct PerUnit {
        double total = 0, instances = 0;
    };
    auto perUnit = [](const RunUnit& u, const std::string& name) {
        auto it = u.work.kernels.find(name);
        return it == u.work.kernels.end()
                   ? PerUnit{}
                   : PerUnit{it->second.total * u.work.per, it->second.instances * u.work.per};
    };
    std::set<std::string> names;
    for (const auto* u : {&ref, &run})
        for (const auto& [name, k] : u->work.kernels)
            if (k.collective == collective) names.insert(name);
    std::string best;
    double most = 0;
    PerUnit a, b;
    for (const auto& name : names) {
        auto ka = perUnit(ref, name), kb = perUnit(run, name);
        double d = kb.total - ka.total;
        if (std::fabs(d) > std::fabs(most)) most = d, best = name, a = ka, b = kb;
    }
    if (best.empty() || most == 0) return "";
    auto mean = [](const PerUnit& k) {
        return k.instances > 0 ? formatDuration(k.total / k.instances) : std::string("-");
    };
    return "\"" + shortenForTable(best, 48, 48) + "\" " + signedDuration(most) + " " + per + " (" +
           formatFixed(a.instances, "%.2f") + " \xE2\x86\x92 " + formatFixed(b.instances, "%.2f") +
           " instances, mean " + mean(a) + " \xE2\x86\x92 " + mean(b) + ")";
}

// The compute kernel with the most time overlapped by communication in a report (kernel_overlap), and its
// slowdown there (median overlapped / median alone), as text.
std::string overlapSlowdown(const model::Report& r) {
    if (!r.kernelOverlap) return "";
    const model::KernelOverlap* most = nullptr;
    for (const auto& k : *r.kernelOverlap)
        if (k.slowdown && k.overlapped && (!most || k.overlapped->totalNs > most->overlapped->totalNs))
            most = &k;
    return most ? "\"" + shortenForTable(most->name, 40, 40) + "\" x" + formatFixed(*most->slowdown, "%.2f")
                : "";
}

// `computational`: the run's computational efficiency against the reference (runVerdict has it already).
std::vector<Part> partsOf(const Comparing& c, std::size_t r, const FigureComparison& computational) {
    const RunUnit &R = c.units[c.reference], &u = c.units[r];
    const char* per = unitName(u.perIteration);
    const auto &a = R.split[0], &b = u.split[0];
    std::vector<Part> parts = {
        {"useful work", "computational efficiency", b.useful - a.useful, computational.reference,
         computational.run, kernelEvidence(R, u, false, per)},
        {"load balance", "load balance", b.loadBalance - a.loadBalance, R.factors[0][1], u.factors[0][1], ""},
        {"communication", "communication efficiency", b.communication - a.communication, R.factors[0][2],
         u.factors[0][2], ""},
        {"orchestration", "orchestration efficiency", b.orchestration - a.orchestration, R.factors[0][3],
         u.factors[0][3], ""}};
    std::string slowRef = overlapSlowdown(c.reports[c.reference]), slowRun = overlapSlowdown(c.reports[r]);
    if (!slowRef.empty() || !slowRun.empty())
        parts[0].evidence += std::string(parts[0].evidence.empty() ? "" : "; ") +
                             "the compute kernel most overlapped by communication, its slowdown there: " +
                             (slowRef.empty() ? "none" : slowRef) + " in the reference, " +
                             (slowRun.empty() ? "none" : slowRun) + " in this run";
    parts[1].evidence = "the busiest device's useful time over the mean: load balance " +
                        percentOf(R.factors[0][1]) + " \xE2\x86\x92 " + percentOf(u.factors[0][1]);
    parts[2].evidence = "communication time summed over devices " + formatDuration(R.communicationSum[0]) +
                        " \xE2\x86\x92 " + formatDuration(u.communicationSum[0]) + " " + per;
    if (auto k = kernelEvidence(R, u, true, per); !k.empty()) parts[2].evidence += "; " + k;
    parts[3].evidence =
        "idle in gaps " + formatDuration(R.work.gapNs) + " \xE2\x86\x92 " + formatDuration(u.work.gapNs) +
        " " + per + ", of it waiting for the host " + formatDuration(R.work.hostWaitNs) + " \xE2\x86\x92 " +
        formatDuration(u.work.hostWaitNs) + " (" + formatFixed(R.work.hostWaitGaps, "%.1f") +
        " \xE2\x86\x92 " + formatFixed(u.work.hostWaitGaps, "%.1f") + " gaps) and with work launched " +
        formatDuration(R.work.kernelWaitNs) + " \xE2\x86\x92 " + formatDuration(u.work.kernelWaitNs);
    if (R.work.blockingNs > 0 || u.work.blockingNs > 0)
        parts[3].evidence += "; blocking CUDA calls " + formatDuration(R.work.blockingNs) + " \xE2\x86\x92 " +
                             formatDuration(u.work.blockingNs) + " " + per + " (summed over tasks)";
    return parts;
}

std::string runVerdict(const Comparing& c, std::size_t r, json& j) {
    const RunUnit &R = c.units[c.reference], &u = c.units[r];
    const char* per = unitName(u.perIteration);
    auto time = compareFigure(*comparedFigure("iteration_time"), u, R, 0, c.weak);
    auto global = compareFigure(*comparedFigure("global_efficiency"), u, R, 0, c.weak);
    auto computational = compareFigure(*comparedFigure("computational_efficiency"), u, R, 0, c.weak);
    const double delta = u.timeNs - R.timeNs;
    const double relative = R.timeNs > 0 ? delta / R.timeNs * 100 : 0;
    std::string noise;
    std::string direction = delta > 0 ? "slower" : delta < 0 ? "faster" : "as fast";
    if (time.shift) {
        const auto& s = *time.shift;
        std::string interval = "95 % interval of the shift " + signedDuration(s.low) + " to " +
                               signedDuration(s.high) + ", " + formatFixed(R.iterations, "%.0f") + " and " +
                               formatFixed(u.iterations, "%.0f") + " steady iterations";
        noise = s.significant() ? ", beyond run-to-run noise (" + interval + ")"
                                : ": **within run-to-run noise** (" + interval + ")";
    } else {
        noise = u.perIteration ? " (no interval: too few steady iterations)"
                               : " (no interval: compared per window, without iterations)";
    }
    std::string md = "**\"" + escapeMarkdown(u.label) + "\" is " + direction + " than \"" +
                     escapeMarkdown(R.label) + "\" by " + formatDuration(std::fabs(delta)) + " " + per +
                     " (" + formatFixed(relative, "%+.1f %%") + ": " + formatDuration(u.timeNs) +
                     " against " + formatDuration(R.timeNs) + ")" + noise + ".** ";
    md += "Speedup " +
          (time.run && R.timeNs > 0 && u.timeNs > 0 ? formatFixed(R.timeNs / u.timeNs, "%.2fx") : "n/a") +
          "; global efficiency " + percentOf(global.run) + " = parallel efficiency " +
          percentOf(u.factors[0][0]) + " x computational efficiency " + percentOf(computational.run) +
          " (NCCL as communication).";
    auto parts = partsOf(c, r, computational);
    std::stable_sort(parts.begin(), parts.end(),
                     [](const Part& x, const Part& y) { return std::fabs(x.delta) > std::fabs(y.delta); });
    const double deviceDelta = u.split[0].total() - R.split[0].total();
    md += " What explains it, in device time " + std::string(per) + " (" + formatFixed(u.devices, "%.0f") +
          (u.devices == 1 ? " device" : " devices") + " x time: " + signedDuration(deviceDelta) + "):\n\n";
    json jparts = json::array();
    int shown = 0;
    for (const auto& p : parts) {
        const Value &before = p.before, &after = p.after;
        jparts.push_back({{"part", p.name},
                          {"factor", p.factor},
                          {"delta_ns", p.delta},
                          {"reference", orNull(p.before)},
                          {"run", orNull(p.after)},
                          {"evidence", p.evidence}});
        if (shown == 3 || p.delta == 0 || (shown > 0 && std::fabs(p.delta) < 0.05 * std::fabs(deviceDelta)))
            continue;
        md += std::to_string(++shown) + ". **" + p.name + "** " + signedDuration(p.delta) + " (" + p.factor +
              " " + percentOf(before) + " \xE2\x86\x92 " + percentOf(after) + ", " +
              pointsBetween(before, after) + ")" +
              (p.evidence.empty() ? "" : ": " + escapeMarkdown(p.evidence)) + "\n";
    }
    if (shown == 0) md += "nothing: the split is the same.\n";
    j = {{"run", u.label},
         {"reference", R.label},
         {"unit", u.perIteration ? "iteration" : "window"},
         {"time_ns", u.timeNs},
         {"reference_time_ns", R.timeNs},
         {"difference_ns", delta},
         {"difference_percent", relative},
         {"interval_ns", time.shift ? json::array({time.shift->low, time.shift->high}) : json(nullptr)},
         {"significant", orNull(time.significant())},
         {"verdict", !time.shift                 ? std::string(direction) + " (no interval)"
                     : time.shift->significant() ? direction
                                                 : std::string("within noise")},
         {"parts", std::move(jparts)}};
    return md + "\n";
}

} // namespace

std::vector<std::string> comparability(const Comparing& c) {
    std::vector<std::string> out;
    const auto& R = c.reports[c.reference];
    const std::string& refLabel = c.units[c.reference].label;
    for (std::size_t r = 0; r < c.reports.size(); ++r) {
        if (r == c.reference) continue;
        const auto& u = c.reports[r];
        const std::string& label = c.units[r].label;
        if (R.iterationDetection && u.iterationDetection) {
            const auto &a = *R.iterationDetection, &b = *u.iterationDetection;
            if (a.source != b.source || a.pattern != b.pattern)
                out.push_back("the iterations were found differently (" + a.source +
                              (a.pattern ? " \"" + *a.pattern + "\"" : "") + " in \"" + refLabel + "\", " +
                              b.source + (b.pattern ? " \"" + *b.pattern + "\"" : "") + " in \"" + label +
                              "\"): an iteration may not be the same work");
        }
        // Kernels that take a noticeable share of one run's kernel time and do not run in the other.
        for (auto [x, y, xl, yl] : {std::tuple{&c.units[c.reference], &c.units[r], refLabel, label},
                                    std::tuple{&c.units[r], &c.units[c.reference], label, refLabel}}) {
            for (const auto& [name, k] : x->work.kernels)
                if (x->work.kernelNs > 0 && k.total * x->work.per / x->work.kernelNs >= kForeignKernelShare &&
                    !y->work.kernels.count(name)) {
                    out.push_back("kernel \"" + svg::shortLabel(name, 124) + "\" (" +
                                  formatFixed(k.total * x->work.per / x->work.kernelNs * 100, "%.0f %%") +
                                  " of the kernel time of \"" + xl + "\") does not run in \"" + yl +
                                  "\": the runs may not do the same work");
                    break;
                }
        }
    }
    return out;
}

void verdictSection(const Comparing& c, std::string& md, json& out) {
    const RunUnit& R = c.units[c.reference];
    md += "## Verdict\n\n";
    if (R.perIteration)
        md += "Compared per steady iteration (the mean of each run's steady iterations; the 95 % interval is "
              "Hodges-Lehmann's, from the Mann-Whitney rank test, docs/compare.md).\n\n";
    else
        md += "Compared per window: not every run has steady iterations, so each run's whole window is the "
              "unit "
              "and a difference may only reflect how much work each window holds.\n\n";
    out["verdict"] = json::array();
    for (std::size_t r = 0; r < c.units.size(); ++r) {
        if (r == c.reference) continue;
        json j;
        md += runVerdict(c, r, j);
        out["verdict"].push_back(std::move(j));
    }
    auto notes = comparability(c);
    out["comparability"] = notes;
    if (!notes.empty()) {
        md += "Comparability:\n\n";
        for (const auto& n : notes) md += "- " + escapeMarkdown(n) + "\n";
        md += "\n";
    }
}

} // namespace gpueff::reports::compare
