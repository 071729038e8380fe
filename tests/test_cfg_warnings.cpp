// Malformed cfg lines and windows that paramedir skips without a word: gpueff evaluates the cfg as paramedir
// does and names each one with file:line in a warning (issue 23). The cfgs are written here, each around a
// known-good window, and evaluated on a tiny trace of the fidelity cases.
#include "TestSupport.h"

#include <doctest/doctest.h>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace testsupport;

namespace {

std::filesystem::path trace() {
    return dataDir() / "paraver" / "fidelity_cases" / "short_labels_sortcols" / "trace.prv";
}

const char* const kWindow = R"(window_name CUDA Activity
window_type single
window_units Nanoseconds
window_level thread
window_selected_functions { 14, { {cpu, Active Thd}, {appl, Adding}, {task, Adding}, {thread, Last Evt Val}, {node, Adding}, {system, Adding}, {workload, Adding}, {from_obj, All}, {to_obj, All}, {tag_msg, All}, {size_msg, All}, {bw_msg, All}, {evt_type, =}, {evt_value, All} } }
window_filter_module evt_type 1 63000006
)";

const char* const kHistogram = R"(< NEW ANALYZER2D >
Analyzer2D.Name: kernels
Analyzer2D.ControlWindow: 1
Analyzer2D.DataWindow: 1
Analyzer2D.Statistic: Time
Analyzer2D.AnalysisLimits: Alltrace
Analyzer2D.ComputeYScale: True
)";

struct Evaluated {
    CommandResult result;
    std::filesystem::path cfg, out;
};

Evaluated evaluate(const std::string& name, const std::string& text, const std::string& options = "",
                   const std::filesystem::path& on = trace()) {
    auto dir = tempDir("cfg_warnings_" + name);
    auto cfg = dir / (name + ".cfg");
    std::ofstream(cfg, std::ios::binary) << text;
    auto out = dir / "out";
    auto r = run(gpueffBinary().string() + " histogram " + options + " -o " + out.string() + " " +
                 on.string() + " " + cfg.string());
    return {r, cfg, out};
}

bool says(const Evaluated& e, const std::string& where, const std::string& what) {
    auto text = e.cfg.string() + ":" + where + ": " + what;
    return e.result.output.find(text) != std::string::npos;
}

} // namespace

TEST_CASE("cfg warnings: an unknown key is named with its line and changes nothing") {
    // Line 4: a misspelt window key; line 11: a misspelt histogram key; line 12: a global key Paraver lacks.
    std::string text = std::string("#ParaverCFG\nConfigFile.Version: 3.4\nConfigFile.NumWindows: 1\n") +
                       "window_colour_mode window_in_gradient_mode\n" + kWindow + kHistogram +
                       "Analyzer2D.NumColumn: 3\nConfigFile.Author: me\n";
    auto e = evaluate("unknown_keys", text);
    REQUIRE_MESSAGE(e.result.exitCode == 0, e.result.output);
    CHECK(says(e, "4", "unknown key 'window_colour_mode' ignored"));
    // A window key before any window is still only a key Paraver does not know.
    CHECK(says(e, "18", "unknown histogram key 'Analyzer2D.NumColumn' ignored"));
    CHECK(says(e, "19", "unknown key 'ConfigFile.Author' ignored"));
    // The histogram is that of the clean cfg: three kernel values, one column each.
    auto clean = evaluate("unknown_keys_clean", std::string("#ParaverCFG\n") + kWindow + kHistogram);
    REQUIRE(clean.result.exitCode == 0);
    CHECK(readText(e.out / "unknown_keys.txt") == readText(clean.out / "unknown_keys_clean.txt"));
    CHECK(clean.result.output.find("warning:") == std::string::npos);
}

TEST_CASE("cfg warnings: the older spelling Analyzer2D.num_columns is not read, as in Paraver") {
    // paraver-kernel defines the tag but its loader has no entry for it: NumColumns 1 would merge the three
    // kernels into one column; ignored, the fixed scale's Delta gives one column per value.
    auto e = evaluate("num_columns", std::string("#ParaverCFG\n") + kWindow + kHistogram +
                                         "Analyzer2D.ComputeYScale: False\nAnalyzer2D.Minimum: 3\n"
                                         "Analyzer2D.Maximum: 6\nAnalyzer2D.num_columns: 1\n");
    REQUIRE_MESSAGE(e.result.exitCode == 0, e.result.output);
    CHECK(says(e, "18", "unknown histogram key 'Analyzer2D.num_columns' ignored"));
    // Delta 1 from 3 to 6: four columns (3, 4, 5, 6), each label followed by a tab after the leading one.
    auto header = readText(e.out / "num_columns.txt");
    header = header.substr(0, header.find('\n'));
    CHECK(std::count(header.begin(), header.end(), '\t') == 5);
}

