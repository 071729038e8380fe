// A comparison says "n/a" or "-" only where a run has no value. compare.md is rendered from the runs' report
// models (reports/model/), where a figure a report does not hold prints "n/a" and nothing fails. Here four
// analyze outputs of real inputs that together fill compare's sections (NCCL on two GPUs; the same with
// --no-trace, which writes no .prv; power_iteration with NVTX phases, one GPU; a Kineto trace with
// profiler-step phases and no CUDA synchronization records) are compared by the binary, and every "n/a",
// non-finite number, empty table cell and "-" placeholder ("-", or a side of "first -> run") of compare.md
// must match an entry of justified() below whose condition compare.json and the input report.json confirm;
// any other fails naming the line and the text.
#include "tests/MarkdownAudit.h"
#include "tests/TestSupport.h"

#include <cstddef>
#include <doctest/doctest.h>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

using nlohmann::json;
using namespace markdownaudit;
using namespace testsupport;

namespace {

// What a finding is checked against: compare.json and each run's report.json, by label.
struct Documents {
    json compare;
    std::map<std::string, json> reports;
};

// The run a cell of a per-run table belongs to: its column's header is the run's label (the labels here need
// no escaping).
const json& reportOf(const Documents& d, const Finding& f) {
    static const json none;
    auto it = d.reports.find(f.column);
    return it == d.reports.end() ? none : it->second;
}

// compare.json's per-run array entry (host, runs) of the run of a finding's column.
const json& perRun(const Documents& d, const char* key, const Finding& f) {
    return entryWith(field(d.compare, key), "label", f.column);
}

// The run's index among compare.json's runs, or -1.
long runIndex(const Documents& d, const std::string& label) {
    const json& runs = field(d.compare, "runs");
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (field(runs[i], "label") == label) return static_cast<long>(i);
    return -1;
}

bool hasKernel(const json& report, const json& name) {
    return !entryWith(field(field(report, "kernel_summary"), "overall"), "name", name).is_null();
}

// The kernel of a row of the kernel-delta table of the run named by the finding's subsection.
const json& kernelDelta(const Documents& d, const Finding& f) {
    static const json none;
    const json& kernels = field(entryWith(field(d.compare, "kernel_deltas"), "label", f.section), "kernels");
    return kernels.is_array() && f.rowIndex < kernels.size() ? kernels[f.rowIndex] : none;
}

// The phase of a row of "Phases side by side" as compare.json has it for the finding's run (null when the
// run has no such phase), and its name.
const json& phaseRow(const Documents& d, const Finding& f) {
    static const json none;
    const json& phases = field(field(d.compare, "levels"), "phases");
    return phases.is_array() && f.rowIndex < phases.size() ? phases[f.rowIndex] : none;
}

const json& phaseRun(const Documents& d, const Finding& f) {
    static const json none;
    const json& runs = field(phaseRow(d, f), "runs");
    long i = runIndex(d, f.column);
    return runs.is_array() && i >= 0 && static_cast<std::size_t>(i) < runs.size() ? runs[i] : none;
}

bool noOffloadFigure(const json& offload) {
    for (const auto& o : offload)
        if (field(o, "offload_efficiency").is_number()) return false;
    return true;
}

// Where compare.md may say "n/a" or "-": a run has no value there. Each entry names the chapter (the start of
// its "## " heading), the column ("" for a line outside a table, "*run*" for any run's column, "*pair*" for
// the kernel tables' "first -> run" columns), the kind of text it excuses ("n/a", "-" or "(empty cell)"),
// why, and the condition on compare.json and the input reports that must hold for the finding it excuses. A
// non-finite number is never excused.
struct Justified {
    const char* chapter;
    const char* column;
    const char* kind;
    const char* why;
    std::function<bool(const Documents& d, const Finding& f)> dataSays;
};

const std::vector<Justified>& justified() {
    static const std::vector<Justified> list = {
        {"Runs", "", "n/a", "a run analyzed with --no-trace wrote no .prv: its trace is listed as n/a",
         [](const Documents& d, const Finding& f) {
             for (const auto& [label, report] : d.reports)
                 if (f.row == "- " + label + ": n/a")
                     return field(entryWith(field(d.compare, "runs"), "label", label), "trace") == "" &&
                            field(field(report, "trace"), "prv") == "";
             return false;
         }},
        {"Kernels: largest changes", "*pair*", "-",
         "a kernel present in one run only: its figures in the other are -",
         [](const Documents& d, const Finding& f) {
             const json& k = kernelDelta(d, f);
             const json& name = field(k, "name");
             bool firstMissing = f.text.rfind("- -> ", 0) == 0;
             // The first run is the one compared against (kernel_deltas' "against"); the other is the
             // subsection's.
             const json& against =
                 field(entryWith(field(d.compare, "kernel_deltas"), "label", f.section), "against");
             auto first = d.reports.find(against.is_string() ? against.get<std::string>() : "");
             auto other = d.reports.find(f.section);
             if (!k.is_object() || first == d.reports.end() || other == d.reports.end()) return false;
             return firstMissing ? field(k, "first").is_null() && !hasKernel(first->second, name)
                                 : field(k, "run").is_null() && !hasKernel(other->second, name);
         }},
        {"Kernels: largest changes", "Difference", "n/a",
         "the change of the average needs the kernel in both runs: a kernel present in one run only has none",
         [](const Documents& d, const Finding& f) {
             const json& k = kernelDelta(d, f);
             return f.columnIndex == 5 && f.text == "n/a" && k.is_object() &&
                    field(field(k, "difference"), "avg_ns").is_null() &&
                    (field(k, "first").is_null() || field(k, "run").is_null());
         }},
        {"Host", "*run*", "n/a",
         "host offload efficiency needs CUDA synchronization records; the run's report says it has none",
         [](const Documents& d, const Finding& f) {
             const json& r = reportOf(d, f);
             return f.text == "n/a" && f.row.rfind("Offload efficiency", 0) == 0 &&
                    noOffloadFigure(field(perRun(d, "host", f), "offload")) &&
                    noOffloadFigure(field(field(r, "host"), "offload")) &&
                    noteStarting(r, "host offload efficiency not computed");
         }},
        {"Host", "*run*", "-",
         "a task that the run does not have (fewer processes) has no offload efficiency",
         [](const Documents& d, const Finding& f) {
             const std::string prefix = "&emsp;Task ";
             if (f.text != "-" || f.row.rfind(prefix, 0) != 0) return false;
             json task = std::stoll(f.row.substr(prefix.size()));
             return entryWith(field(perRun(d, "host", f), "offload"), "task", task).is_null() &&
                    entryWith(field(field(reportOf(d, f), "host"), "offload"), "task", task).is_null();
         }},
        {"Iterations and phases", "*run*", "n/a", "a phase that the run does not have",
         [](const Documents& d, const Finding& f) {
             return f.section == "Phases side by side" && f.text == "n/a" && phaseRun(d, f).is_null() &&
                    entryWith(field(reportOf(d, f), "phases"), "name", field(phaseRow(d, f), "name"))
                        .is_null();
         }},
        {"Iterations and phases", "*run*", "n/a",
         "a phase without useful work (power_iteration's Copy phase: memory copies only) has no parallel "
         "efficiency",
         [](const Documents& d, const Finding& f) {
             const json& p =
                 entryWith(field(reportOf(d, f), "phases"), "name", field(phaseRow(d, f), "name"));
             const std::string end = " / n/a";
             return f.section == "Phases side by side" && f.text.size() > end.size() &&
                    f.text.compare(f.text.size() - end.size(), end.size(), end) == 0 &&
                    field(phaseRun(d, f), "parallel_efficiency").is_null() && noUsefulWork(p);
         }},
    };
    return list;
}

bool columnMatches(const Documents& d, const std::string& column, const Finding& f) {
    if (column == "*run*") return d.reports.count(f.column) == 1;
    if (column == "*pair*")
        return f.column == "Time per iteration" || f.column == "Time per window" ||
               f.column == "Instances per iteration" || f.column == "Instances per window" ||
               f.column == "Average";
    return f.column == column;
}

bool excused(const Documents& d, const Finding& f) {
    for (const auto& j : justified())
        if (f.chapter.rfind(j.chapter, 0) == 0 && columnMatches(d, j.column, f) && f.kind == j.kind &&
            j.dataSays(d, f))
            return true;
    return false;
}

} // namespace

