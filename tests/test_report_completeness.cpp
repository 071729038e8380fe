// A full report has every figure it can have. report.md, its plots and compare are rendered from the report
// model (reports/model/), where a figure the report does not hold (a null, a key older reports leave out)
// prints "n/a" and nothing fails.
// Here inputs that together fill every section of report.md (NCCL on two GPUs with stragglers, tensor cores
// from GPU metrics, MPI, iterations and phases from NVTX, the nsys stats summaries, memory operations, an
// analysis window set by an NVTX region, a Kineto trace with HTA's figures, a cut of an nsys2prv trace) are
// analyzed by the binary, and:
//   - each report.json follows docs/report.schema.json (the product's validator);
//   - every "n/a", "nan", "inf" or empty table cell of each report.md is justified: it matches an entry of
//     justified() below (section, column) whose condition the report.json confirms (the data has no value
//     there); any other fails naming the input, the line and the text;
//   - every key the report model declares (its fields lists, found in reports/model/ at test time) occurs in at
//     least one of these report.json documents, so a figure the model can hold but no analysis fills cannot
//     hide behind an "n/a".
#include "tests/MarkdownAudit.h"
#include "tests/TestSupport.h"

#include <cstddef>
#include <doctest/doctest.h>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using nlohmann::json;
using namespace markdownaudit;
using namespace testsupport;