TEST_CASE("cfg warnings: a window without type or functions is named, and read as Paraver reads it") {
    // The fuzzer's window "T#" with the lines "t" and "n": Paraver makes a window at window_type only, so this
    // name makes none and the cfg's last window, whose timeline is written, is still the first one.
    std::string text = std::string("#ParaverCFG\n") + kWindow + "window_name T#\nt\nn\n";
    auto e = evaluate("bare_window", text);
    REQUIRE_MESSAGE(e.result.exitCode == 0, e.result.output);
    CHECK(says(e, "8", "window 'T#' has no window_type line: Paraver makes no window of it"));
    CHECK(says(e, "9", "unknown key 't' ignored"));
    CHECK(says(e, "10", "unknown key 'n' ignored"));
    auto clean = evaluate("bare_window_clean", std::string("#ParaverCFG\n") + kWindow);
    REQUIRE(clean.result.exitCode == 0);
    CHECK(readText(e.out / "bare_window.csv") == readText(clean.out / "bare_window_clean.csv"));

    // A window with a type and no functions: Paraver's defaults, said.
    auto bare = evaluate("no_functions", std::string("#ParaverCFG\n") + kWindow +
                                             "window_name defaults\nwindow_type single\n");
    REQUIRE_MESSAGE(bare.result.exitCode == 0, bare.result.output);
    CHECK(says(bare, "8", "window 'defaults' selects no semantic functions"));
    CHECK(std::filesystem::exists(bare.out / "no_functions.csv"));
}

TEST_CASE("cfg warnings: names that are not UTF-8 are repaired and said, outputs stay valid text") {
    std::string window = kWindow;
    window.replace(window.find("CUDA Activity"), 13, "CUDA \xff\xfe Activity");
    std::string text = "#ParaverCFG\n" + window + kHistogram;
    text.replace(text.find("kernels"), 7, "kern\xc3\x28ls");
    auto e = evaluate("bad_names", text, "--json");
    REQUIRE_MESSAGE(e.result.exitCode == 0, e.result.output);
    CHECK(says(e, "2", "window name 'CUDA \\xff\\xfe Activity' is not UTF-8"));
    CHECK(says(e, "9", "histogram name 'kern\\xc3(ls' is not UTF-8"));
    auto json = nlohmann::json::parse(readText(e.out / "bad_names.json"));
    CHECK(json.dump().find("kern\xef\xbf\xbd(ls") != std::string::npos);
}

TEST_CASE("cfg warnings: a composed window without parents is refused with its line") {
    std::string text = std::string("#ParaverCFG\n") + kWindow +
                       "window_name both\nwindow_type composed\nwindow_operation add\n";
    auto e = evaluate("no_parents", text);
    CHECK(e.result.exitCode != 0);
    CHECK(says(e, "8", "window 'both' is composed but has no window_identifiers line"));
    CHECK_FALSE(std::filesystem::exists(e.out / "no_parents.csv"));
}

TEST_CASE("cfg warnings: rows a histogram names that the trace lacks are said (paramedir crashes there)") {
    // nsys2prv's analysis/kernel-timepercent selects row 2 (Analyzer2D.Objects: 2); this trace has one thread.
    auto e = evaluate("objects_past_last", std::string("#ParaverCFG\n") + kWindow + kHistogram + "Analyzer2D.Objects: 0,2,5\n");
    REQUIRE_MESSAGE(e.result.exitCode == 0, e.result.output);
    CHECK(says(e, "8", "histogram 'kernels': Analyzer2D.Objects 2,5 past the last of the 1 THREAD rows (0-based), ignored"));
    CHECK(e.result.output.find("no row is left") == std::string::npos);
    auto none = evaluate("objects_none", std::string("#ParaverCFG\n") + kWindow + kHistogram + "Analyzer2D.Objects: 2\n");
    REQUIRE_MESSAGE(none.result.exitCode == 0, none.result.output);
    CHECK(says(none, "8", "histogram 'kernels': Analyzer2D.Objects 2 past the last of the 1 THREAD rows (0-based), "
                          "ignored; no row is left, so the histogram has none (paramedir crashes here)"));
    // The table has its header and totals, and no row.
    auto text = readText(none.out / "objects_none.txt");
    CHECK(text.find("STREAM 1") == std::string::npos);

    // A zoom whose first row comes after its last, once each is read as at most the last row (paramedir
    // crashes on it too), on a trace of three threads.
    std::string zoomed = kWindow;
    zoomed.replace(zoomed.find("window_level thread\n"), 20, "window_level thread\nwindow_zoom_objects 7 1\n");
    auto zoom = evaluate("zoom_reversed", "#ParaverCFG\n" + zoomed + kHistogram, "",
                         dataDir() / "paraver" / "fidelity_cases" / "zoom_objects" / "trace.prv");
    REQUIRE_MESSAGE(zoom.result.exitCode == 0, zoom.result.output);
    CHECK(says(zoom, "2", "window 'CUDA Activity': window_zoom_objects 7 1 starts after it ends: the histogram has "
                          "no row (paramedir crashes here)"));
}

TEST_CASE("cfg warnings: a histogram without AnalysisLimits is analysed over the whole trace, and said") {
    // paramedir sets the analysed range only from that line (HistogramProxy leaves it unset otherwise).
    std::string histogram = kHistogram;
    histogram.erase(histogram.find("Analyzer2D.AnalysisLimits: Alltrace\n"), 36);
    auto e = evaluate("no_limits", std::string("#ParaverCFG\n") + kWindow + histogram);
    REQUIRE_MESSAGE(e.result.exitCode == 0, e.result.output);
    CHECK(says(e, "8", "histogram 'kernels' has no Analyzer2D.AnalysisLimits line: analysed over the whole trace"));
    auto clean = evaluate("with_limits", std::string("#ParaverCFG\n") + kWindow + kHistogram);
    REQUIRE(clean.result.exitCode == 0);
    CHECK(readText(e.out / "no_limits.txt") == readText(clean.out / "with_limits.txt"));
}
