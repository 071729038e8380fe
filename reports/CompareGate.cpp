#include "reports/CompareGate.h"

#include "engine/common/Error.h"
#include "reports/MarkdownTable.h"
#include "reports/ReportMarkdown.h"
#include "reports/SvgFrame.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace gpueff::reports::compare {

namespace {

constexpr const char* kGateHelp = "expected FIGURE OP NUMBER[UNIT], e.g. iteration_time<=+3%, "
                                  "parallel_efficiency>=-2pp, computational_efficiency>=0.97";

[[noreturn]] void refuse(const std::string& text, const std::string& why) {
    throw Error("--gate \"" + text + "\": " + why);
}

std::string figureKeys() {
    std::string keys;
    for (const auto& f : comparedFigures()) keys += (keys.empty() ? "" : ", ") + std::string(f.key);
    return keys;
}

// The gated quantity of one comparison in the gate's unit, and the map of a shift onto it.
struct Quantity {
    Value measured;
    double scale = 1, offset = 0; // interval = offset + scale x shift
};

Quantity quantity(const Gate& g, const FigureComparison& c) {
    switch (g.unit) {
    case GateUnit::Percent:
        return {c.relativeChange(), c.reference && *c.reference != 0 ? 100 / *c.reference : 0, 0};
    case GateUnit::Points:
        return {c.change() ? Value(*c.change() * 100) : std::nullopt, 100, 0};
    case GateUnit::Time:
        return {c.change(), 1, 0};
    case GateUnit::Absolute:
        break;
    }
    return {c.run, 1, c.reference.value_or(0)};
}

bool holds(double measured, const std::string& op, double threshold) {
    if (op == "<=") return measured <= threshold;
    if (op == "<") return measured < threshold;
    if (op == ">=") return measured >= threshold;
    return measured > threshold;
}

// The quantity as the gate writes it: "+13.1 %", "-8.97 pp", "+2.19 ms", "0.88".
std::string shown(const Gate& g, double v) {
    switch (g.unit) {
    case GateUnit::Percent:
        return formatFixed(v, "%+.2f %%");
    case GateUnit::Points:
        return formatFixed(v, "%+.2f pp");
    case GateUnit::Time:
        return (v >= 0 ? "+" : "-") + formatDuration(std::fabs(v));
    case GateUnit::Absolute:
        break;
    }
    return formatFixed(v, "%.4g");
}

} // namespace