TEST_CASE("compare.md says n/a or - only where a run has no value") {
    auto dir = tempDir("compare_completeness");
    auto data = dataDir();
    struct Input {
        std::string label, arguments;
    };
    const std::vector<Input> inputs = {
        {"nccl", quoted(data / "nsys" / "mfu_2gpu_h100_nccl.sqlite")},
        {"notrace", quoted(data / "nsys" / "mfu_2gpu_h100_nccl.sqlite") + " --no-trace"},
        {"phases", quoted(data / "nsys" / "power_iteration_t4.sqlite")},
        {"kineto", quoted(data / "kineto" / "nccl_parser_config_nccl_data.json.gz")},
    };
    Documents docs;
    std::string compare = quoted(gpueffBinary()) + " compare -q";
    for (const auto& input : inputs) {
        auto out = dir / input.label;
        auto r = run(quoted(gpueffBinary()) + " analyze " + input.arguments + " -q -o " + quoted(out));
        REQUIRE_MESSAGE(r.exitCode == 0, r.output);
        docs.reports[input.label] = json::parse(readText(out / "report.json"));
        compare += " " + quoted(out);
    }
    auto r = run(compare + " -o " + quoted(dir / "compare"));
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    docs.compare = json::parse(readText(dir / "compare" / "compare.json"));
    auto findings = suspicious(readText(dir / "compare" / "compare.md"), true);
    // The inputs do exercise the allow-list: a run without a trace, kernels of one run only, phases of one
    // run only, a run without offload figures.
    CHECK(findings.size() >= 4);
    for (const auto& f : findings)
        CHECK_MESSAGE(excused(docs, f), "compare.md:" << f.line << " [" << f.section
                                                      << (f.column.empty() ? "" : " / " + f.column) << "] "
                                                      << f.text << " in: " << f.row);
}