namespace {

// Its overlap share (communication under computation / communication) is undefined without communication.
bool noCommunication(const json& level) {
    if (!level.is_object()) return false;
    const json& devices = field(field(field(level, "efficiency"), "nccl_as_communication"), "devices");
    if (!devices.is_array() || devices.empty()) return false;
    for (const auto& d : devices)
        if (!isZero(field(d, "communication_ns"))) return false;
    return true;
}

const json& iteration(const json& report, const Finding& f) {
    static const json none;
    if (f.row.empty() || f.row.find_first_not_of("0123456789") != std::string::npos) return none;
    return entryWith(field(report, "iterations"), "index", std::stoll(f.row));
}

const json& phase(const json& report, const Finding& f) {
    static const json none;
    const json& phases = field(report, "phases");
    return phases.is_array() && f.rowIndex < phases.size() ? phases[f.rowIndex] : none;
}

// Where report.md may say "n/a" or leave a cell empty: the data has no value there. Each entry names the
// section (the start of its heading) and column ("" for a line outside a table; "*factor*" for PE, LB, CommE
// and OrchE), what it excuses ("n/a" or "(empty cell)"), why, and the condition on report.json that must hold
// for the finding it excuses. A non-finite number is never excused.
struct Justified {
    const char* section;
    const char* column;
    const char* text;
    const char* why;
    std::function<bool(const json& report, const Finding& f)> dataSays;
};

const std::vector<Justified>& justified() {
    static const std::vector<Justified> list = {
        {"Offload efficiency", "", "n/a",
         "host offload efficiency needs CUDA synchronization records; the Notes say when the trace has none",
         [](const json& r, const Finding& f) {
             return f.row.rfind("n/a: not computed for this trace", 0) == 0 &&
                    noteStarting(r, "host offload efficiency not computed");
         }},
        {"HTA's definitions", "Comm-comp overlap", "n/a",
         "HTA's comm-comp overlap divides by the device's NCCL time: undefined on a device that runs no NCCL "
         "kernel",
         [](const json& r, const Finding& f) {
             return isZero(field(entryWith(field(r, "devices"), "label", f.row), "nccl_ns"));
         }},
        {"Steady iterations", "Overlap", "n/a", "an iteration without communication has no overlap share",
         [](const json& r, const Finding& f) { return noCommunication(iteration(r, f)); }},
        {"Phases", "Overlap", "n/a", "a phase without communication has no overlap share",
         [](const json& r, const Finding& f) { return noCommunication(phase(r, f)); }},
        {"Steady iterations", "*factor*", "n/a", "an iteration without useful work has no efficiency factors",
         [](const json& r, const Finding& f) { return noUsefulWork(iteration(r, f)); }},
        {"Phases", "*factor*", "n/a",
         "a phase without useful work (power_iteration's Copy phase: memory copies only) has no efficiency "
         "factors",
         [](const json& r, const Finding& f) { return noUsefulWork(phase(r, f)); }},
        {"Inputs", "", "n/a",
         "nsys2prv records no inputs (no sidecar): the section says so instead of listing them",
         [](const json& r, const Finding& f) {
             return f.row.rfind("n/a: the trace was written by nsys2prv", 0) == 0 &&
                    field(field(r, "trace"), "writer") == "nsys2prv";
         }},
        {"Where each device is", "Host", "n/a",
         "an nsys2prv trace's .row names no host (its devices are task<t>:<gpu>)",
         [](const json& r, const Finding& f) {
             const json& d = entryWith(field(r, "devices"), "label", f.row);
             return field(field(r, "trace"), "writer") == "nsys2prv" && d.is_object() &&
                    field(d, "host") == "";
         }},
        {"Where each device is", "PID", "n/a", "an nsys2prv trace's .row names no process id",
         [](const json& r, const Finding& f) {
             const json& d = entryWith(field(r, "devices"), "label", f.row);
             return field(field(r, "trace"), "writer") == "nsys2prv" && d.is_object() &&
                    field(d, "pid").is_null();
         }},
        {"Kernels queued", "", "n/a",
         "kernels queued need launch lines that leave at the end of the launch call; the Notes say when the "
         "trace's do not (nsys2prv's leave at its start)",
         [](const json& r, const Finding& f) {
             return f.row.rfind("n/a: not computed for this trace", 0) == 0 &&
                    noteStarting(r, "kernels queued: not computed");
         }},
        // Layout, not data: the device count is one figure for both conventions, written once.
        {"Device efficiency", "NCCL as useful", "(empty cell)",
         "the device count is the same in both conventions",
         [](const json& r, const Finding& f) {
             return f.row == "Devices" && field(r, "devices").is_array();
         }},
        // The whole window's overlap is the "Communication / computation overlap" section's (per device, by
        // concurrency): report.json has no window-wide overlap_share beside the focus' to put here.
        {"Focus of analysis", "Whole window", "(empty cell)",
         "overlap_share is computed per iteration, phase and focus only",
         [](const json& r, const Finding& f) {
             return f.row == "Overlap share" && field(r, "focus").is_object() &&
                    field(r, "overlap_share").is_null();
         }},
    };
    return list;
}

bool isFactorColumn(const std::string& column) {
    return column == "PE" || column == "LB" || column == "CommE" || column == "OrchE";
}

bool excused(const json& report, const Finding& f) {
    for (const auto& j : justified()) {
        bool column = j.column == std::string("*factor*") ? isFactorColumn(f.column) : f.column == j.column;
        if (f.section.rfind(j.section, 0) == 0 && column && f.text == j.text && j.dataSays(report, f))
            return true;
    }
    return false;
}

// The keys the report model declares (key -> the header declaring it first): the first argument of every
// f("key", ...) call of the fields lists in reports/model/*.h.
std::map<std::string, std::string> modelKeys() {
    static const std::regex field(R"re(\bf\(\s*"([a-z][a-z0-9_/]*)")re");
    std::map<std::string, std::string> keys;
    for (const auto& header : std::filesystem::directory_iterator(sourceDir() / "reports" / "model")) {
        if (header.path().extension() != ".h") continue;
        std::string code = readText(header.path());
        for (std::sregex_iterator it(code.begin(), code.end(), field), end; it != end; ++it)
            keys.emplace((*it)[1].str(), header.path().filename().string());
    }
    REQUIRE(keys.size() > 100); // the regex still finds the fields lists
    return keys;
}

void collectKeys(const json& j, std::set<std::string>& keys) {
    if (j.is_object())
        for (auto it = j.begin(); it != j.end(); ++it) {
            keys.insert(it.key());
            collectKeys(it.value(), keys);
        }
    else if (j.is_array())
        for (const auto& e : j) collectKeys(e, keys);
}

struct Input {
    std::string name;
    std::string arguments; // inputs and options of gpueff analyze, quoted
};

} // namespace