Gate parseGate(const std::string& textIn) {
    std::string text;
    for (char ch : textIn)
        if (ch != ' ') text += ch;
    Gate g;
    g.text = textIn;
    auto opAt = text.find_first_of("<>");
    if (opAt == std::string::npos || opAt == 0) refuse(textIn, kGateHelp);
    std::string key = text.substr(0, opAt);
    g.op = text.substr(opAt, text.size() > opAt + 1 && text[opAt + 1] == '=' ? 2 : 1);
    std::string rest = text.substr(opAt + g.op.size());
    if (auto at = key.find('@'); at != std::string::npos) {
        std::string convention = key.substr(at + 1);
        key.resize(at);
        if (convention == kConventions[1].key)
            g.convention = 1;
        else if (convention != kConventions[0].key)
            refuse(textIn, "unknown NCCL convention \"" + convention +
                               "\" (nccl_as_communication or nccl_as_useful)");
    }
    g.figure = comparedFigure(key);
    if (!g.figure) refuse(textIn, "unknown figure \"" + key + "\" (one of " + figureKeys() + ")");
    if (g.convention == 1 && !g.figure->perConvention)
        refuse(textIn, std::string(g.figure->key) + " is the same under both NCCL conventions");
    const char* begin = rest.data() + (rest.starts_with('+') ? 1 : 0);
    const char* end = rest.data() + rest.size();
    auto [stop, ec] = std::from_chars(begin, end, g.threshold);
    if (ec != std::errc() || !std::isfinite(g.threshold))
        refuse(textIn, "no number after " + g.op + "; " + kGateHelp);
    std::string unit(stop, end);
    static const std::pair<const char*, double> kTimes[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
    if (unit == "%") {
        g.unit = GateUnit::Percent;
    } else if (unit == "pp") {
        if (g.figure->kind != FigureKind::Fraction)
            refuse(textIn,
                   std::string(g.figure->key) + " is not an efficiency: give its change in % instead of pp");
        g.unit = GateUnit::Points;
    } else if (!unit.empty()) {
        bool known = false;
        for (auto [name, scale] : kTimes)
            if (unit == name) known = true, g.threshold *= scale;
        if (!known) refuse(textIn, "unknown unit \"" + unit + "\" (%, pp, ns, us, ms, s or none)");
        if (g.figure->kind != FigureKind::Time)
            refuse(textIn, std::string(g.figure->key) + " is not a time: a unit of time does not apply");
        g.unit = GateUnit::Time;
    } else if (g.figure->kind == FigureKind::Time) {
        refuse(textIn, std::string(g.figure->key) + " needs a unit: its change in % or in ns, us, ms or s");
    }
    return g;
}

GateResult evaluateGate(const Gate& g, const RunUnit& run, const RunUnit& reference, bool weak) {
    auto c = compareFigure(*g.figure, run, reference, g.convention, weak);
    auto q = quantity(g, c);
    GateResult res{&g, run.label, q.measured, {}, {}, c.significant(), false, {}};
    if (c.shift) {
        res.low = q.offset + q.scale * c.shift->low;
        res.high = q.offset + q.scale * c.shift->high;
    }
    if (!q.measured) {
        res.detail = "not computable for this run: passes";
    } else if (holds(*q.measured, g.op, g.threshold)) {
        res.detail = shown(g, *q.measured) + " meets " + g.op + " " + shown(g, g.threshold);
    } else if (res.significant == false) {
        res.detail = shown(g, *q.measured) + " breaks " + g.op + " " + shown(g, g.threshold) +
                     ", within run-to-run noise (95 % interval " + shown(g, *res.low) + " to " +
                     shown(g, *res.high) + "): passes";
    } else {
        res.failed = true;
        res.detail = shown(g, *q.measured) + " breaks " + g.op + " " + shown(g, g.threshold) +
                     (res.significant ? ", beyond run-to-run noise (95 % interval " + shown(g, *res.low) +
                                            " to " + shown(g, *res.high) + ")"
                                      : " (no interval: the runs are compared per window or have "
                                        "too few steady iterations)");
    }
    return res;
}

std::vector<GateResult> evaluateGates(const std::vector<Gate>& gates, const std::vector<RunUnit>& runs,
                                      std::size_t reference, bool weak) {
    std::vector<GateResult> out;
    for (const auto& g : gates)
        for (std::size_t r = 0; r < runs.size(); ++r)
            if (r != reference) out.push_back(evaluateGate(g, runs[r], runs[reference], weak));
    return out;
}

nlohmann::json gatesJson(const std::vector<GateResult>& results) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& r : results) {
        const char* unit[] = {"value", "%", "pp", "ns"};
        out.push_back(
            {{"gate", r.gate->text},
             {"figure", r.gate->figure->key},
             {"convention", kConventions[r.gate->convention].key},
             {"run", r.run},
             {"unit", unit[static_cast<int>(r.gate->unit)]},
             {"op", r.gate->op},
             {"threshold", r.gate->threshold},
             {"measured", orNull(r.measured)},
             {"interval", r.low ? nlohmann::json::array({*r.low, *r.high}) : nlohmann::json(nullptr)},
             {"significant", orNull(r.significant)},
             {"result", r.failed ? "fail" : "pass"},
             {"detail", r.detail}});
    }
    return out;
}

std::string gatesMarkdown(const std::vector<GateResult>& results) {
    if (results.empty()) return "";
    std::size_t failed = 0;
    detail::MarkdownTable t({"Gate", "Run", "Result", "Why"}, "llll");
    for (const auto& r : results) {
        failed += r.failed;
        t.row({escapeMarkdown(r.gate->text), escapeMarkdown(r.run), r.failed ? "**fail**" : "pass",
               escapeMarkdown(r.detail)});
    }
    return "## Gates\n\n" +
           (failed ? std::to_string(failed) + " of " + std::to_string(results.size()) +
                         " gate checks failed (exit status 4)."
                   : "Every gate passed (" + std::to_string(results.size()) + " checks).") +
           " A gate fails when its figure breaks the condition beyond the run-to-run noise (the 95 % "
           "interval "
           "of the per-iteration shift does not hold 0).\n\n" +
           t.str() + "\n";
}

std::string gatesJunit(const std::vector<GateResult>& results) {
    std::size_t failed = 0;
    for (const auto& r : results) failed += r.failed;
    std::string counts = " tests=\"" + std::to_string(results.size()) + "\" failures=\"" +
                         std::to_string(failed) + "\" errors=\"0\"";
    std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"gpueff compare\"" +
                      counts + ">\n  <testsuite name=\"gpueff compare gates\"" + counts + ">\n";
    for (const auto& r : results) {
        xml += "    <testcase classname=\"gpueff.compare." + svg::escapeXml(r.run) + "\" name=\"" +
               svg::escapeXml(r.gate->text) + "\"";
        if (r.failed)
            xml += ">\n      <failure message=\"" + svg::escapeXml(r.detail) + "\">" +
                   svg::escapeXml(r.detail) + "</failure>\n    </testcase>\n";
        else
            xml += "/>\n";
    }
    return xml + "  </testsuite>\n</testsuites>\n";
}

} // namespace gpueff::reports::compare
