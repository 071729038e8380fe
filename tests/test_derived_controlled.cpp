// Controlled derived operations, window shifts, extra top composes, Objects and absolute window times on a
// tiny trace, with intervals worked out by hand from paraver-kernel's algorithms (intervalcontrolderived.cpp,
// intervalderived.cpp, intervalshift.cpp, semanticderivedfunctions.cpp at abbc7c3b).
#include "SemanticFixture.h"
#include "TestSupport.h"
#include "engine/common/Error.h"
#include "engine/semantic/Histogram.h"

#include <doctest/doctest.h>

using namespace testsupport;
using gpueff::semantic::parseCfgText;

namespace {

// Thread 1.1.1, 100 ns: data D = last value of type 7: 2 at 10, 4 at 30, 0 at 50, 6 at 70, so its
// intervals are [0,10) 0, [10,30) 2, [30,50) 4, [50,70) 0, [70,100) 6. Control C = last value of type 8:
// 1 at 20, 2 at 60, 0 at 80: [0,20) 0, [20,60) 1, [60,80) 2, [80,100) 0. Thread 1.1.2 has no event.
const char* kHeader = "#Paraver (01/01/2020 at 00:00):100_ns:1(2):1:1(2:1)";
const char* kBody = "2:1:1:1:1:10:7:2\n"
                    "2:1:1:1:1:20:8:1\n"
                    "2:1:1:1:1:30:7:4\n"
                    "2:1:1:1:1:50:7:0\n"
                    "2:1:1:1:1:60:8:2\n"
                    "2:1:1:1:1:70:7:6\n"
                    "2:1:1:1:1:80:8:0\n";

const SemanticFixture& fixture() {
    static SemanticFixture f("controlled", kHeader, kBody);
    return f;
}

std::string eventWindow(const std::string& name, int type, const std::string& composeTop = "As Is") {
    return "window_name " + name +
           "\nwindow_type single\nwindow_level thread\nwindow_units Nanoseconds\n"
           "window_selected_functions { 3, { {thread, Last Evt Val}, {evt_type, =}, {topcompose1, " +
           composeTop + "} } }\nwindow_filter_module evt_type 1 " + std::to_string(type) + "\n";
}

std::string derivedCfg(const std::string& operation, const std::string& extra = "") {
    return "#ParaverCFG\nConfigFile.Version: 3.4\nConfigFile.NumWindows: 3\n" + eventWindow("data", 7) +
           eventWindow("control", 8) +
           "window_name derived\nwindow_type composed\nwindow_level thread\nwindow_units Nanoseconds\n"
           "window_identifiers 1 2\nwindow_factors 1.0 1.0\nwindow_operation " +
           operation + "\n" + extra;
}

// The intervals before the trace end (the zero-length ones at the end carry whatever the parents' last
// cursor holds, which the algorithms leave unspecified).
IntervalList before(IntervalList all) {
    while (!all.empty() && std::get<0>(all.back()) >= 100) all.pop_back();
    return all;
}

} // namespace

TEST_CASE("Controlled operations: one value per control interval, folded over the data intervals it meets") {
    const auto& f = fixture();
    // A data interval across a control boundary counts in both control intervals.
    CHECK(before(intervals(f, derivedCfg("controlled: add"), 2, 0)) ==
          IntervalList{{0, 20, 2}, {20, 60, 6}, {60, 80, 6}, {80, 100, 6}});
    CHECK(before(intervals(f, derivedCfg("controlled: maximum"), 2, 0)) ==
          IntervalList{{0, 20, 2}, {20, 60, 4}, {60, 80, 6}, {80, 100, 6}});
    // Average weighted by each data interval's whole duration: [0,20): (0*10 + 2*20) / 30; [20,60): the
    // intervals [10,30) 2, [30,50) 4, [50,70) 0 -> (40 + 80 + 0) / 60; [60,80): (0*20 + 6*30) / 50.
    auto average = before(intervals(f, derivedCfg("controlled: average"), 2, 0));
    REQUIRE(average.size() == 4);
    CHECK(std::get<2>(average[0]) == doctest::Approx(40.0 / 30.0));
    CHECK(std::get<2>(average[1]) == doctest::Approx(2.0));
    CHECK(std::get<2>(average[2]) == doctest::Approx(3.6));
    CHECK(std::get<2>(average[3]) == doctest::Approx(6.0));
}

