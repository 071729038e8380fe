// Numeric cfg values gpueff refuses (issue 9): a pypop cfg with one value changed must end in exit 1 and one
// message "CFG:LINE: KEY: <what is wrong>, got <value>", leave nothing in the output directory but what a
// previous good run wrote there, byte for byte, and no temporary file.
#include "TestSupport.h"

#include <doctest/doctest.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace testsupport;

namespace {

std::filesystem::path epoch1() {
    return dataDir() / "paraver" / "epoch" / "epoch_1proc.prv.gz";
}
std::filesystem::path pypopCfg(const std::string& name) {
    return dataDir() / "paraver" / "cfgs" / name;
}

// Copies `source` to `target`, replacing the first line that starts with `prefix` by `replacement`;
// returns that line's 1-based number (0 when no line starts so).
std::size_t copyWithLine(const std::filesystem::path& source, const std::filesystem::path& target,
                         const std::string& prefix, const std::string& replacement) {
    std::istringstream in(readText(source));
    std::ofstream out(target);
    std::string line;
    std::size_t number = 0, found = 0;
    while (std::getline(in, line)) {
        ++number;
        if (!found && line.rfind(prefix, 0) == 0) {
            found = number;
            line = replacement;
        }
        out << line << '\n';
    }
    return found;
}

// Every file under `dir` (names only), sorted.
std::vector<std::string> listing(const std::filesystem::path& dir) {
    std::vector<std::string> names;
    if (!std::filesystem::exists(dir)) return names;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

struct BadValue {
    const char* cfg;         // pypop cfg to copy
    const char* linePrefix;  // the line replaced
    const char* replacement; // the new line
    const char* message;     // expected after "PATH:LINE: "
};

// One row per class of bad value; the messages are the exact text after "cfg:LINE: ".
const BadValue kBadValues[] = {
    {"total_runtime.cfg", "Analyzer2D.Delta:", "Analyzer2D.Delta: 0",
     "Analyzer2D.Delta: must be a finite number > 0, got 0"},
    {"total_runtime.cfg", "Analyzer2D.Delta:", "Analyzer2D.Delta: -5",
     "Analyzer2D.Delta: must be a finite number > 0, got -5"},
    {"total_runtime.cfg", "Analyzer2D.Delta:", "Analyzer2D.Delta: nan",
     "Analyzer2D.Delta: must be a finite number > 0, got nan"},
    // 1e62 / 1e-300 columns: far beyond the cap, refused before allocating anything.
    {"total_runtime.cfg", "Analyzer2D.Delta:", "Analyzer2D.Delta: 1e-300",
     "Analyzer2D.Delta: (Maximum - Minimum) / Delta gives more columns than gpueff's limit of 100000 "
     "(Minimum "
     "0, Maximum 1e+62), got 1e-300"},
    // 1e62 / 1e57 = 100001 columns: one more than the cap.
    {"total_runtime.cfg", "Analyzer2D.Delta:", "Analyzer2D.Delta: 9.9999e56",
     "Analyzer2D.Delta: (Maximum - Minimum) / Delta gives more columns than gpueff's limit of 100000 "
     "(Minimum "
     "0, Maximum 1e+62), got 9.9999e+56"},
    {"total_runtime.cfg", "Analyzer2D.Delta:", "Analyzer2D.NumColumns: 0",
     "Analyzer2D.NumColumns: must be a whole number from 1 to 100000 (gpueff's limit), got 0"},
    {"total_runtime.cfg", "Analyzer2D.Delta:", "Analyzer2D.NumColumns: 1e9",
     "Analyzer2D.NumColumns: must be a whole number from 1 to 100000 (gpueff's limit), got 1e9"},
    {"total_runtime.cfg", "Analyzer2D.Delta:", "Analyzer2D.NumColumns: nan",
     "Analyzer2D.NumColumns: must be a whole number from 1 to 100000 (gpueff's limit), got nan"},
    {"total_runtime.cfg", "Analyzer2D.Delta:", "Analyzer2D.NumColumns: 2.5",
     "Analyzer2D.NumColumns: must be a whole number from 1 to 100000 (gpueff's limit), got 2.5"},
    {"total_runtime.cfg", "Analyzer2D.Maximum:", "Analyzer2D.Maximum: inf",
     "Analyzer2D.Maximum: must be a finite number, got inf"},
    {"total_runtime.cfg", "Analyzer2D.Minimum:", "Analyzer2D.Minimum: -inf",
     "Analyzer2D.Minimum: must be a finite number, got -inf"},
    {"total_runtime.cfg", "Analyzer2D.Maximum:", "Analyzer2D.Maximum: -1",
     "Analyzer2D.Maximum: must not be below Analyzer2D.Minimum (0), got -1"},
    {"total_runtime.cfg", "Analyzer2D.ControlWindow:", "Analyzer2D.ControlWindow: nan",
     "Analyzer2D.ControlWindow: must be a window of the cfg (1 to 1), got nan"},
    {"total_runtime.cfg", "Analyzer2D.DataWindow:", "Analyzer2D.DataWindow: nan",
     "Analyzer2D.DataWindow: must be a window of the cfg (1 to 1), got nan"},
    // 4294967297 would wrap to window 1 through a 32-bit int.
    {"total_runtime.cfg", "Analyzer2D.ControlWindow:", "Analyzer2D.ControlWindow: 4294967297",
     "Analyzer2D.ControlWindow: must be a window of the cfg (1 to 1), got 4294967297"},
    {"total_runtime.cfg", "ConfigFile.NumWindows:", "ConfigFile.NumWindows: 1e21",
     "ConfigFile.NumWindows: must be a whole number from 1 to 10000, got 1e21"},
    // Above 1 reads as the trace end (as in Paraver); below 0 or nan names no time.
    {"total_runtime.cfg", "window_end_time_relative", "window_end_time_relative -0.5",
     "window_end_time_relative: must be a fraction of the trace >= 0 (above 1: the trace end), got -0.5"},
    {"total_runtime.cfg", "window_end_time_relative", "window_end_time_relative nan",
     "window_end_time_relative: must be a fraction of the trace >= 0 (above 1: the trace end), got nan"},
    {"total_runtime.cfg", "window_begin_time_relative", "window_begin_time_relative nan",
     "window_begin_time_relative: must be a fraction of the trace from 0 to 1, got nan"},
    // Window 4294967298 would wrap to window 2.
    {"useful_cycles.cfg", "window_identifiers", "window_identifiers 1 4294967298",
     "window_identifiers: must name two windows defined before this one (1 to 2), got 4294967298"},
    {"useful_cycles.cfg", "window_identifiers", "window_identifiers 1e10 2",
     "window_identifiers: must name two windows defined before this one (1 to 2), got 1e10"},
    {"useful_cycles.cfg", "window_factors", "window_factors inf 1",
     "window_factors: must be a finite number, got inf"},
    // Event type 4337000059 = 42000059 + 2^32: a wrap would select PAPI_TOT_CYC.
    {"useful_cycles.cfg", "window_filter_module evt_type", "window_filter_module evt_type 1 4337000059",
     "window_filter_module evt_type: event types must be whole numbers from 0 to 4294967295, got 4337000059"},
    {"useful_cycles.cfg", "window_filter_module evt_type", "window_filter_module evt_type 1 1e21",
     "window_filter_module evt_type: event types must be whole numbers from 0 to 4294967295, got 1e21"},
    // A count the line does not hold: nothing is allocated for it.
    {"useful_cycles.cfg", "window_filter_module evt_type", "window_filter_module evt_type 1e18 42000059",
     "window_filter_module evt_type: the number of values must be a whole number the line holds (0 to 1), "
     "got 1e18"},
    {"total_runtime_excl_disabled.cfg", "window_semantic_module thread Given State",
     "window_semantic_module thread Given State { 1, { 1e15 14 } }",
     "window_semantic_module thread Given State: the number of values of parameter 1 must be a whole number "
     "the line holds (0 to 1), got 1e15"},
    {"total_runtime_excl_disabled.cfg", "window_semantic_module thread Given State",
     "window_semantic_module thread Given State { 1, { 1 nan } }",
     "window_semantic_module thread Given State: must be a finite number, got nan"},
};

} // namespace

TEST_CASE("cfg bad values: refused with file, line, key and value: previous output intact, no temporary") {
    auto dir = tempDir("cfg_bad_values");
    auto out = dir / "out";
    // A good run of every cfg used, so each bad one would overwrite its output if it went through.
    std::vector<std::string> goods;
    for (const char* name : {"total_runtime.cfg", "useful_cycles.cfg", "total_runtime_excl_disabled.cfg"})
        goods.push_back(pypopCfg(name).string());
    auto good = run(gpueffBinary().string() + " histogram -q " + epoch1().string() + " " + goods[0] + " " +
                    goods[1] + " " + goods[2] + " -o " + out.string());
    REQUIRE_MESSAGE(good.exitCode == 0, good.output);
    auto before = listing(out);
    REQUIRE(before == std::vector<std::string>{"total_runtime.txt", "total_runtime_excl_disabled.txt",
                                               "useful_cycles.txt"});
    std::map<std::string, std::string> bytes;
    for (const auto& f : before) bytes[f] = readText(out / f);

    for (const auto& row : kBadValues) {
        CAPTURE(row.replacement);
        // Same file name as the good cfg, in another directory: a bad run that went through would replace
        // the good output.
        auto caseDir = dir / ("case" + std::to_string(&row - kBadValues));
        std::filesystem::create_directories(caseDir);
        auto bad = caseDir / row.cfg;
        auto line = copyWithLine(pypopCfg(row.cfg), bad, row.linePrefix, row.replacement);
        REQUIRE(line > 0);
        auto r = run(gpueffBinary().string() + " histogram " + epoch1().string() + " " + bad.string() +
                     " -o " + out.string());
        CHECK_MESSAGE(r.exitCode == 1, r.output);
        auto expected = bad.string() + ":" + std::to_string(line) + ": ";
        CHECK_MESSAGE(r.output.find("gpueff: error: " + expected) != std::string::npos, r.output);
        CHECK_MESSAGE(r.output.find(row.message) != std::string::npos, r.output);
        CHECK(r.output.find("internal error") == std::string::npos);
        CHECK(listing(out) == before); // no temporary, no new file
        for (const auto& [f, b] : bytes) CHECK_MESSAGE(readText(out / f) == b, f << " changed");
    }
}

TEST_CASE("cfg bad values: begin after end, and a Timer or LRU Depth parameter out of range") {
    auto dir = tempDir("cfg_bad_values_pairs");
    auto bad = dir / "total_runtime.cfg";
    // Begin 0.8 (line of window_begin_time_relative) after end 0.2: the window's own line is named.
    auto source = pypopCfg("total_runtime.cfg");
    copyWithLine(source, dir / "step.cfg", "window_begin_time_relative", "window_begin_time_relative 0.8");
    copyWithLine(dir / "step.cfg", bad, "window_end_time_relative", "window_end_time_relative 0.2");
    auto r = run(gpueffBinary().string() + " histogram " + epoch1().string() + " " + bad.string() + " -o " +
                 (dir / "out").string());
    CHECK_MESSAGE(r.exitCode == 1, r.output);
    CHECK_MESSAGE(r.output.find(bad.string() + ":9: window 'All states': window_begin_time_relative (0.8) is "
                                               "after window_end_time_relative (0.2)") != std::string::npos,
                  r.output);
    CHECK(listing(dir / "out").empty());

    // A negative Timer would end an interval before it begins; an LRU depth of 1e300 is no size.
    const std::pair<const char*, const char*> functions[] = {
        {"{topcompose1, Timer}", "window_semantic_module topcompose1 Timer { 1, { 1 -5 } }"},
        {"{topcompose1, LRU Depth}", "window_semantic_module topcompose1 LRU Depth { 1, { 1 1e300 } }"}};
    const char* messages[] = {
        "window_semantic_module topcompose1 Timer: the timer's duration must be >= 0, got -5",
        "window_semantic_module topcompose1 LRU Depth: the depth must be a whole number "
        "from 0 to 1000000, got 1e+300"};
    for (int i = 0; i < 2; ++i) {
        auto cfg = dir / ("f" + std::to_string(i) + ".cfg");
        {
            std::ofstream(cfg) << "#ParaverCFG\nConfigFile.NumWindows: 1\nwindow_name w\nwindow_type single\n"
                                  "window_level thread\nwindow_compose_functions { 1, { "
                               << functions[i].first << " } }\n"
                               << functions[i].second << "\n";
        }
        auto f = run(gpueffBinary().string() + " histogram " + epoch1().string() + " " + cfg.string() +
                     " -o " + (dir / "out").string());
        CHECK_MESSAGE(f.exitCode == 1, f.output);
        CHECK_MESSAGE(f.output.find(cfg.string() + ":7: " + messages[i]) != std::string::npos, f.output);
        CHECK(listing(dir / "out").empty());
    }
}

TEST_CASE("histogram: two cfgs with the same file name are refused before anything is written") {
    auto dir = tempDir("cfg_same_name");
    std::filesystem::create_directories(dir / "a");
    std::filesystem::create_directories(dir / "b");
    std::filesystem::copy_file(pypopCfg("total_runtime.cfg"), dir / "a" / "total_runtime.cfg");
    // A different cfg under the same name: its histogram would silently replace the first one's.
    std::filesystem::copy_file(pypopCfg("total_useful_computation.cfg"), dir / "b" / "total_runtime.cfg");
    auto out = dir / "out";
    auto r = run(gpueffBinary().string() + " histogram " + epoch1().string() + " " +
                 (dir / "a" / "total_runtime.cfg").string() + " " +
                 (dir / "b" / "total_runtime.cfg").string() + " -o " + out.string());
    CHECK_MESSAGE(r.exitCode == 1, r.output);
    CHECK_MESSAGE(r.output.find((dir / "a" / "total_runtime.cfg").string() + " and " +
                                (dir / "b" / "total_runtime.cfg").string() + " would both write " +
                                (out / "total_runtime.txt").string()) != std::string::npos,
                  r.output);
    CHECK(!std::filesystem::exists(out));
}

TEST_CASE("histogram --json: labels that are not UTF-8 are written as U+FFFD, not an internal error") {
    auto dir = tempDir("cfg_json_utf8");
    std::ofstream(dir / "t.prv") << "#Paraver (01/01/2020 at 00:00):100_ns:1(1):1:1(1:1)\n"
                                    "1:1:1:1:1:0:40:1\n1:1:1:1:1:40:100:2\n";
    // State 1 is named with a lone 0xFF byte (Latin-1 leftovers are common in old .pcf files).
    std::ofstream(dir / "t.pcf") << "STATES\n0    Idle\n1    Run\xff"
                                    "ning\n2    Wait\n";
    std::ofstream(dir / "s.cfg") << "#ParaverCFG\nwindow_name w\nwindow_type single\nwindow_level thread\n"
                                    "window_units Nanoseconds\n"
                                    "window_selected_functions { 1, { {thread, State As Is} } }\n"
                                    "< NEW ANALYZER2D >\nAnalyzer2D.ControlWindow: 1\nAnalyzer2D.Minimum: 0\n"
                                    "Analyzer2D.Maximum: 2\nAnalyzer2D.Delta: 1\n";
    auto r = run(gpueffBinary().string() + " histogram -q --json " + (dir / "t.prv").string() + " " +
                 (dir / "s.cfg").string() + " -o " + (dir / "out").string());
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    auto j = nlohmann::json::parse(readText(dir / "out" / "s.json")); // throws if not valid UTF-8 JSON
    std::vector<std::string> columns = j.at("columns");
    REQUIRE(columns.size() == 3);
    // The name keeps its readable parts; the byte that is no UTF-8 becomes U+FFFD (or is dropped by the
    // reader), never raw.
    CHECK(columns[1].rfind("Run", 0) == 0);
    CHECK(columns[1].find('\xff') == std::string::npos);
    // State 1 from 0 to 40 and state 2 from 40 to 100, in ns: the Time statistic of each column.
    CHECK(j.at("rows").at(0).at("values").at(1) == 40.0);
    CHECK(j.at("rows").at(0).at("values").at(2) == 60.0);
}

TEST_CASE(
    "histogram: more cells than the cap, and a ComputeYScale over infinite values, name the histogram") {
    auto dir = tempDir("cfg_histogram_caps");
    // 101 threads x 100,000 columns = 10,100,000 cells, one row more than the 10 million cap allows.
    std::ofstream(dir / "t.prv") << "#Paraver (01/01/2020 at 00:00):100_ns:1(1):1:1(101:1)\n"
                                    "1:1:1:1:1:0:40:1\n1:1:1:1:1:40:100:2\n";
    std::ofstream(dir / "wide.cfg")
        << "#ParaverCFG\nwindow_name w\nwindow_type single\nwindow_level thread\n"
           "window_selected_functions { 1, { {thread, State As Is} } }\n"
           "< NEW ANALYZER2D >\nAnalyzer2D.Name: wide\nAnalyzer2D.ControlWindow: 1\n"
           "Analyzer2D.Minimum: 0\nAnalyzer2D.Maximum: 2\n"
           "Analyzer2D.NumColumns: 100000\n";
    auto r = run(gpueffBinary().string() + " histogram " + (dir / "t.prv").string() + " " +
                 (dir / "wide.cfg").string() + " -o " + (dir / "out").string());
    CHECK_MESSAGE(r.exitCode == 1, r.output);
    CHECK_MESSAGE(
        r.output.find((dir / "wide.cfg").string() +
                      ":6: histogram 'wide': 101 rows x 100000 columns is more than gpueff's limit of "
                      "10000000 cells") != std::string::npos,
        r.output);
    CHECK(listing(dir / "out").empty());

    // State 2 x 1e308 overflows to inf: no column scale covers it.
    std::ofstream(dir / "inf.cfg")
        << "#ParaverCFG\nwindow_name w\nwindow_type single\nwindow_level thread\n"
           "window_selected_functions { 1, { {thread, State As Is} } }\n"
           "window_compose_functions { 1, { {topcompose1, Prod} } }\n"
           "window_semantic_module topcompose1 Prod { 1, { 1 1e308 } }\n"
           "< NEW ANALYZER2D >\nAnalyzer2D.Name: big\nAnalyzer2D.ControlWindow: 1\n"
           "Analyzer2D.ComputeYScale: True\n";
    r = run(gpueffBinary().string() + " histogram " + (dir / "t.prv").string() + " " +
            (dir / "inf.cfg").string() + " -o " + (dir / "out").string());
    CHECK_MESSAGE(r.exitCode == 1, r.output);
    CHECK_MESSAGE(r.output.find((dir / "inf.cfg").string() +
                                ":8: histogram 'big': ComputeYScale: the control window 'w' reaches inf") !=
                      std::string::npos,
                  r.output);
    CHECK(listing(dir / "out").empty());
}