TEST_CASE("a full report.md says n/a only where the data has no value, and every key of the report model is "
          "one some report.json holds") {
    auto dir = tempDir("report_completeness");
    auto data = dataDir();
    // A cut of an nsys2prv trace: the writer nsys2prv and the cut's shift (trace.cut_shift_ns).
    auto cut = run(quoted(gpueffBinary()) + " cut " +
                   quoted(data / "paraver" / "fidelity" / "traces" / "power_iteration_t4.nsys2prv.prv.gz") +
                   " -q -o " + quoted(dir / "nsys2prv_cut") + " --begin 1000000");
    REQUIRE_MESSAGE(cut.exitCode == 0, cut.output);
    auto gpuMetrics = buildDatabase(data / "synthetic" / "gpu_metrics.sql", dir / "gpu_metrics.sqlite");
    auto mpi0 = buildDatabase(data / "synthetic" / "mpi_rank0.sql", dir / "mpi_rank0.sqlite");
    auto mpi1 = buildDatabase(data / "synthetic" / "mpi_rank1.sql", dir / "mpi_rank1.sqlite");
    const std::vector<Input> inputs = {
        // NCCL on 2 GPUs: collectives, stragglers, overlap per NCCL kernel, kernels born equal or not.
        {"nccl", quoted(data / "nsys" / "mfu_2gpu_h100_nccl.sqlite")},
        // Iterations and phases from NVTX, memory copies, the nsys stats summaries, a window set by a region.
        {"phases", quoted(data / "nsys" / "power_iteration_t4.sqlite")},
        {"region", quoted(data / "nsys" / "power_iteration_t4.sqlite") + " --region Loop"},
        // MPI of a real run (one rank) and of two (fixtures).
        {"mpi", quoted(data / "nsys" / "saxpy_mpi_a100_rank0.sqlite")},
        {"mpi2", quoted(mpi0) + " " + quoted(mpi1)},
        // Tensor Active from GPU metrics.
        {"tensor", quoted(gpuMetrics)},
        // Kineto with NCCL and profiler steps: HTA's rules for Kineto traces.
        {"kineto", quoted(data / "kineto" / "nccl_parser_config_nccl_data.json.gz")},
        // Kineto with cuda_sync events: host offload of a Kineto trace, HTA counting host events with a
        // stream.
        {"kineto_sync", quoted(data / "kineto" / "critical_path_alexnet_trace.json.gz")},
        {"nsys2prv", quoted(dir / "nsys2prv_cut.prv")},
    };
    std::set<std::string> reportKeys;
    for (const auto& input : inputs) {
        CAPTURE(input.name);
        auto out = dir / input.name;
        auto r = run(quoted(gpueffBinary()) + " analyze " + input.arguments + " -q -o " + quoted(out));
        REQUIRE_MESSAGE(r.exitCode == 0, r.output);
        json report = json::parse(readText(out / "report.json"));
        CHECK_MESSAGE(reportSchemaViolation(report).empty(), reportSchemaViolation(report));
        collectKeys(report, reportKeys);
        for (const auto& f : suspicious(readText(out / "report.md")))
            CHECK_MESSAGE(excused(report, f), input.name << "/report.md:" << f.line << " [" << f.section
                                                         << (f.column.empty() ? "" : " / " + f.column) << "] "
                                                         << f.text << " in: " << f.row);
        // The plots print a value or say n/a; a non-finite number never reaches an attribute or a label.
        for (const auto& svg : std::filesystem::directory_iterator(out / "plots")) {
            auto text = readText(svg.path());
            CHECK_MESSAGE(!std::regex_search(text, nonFinite()), svg.path());
        }
    }
    for (const auto& [key, header] : modelKeys())
        CHECK_MESSAGE(reportKeys.count(key) == 1,
                      "reports/model/" << header << " declares \"" << key << "\", which no full report.json holds");
}