TEST_CASE("Clear by and enumerate: interval by interval, restarting where the second parent drops") {
    const auto& f = fixture();
    // Clear by: the data value, 0 from where the control value drops (80) while the data interval lasts.
    CHECK(before(intervals(f, derivedCfg("controlled: clear by"), 2, 0)) == IntervalList{{0, 10, 0},
                                                                                         {10, 20, 2},
                                                                                         {20, 30, 2},
                                                                                         {30, 50, 4},
                                                                                         {50, 60, 0},
                                                                                         {60, 70, 0},
                                                                                         {70, 80, 6},
                                                                                         {80, 100, 0}});
    // Enumerate: +1 on the first call and while the last data begin seen is 0 (Paraver's "first call" test),
    // then on each new non-zero data interval; 0 where the control value drops.
    CHECK(before(intervals(f, derivedCfg("controlled: enumerate"), 2, 0)) == IntervalList{{0, 10, 1},
                                                                                          {10, 20, 2},
                                                                                          {20, 30, 2},
                                                                                          {30, 50, 3},
                                                                                          {50, 60, 3},
                                                                                          {60, 70, 3},
                                                                                          {70, 80, 4},
                                                                                          {80, 100, 0}});
}

TEST_CASE("window_shifts: the second parent read one interval late (0 before its first)") {
    const auto& f = fixture();
    // C shifted by -1: [0,20) 0 (nothing before), [20,60) 0, [60,80) 1, [80,100) 2; added to D.
    CHECK(before(intervals(f, derivedCfg("add", "window_shifts 0 -1\n"), 2, 0)) ==
          IntervalList{{0, 10, 0},
                       {10, 20, 2},
                       {20, 30, 2},
                       {30, 50, 4},
                       {50, 60, 0},
                       {60, 70, 1},
                       {70, 80, 7},
                       {80, 100, 8}});
    CHECK_THROWS_WITH_AS(parseCfgText(derivedCfg("add", "window_shifts 0 1.5\n"), "s.cfg"),
                         doctest::Contains("window_shifts: must be two whole numbers"), gpueff::Error);
    CHECK_THROWS_WITH_AS(parseCfgText(derivedCfg("add", "window_shifts 0 40000\n"), "s.cfg"),
                         doctest::Contains("-32768 to 32767"), gpueff::Error);
}

TEST_CASE("A controlled operation whose control parent is finer than its data parent is refused") {
    const auto& f = fixture();
    std::string cfg = "#ParaverCFG\nConfigFile.Version: 3.4\nConfigFile.NumWindows: 3\n"
                      "window_name data\nwindow_type single\nwindow_level task\nwindow_units Nanoseconds\n"
                      "window_selected_functions { 2, { {thread, Last Evt Val}, {evt_type, =} } }\n"
                      "window_filter_module evt_type 1 7\n" +
                      eventWindow("control", 8) +
                      "window_name derived\nwindow_type composed\nwindow_level task\n"
                      "window_identifiers 1 2\nwindow_operation controlled: add\n";
    auto parsed = parseCfgText(cfg, "c.cfg");
    CHECK_THROWS_WITH_AS(gpueff::semantic::WindowSet(parsed, f.trace->context()),
                         doctest::Contains("first parent (data)"), gpueff::Error);
}

TEST_CASE("extratopcompose1 stacks on topcompose1: the same row as that function at topcompose1") {
    const auto& f = fixture();
    auto viaTop =
        "#ParaverCFG\nConfigFile.Version: 3.4\nConfigFile.NumWindows: 1\n" + eventWindow("d", 7, "Sign");
    auto viaExtra = "#ParaverCFG\nConfigFile.Version: 3.4\nConfigFile.NumWindows: 1\n" + eventWindow("d", 7) +
                    "window_compose_functions { 10, { {compose_thread, As Is}, {topcompose1, As Is}, "
                    "{topcompose2, As Is}, {extratopcompose1, Sign} } }\n";
    auto expected = intervals(f, viaTop, 0, 0);
    CHECK(intervals(f, viaExtra, 0, 0) == expected);
    // Sign of D by hand: [0,10) 0, [10,30) 1, [30,50) 1, [50,70) 0, [70,100) 1.
    CHECK(std::get<2>(expected[1]) == 1.0);
    CHECK(std::get<2>(expected[3]) == 0.0);
}

TEST_CASE("Analyzer2D.Objects keeps the listed rows: absolute times are clamped as Paraver clamps them") {
    const auto& f = fixture();
    auto histogram = [&](const std::string& objects, const std::string& windowExtra) {
        auto text = "#ParaverCFG\nConfigFile.Version: 3.4\nConfigFile.NumWindows: 1\n" + eventWindow("d", 7) +
                    windowExtra +
                    "< NEW ANALYZER2D >\nAnalyzer2D.Name: h\nAnalyzer2D.ControlWindow: 1\n"
                    "Analyzer2D.DataWindow: 1\nAnalyzer2D.Statistic: Time\nAnalyzer2D.ComputeYScale: False\n"
                    "Analyzer2D.Minimum: 0\nAnalyzer2D.Maximum: 10\nAnalyzer2D.Delta: 1\n"
                    "Analyzer2D.AnalysisLimits: Allwindow\n" +
                    objects;
        auto cfg = parseCfgText(text, "h.cfg");
        gpueff::semantic::WindowSet windows(cfg, f.trace->context());
        return gpueff::semantic::computeHistogram(cfg, windows);
    };
    auto t = histogram("Analyzer2D.Objects: 1,7\n", "");
    CHECK(t.rowLabels == std::vector<std::string>{"THREAD 1.1.2"});
    t = histogram("Analyzer2D.Objects: 0\n", "window_begin_time 20\nwindow_stop_time 60\n");
    REQUIRE(t.rowLabels == std::vector<std::string>{"THREAD 1.1.1"});
    // [20,60): value 2 for 10 ns, 4 for 20 ns, 0 for 10 ns.
    CHECK(t.cells[0][2] == 10.0);
    CHECK(t.cells[0][4] == 20.0);
    CHECK(t.cells[0][0] == 10.0);
    // A begin at or past the trace end means its start; a stop past it, its end.
    t = histogram("", "window_begin_time 500\nwindow_stop_time 900\n");
    CHECK(t.beginTime == 0);
    CHECK(t.endTime == 100);
    CHECK_THROWS_WITH_AS(histogram("Analyzer2D.Objects: 1,x\n", ""), doctest::Contains("Analyzer2D.Objects"),
                         gpueff::Error);
}

TEST_CASE(
    "ComputeYScale: a column per value in code colour: window_noncolor_mode false draws a function line") {
    const auto& f = fixture();
    // The data window's values are 2, 4 and 6 (and 0): code colour gives one column per integer 2..6.
    auto histogram = [&](const std::string& windowExtra) {
        auto text = "#ParaverCFG\nConfigFile.Version: 3.4\nConfigFile.NumWindows: 1\n" + eventWindow("d", 7) +
                    windowExtra +
                    "< NEW ANALYZER2D >\nAnalyzer2D.Name: h\nAnalyzer2D.ControlWindow: 1\n"
                    "Analyzer2D.DataWindow: 1\nAnalyzer2D.Statistic: Time\nAnalyzer2D.ComputeYScale: True\n";
        auto cfg = parseCfgText(text, "h.cfg");
        gpueff::semantic::WindowSet windows(cfg, f.trace->context());
        return gpueff::semantic::computeHistogram(cfg, windows);
    };
    CHECK(histogram("").columnLabels.size() == 5);
    CHECK(histogram("window_color_mode window_in_code_mode\n").columnLabels.size() == 5);
    // Paraver's 200 columns over [2, 6 + 5 %] otherwise.
    CHECK(histogram("window_noncolor_mode false\n").columnLabels.size() == 200);
    CHECK(histogram("window_color_mode window_in_gradient_mode\n").columnLabels.size() == 200);
    // Once a function line, a later colour mode line changes nothing.
    CHECK(histogram("window_noncolor_mode false\nwindow_color_mode window_in_code_mode\n")
              .columnLabels.size() == 200);
}
