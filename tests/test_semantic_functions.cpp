// Semantic functions on a tiny trace whose intervals were worked out by hand from Paraver's rules.
#include "SemanticFixture.h"
#include "TestSupport.h"
#include "engine/common/Error.h"
#include "engine/semantic/Histogram.h"
#include "engine/semantic/HistogramOutput.h"

#include <doctest/doctest.h>
#include <sstream>

using namespace testsupport;
using gpueff::semantic::parseCfgText;

namespace {

// Thread 1.1.1: Running [0,10), state 2 [10,30), no state [30,40), Running [40,60), nothing to 100.
//   events of type 7: 3 at 5, 0 at 20, 5 at 50 (with type 8 = 4 in the same record).
// Thread 1.1.2: Running the whole trace, one event type 7 = 9 at 70.
const char* kHeader = "#Paraver (01/01/2020 at 00:00):100_ns:1(2):1:1(2:1)";
const char* kBody = "1:1:1:1:1:0:10:1\n"
                    "1:2:1:1:2:0:100:1\n"
                    "2:1:1:1:1:5:7:3\n"
                    "1:1:1:1:1:10:30:2\n"
                    "2:1:1:1:1:20:7:0\n"
                    "1:1:1:1:1:40:60:1\n"
                    "2:1:1:1:1:50:7:5:8:4\n"
                    "2:2:1:1:2:70:7:9\n";
const char* kPcf = "STATES\n0    Idle\n1    Running\n2    Waiting\n\nEVENT_TYPE\n0    7    Phase\nVALUES\n3  "
                   "    Setup\n5      Solve\n";

const SemanticFixture& fixture() {
    static SemanticFixture f("tiny", kHeader, kBody, kPcf);
    return f;
}

const std::string kType7 = "window_filter_module evt_type 1 7\n";

} // namespace

TEST_CASE("State As Is: intervals between state records, state gaps read 0, zero-length first interval") {
    auto got = intervals(fixture(), singleWindowCfg("thread", "{thread, State As Is}"), 0, 0);
    IntervalList want = {{0, 0, 0},   {0, 10, 1},   {10, 30, 2},  {30, 40, 0},
                         {40, 60, 1}, {60, 100, 0}, {100, 100, 0}};
    CHECK(got == want);
}

TEST_CASE("Useful, State Sign, Given State, In State, Not In State, State Record Dur.") {
    const auto& f = fixture();
    CHECK(intervals(f, singleWindowCfg("thread", "{thread, Useful}"), 0, 0) ==
          IntervalList{
              {0, 0, 0}, {0, 10, 1}, {10, 30, 0}, {30, 40, 0}, {40, 60, 1}, {60, 100, 0}, {100, 100, 0}});
    CHECK(intervals(f, singleWindowCfg("thread", "{thread, State Sign}"), 0, 0) ==
          IntervalList{
              {0, 0, 0}, {0, 10, 1}, {10, 30, 1}, {30, 40, 0}, {40, 60, 1}, {60, 100, 0}, {100, 100, 0}});
    auto given = singleWindowCfg("thread", "{thread, Given State}",
                                 "window_semantic_module thread Given State { 1, { 1 2.0 } }\n");
    CHECK(intervals(f, given, 0, 0) ==
          IntervalList{
              {0, 0, 0}, {0, 10, 0}, {10, 30, 2}, {30, 40, 0}, {40, 60, 0}, {60, 100, 0}, {100, 100, 0}});
    // In State with 0 in the list: the idle gaps (state end records) count.
    auto in = singleWindowCfg("thread", "{thread, In State}",
                              "window_semantic_module thread In State { 1, { 2 0 2 } }\n");
    CHECK(intervals(f, in, 0, 0) ==
          IntervalList{
              {0, 0, 0}, {0, 10, 0}, {10, 30, 1}, {30, 40, 1}, {40, 60, 0}, {60, 100, 1}, {100, 100, 0}});
    auto notIn = singleWindowCfg("thread", "{thread, Not In State}",
                                 "window_semantic_module thread Not In State { 1, { 1 1 } }\n");
    CHECK(intervals(f, notIn, 0, 0) ==
          IntervalList{
              {0, 0, 0}, {0, 10, 0}, {10, 30, 1}, {30, 40, 1}, {40, 60, 0}, {60, 100, 1}, {100, 100, 0}});
    // Duration of the Running records, in microseconds.
    auto dur = singleWindowCfg("thread", "{thread, State Record Dur.}", "window_units Microseconds\n");
    auto got = intervals(f, dur, 0, 0);
    CHECK(std::get<2>(got[1]) == doctest::Approx(0.010));
    CHECK(std::get<2>(got[2]) == 0.0);
    CHECK(std::get<2>(got[4]) == doctest::Approx(0.020));
}

TEST_CASE("Event functions: last/next value and type, averages, interval between events") {
    const auto& f = fixture();
    auto cfg = [&](const std::string& fn, const std::string& extra = "") {
        return singleWindowCfg("thread", "{thread, " + fn + "}, {evt_type, =}", kType7 + extra);
    };
    CHECK(intervals(f, cfg("Last Evt Val"), 0, 0) ==
          IntervalList{{0, 5, 0}, {5, 20, 3}, {20, 50, 0}, {50, 100, 5}, {100, 100, 0}});
    // The first interval already shows the next event; after the last event there is none.
    CHECK(intervals(f, cfg("Next Evt Val"), 0, 0) ==
          IntervalList{{0, 5, 3}, {5, 20, 0}, {20, 50, 5}, {50, 100, 0}, {100, 100, 0}});
    CHECK(intervals(f, cfg("Last Evt Type"), 0, 0) ==
          IntervalList{{0, 5, 0}, {5, 20, 7}, {20, 50, 7}, {50, 100, 7}, {100, 100, 0}});
    auto avg = intervals(f, cfg("Avg Next Evt Val"), 0, 0);
    CHECK(std::get<2>(avg[0]) == doctest::Approx(3.0 / 5));
    CHECK(std::get<2>(avg[2]) == doctest::Approx(5.0 / 30));
    CHECK(std::get<2>(avg[3]) == 0.0);
    CHECK(intervals(f, cfg("Int. Between Evt"), 0, 0) ==
          IntervalList{{0, 5, 0}, {5, 20, 15}, {20, 50, 30}, {50, 100, 0}, {100, 100, 0}});
    // Without a type filter every pair is an event record: two at 50 (types 7 and 8), a zero-length interval.
    auto all = intervals(f, singleWindowCfg("thread", "{thread, Last Evt Val}"), 0, 0);
    CHECK(all == IntervalList{{0, 5, 0}, {5, 20, 3}, {20, 50, 0}, {50, 50, 5}, {50, 100, 4}, {100, 100, 0}});
    auto given = cfg("Given Evt Val", "window_semantic_module thread Given Evt Val { 1, { 1 5.0 } }\n");
    CHECK(intervals(f, given, 0, 0) ==
          IntervalList{{0, 5, 0}, {5, 20, 0}, {20, 50, 0}, {50, 100, 5}, {100, 100, 0}});
    auto range = cfg("In Evt Range", "window_semantic_module thread In Evt Range { 2, { 1 1.0, 1 3.0 } }\n");
    CHECK(intervals(f, range, 0, 0) ==
          IntervalList{{0, 5, 0}, {5, 20, 1}, {20, 50, 0}, {50, 100, 0}, {100, 100, 0}});
}

TEST_CASE("Event filters: != and value lists") {
    const auto& f = fixture();
    auto notSeven = singleWindowCfg("thread", "{thread, Last Evt Type}, {evt_type, !=}", kType7);
    CHECK(intervals(f, notSeven, 0, 0) == IntervalList{{0, 50, 0}, {50, 100, 8}, {100, 100, 0}});
    auto values = singleWindowCfg("thread", "{thread, Last Evt Val}, {evt_type, =}, {evt_value, =}",
                                  kType7 + "window_filter_module evt_value 1 5\n");
    CHECK(intervals(f, values, 0, 0) == IntervalList{{0, 50, 0}, {50, 100, 5}, {100, 100, 0}});
    // A type named by its .pcf label.
    auto label = singleWindowCfg(
        "thread", "{thread, Last Evt Val}, {evt_type, =}",
        "window_filter_module evt_type 1 99\nwindow_filter_module evt_type_label 1 \"Phase\"\n");
    CHECK(intervals(f, label, 0, 0) ==
          intervals(f, singleWindowCfg("thread", "{thread, Last Evt Val}, {evt_type, =}", kType7), 0, 0));
}

TEST_CASE("Compose functions: Stacked Val, Join Bursts, Sign, Prod with a parameter") {
    const auto& f = fixture();
    auto stacked = singleWindowCfg(
        "thread", "{thread, Last Evt Val}, {evt_type, =}, {compose_thread, Stacked Val}", kType7);
    CHECK(intervals(f, stacked, 0, 0) ==
          IntervalList{{0, 5, 0}, {5, 20, 3}, {20, 50, 0}, {50, 100, 5}, {100, 100, 0}});
    auto join = singleWindowCfg("thread", "{thread, State Sign}, {topcompose1, Join Bursts}");
    CHECK(intervals(f, join, 0, 0) ==
          IntervalList{{0, 0, 0}, {0, 30, 1}, {30, 40, 0}, {40, 60, 1}, {60, 100, 0}, {100, 100, 0}});
    auto prod = singleWindowCfg("thread", "{thread, State As Is}, {topcompose2, Prod}",
                                "window_semantic_module topcompose2 Prod { 1, { 1 10.0 } }\n");
    CHECK(intervals(f, prod, 0, 0)[2] == std::make_tuple<std::int64_t, std::int64_t, double>(10, 30, 20.0));
}

TEST_CASE("Task level: Adding over the threads' intervals") {
    const auto& f = fixture();
    // Both threads Running: 2 on [0,10) and [40,60); one of them elsewhere.
    auto got = intervals(f, singleWindowCfg("task", "{thread, Useful}, {task, Adding}"), 0, 0);
    // Both threads start with the empty record at 0: a zero-length 0 interval, as in Paraver.
    IntervalList want = {{0, 0, 0},   {0, 10, 2},   {10, 30, 1},  {30, 40, 1},
                         {40, 60, 2}, {60, 100, 1}, {100, 100, 0}};
    CHECK(got == want);
    auto maximum = intervals(
        f, singleWindowCfg("task", "{thread, Last Evt Val}, {task, Maximum}, {evt_type, =}", kType7), 0, 0);
    CHECK(std::get<2>(maximum.back()) == 0.0);
    bool sawNine = false;
    for (auto& [b, e, v] : maximum) sawNine = sawNine || (b == 70 && v == 9);
    CHECK(sawNine);
}

TEST_CASE("Derived window: product of Useful and the phase, factors, intersection of intervals") {
    const auto& f = fixture();
    std::string cfg =
        "#ParaverCFG\nConfigFile.Version: 3.4\nConfigFile.NumWindows: 3\n"
        "window_name useful\nwindow_type single\nwindow_level thread\nwindow_units Nanoseconds\n"
        "window_selected_functions { 1, { {thread, Useful} } }\n"
        "window_name phase\nwindow_type single\nwindow_level thread\nwindow_units Nanoseconds\n"
        "window_selected_functions { 2, { {thread, Last Evt Val}, {evt_type, =} } }\n" +
        kType7 +
        "window_name product\nwindow_type composed\nwindow_level thread\nwindow_units Nanoseconds\n"
        "window_identifiers 1 2\nwindow_factors 1.0 2.0\nwindow_operation product\n";
    auto got = intervals(f, cfg, 2, 0);
    IntervalList want = {{0, 0, 0},   {0, 5, 0},   {5, 10, 6},   {10, 20, 0},  {20, 30, 0},
                         {30, 40, 0}, {40, 50, 0}, {50, 60, 10}, {60, 100, 0}, {100, 100, 0}};
    CHECK(got == want);
}

TEST_CASE("Histogram: Time per state column with .pcf labels, totals, hidden empty columns") {
    const auto& f = fixture();
    auto text =
        singleWindowCfg("thread", "{thread, State As Is}") +
        "< NEW ANALYZER2D >\nAnalyzer2D.Name: states\nAnalyzer2D.ControlWindow: 1\nAnalyzer2D.DataWindow: 1\n"
        "Analyzer2D.Statistic: Time\nAnalyzer2D.HideCols: True\nAnalyzer2D.HorizVert: Horizontal\n"
        "Analyzer2D.AnalysisLimits: Alltrace\nAnalyzer2D.ComputeYScale: False\nAnalyzer2D.Minimum: 0\n"
        "Analyzer2D.Maximum: 10\nAnalyzer2D.Delta: 1\n";
    auto cfg = parseCfgText(text, "states.cfg");
    gpueff::semantic::WindowSet windows(cfg, f.trace->context());
    auto t = gpueff::semantic::computeHistogram(cfg, windows);
    REQUIRE(t.columnLabels == std::vector<std::string>{"Idle", "Running", "Waiting"});
    CHECK(t.rowLabels == std::vector<std::string>{"THREAD 1.1.1", "THREAD 1.1.2"});
    CHECK(t.cells[0][0] == 50.0); // [30,40) + [60,100)
    CHECK(t.cells[0][1] == 30.0);
    CHECK(t.cells[0][2] == 20.0);
    CHECK(!t.cells[1][0].has_value()); // thread 2 is never idle: no burst, printed as 0
    CHECK(t.cells[1][1] == 100.0);
    CHECK(t.columnTotals.total[1] == 130.0);
    CHECK(t.columnTotals.average[1] == 65.0);
    CHECK(t.columnTotals.stdev[1] == 35.0);
    CHECK(t.columnTotals.minimum[1] == 30.0);
    CHECK(t.columnTotals.avgDivMax[1] == doctest::Approx(0.65));
    std::ostringstream out;
    gpueff::semantic::writeHistogramText(out, t, 2);
    CHECK(out.str() ==
          "\tIdle\tRunning\tWaiting\t\nTHREAD 1.1.1\t50.00\t30.00\t20.00\t\nTHREAD "
          "1.1.2\t0.00\t100.00\t0.00\t\n\n"
          "Total\t50.00\t130.00\t20.00\t\nAverage\t50.00\t65.00\t20.00\t\nMaximum\t50.00\t100.00\t20.00\t\n"
          "Minimum\t50.00\t30.00\t20.00\t\nStDev\t0.00\t35.00\t0.00\t\nAvg/Max\t1.00\t0.65\t1.00\t\n\n");
}

TEST_CASE("Histogram statistics on one column: bursts, averages, integral, extremes") {
    const auto& f = fixture();
    auto run = [&](const std::string& statistic) {
        // Control: Sign of the phase value (one column, value 1); data: the phase value itself.
        std::string text =
            "#ParaverCFG\nConfigFile.Version: 3.4\nConfigFile.NumWindows: 2\n"
            "window_name control\nwindow_type single\nwindow_level thread\nwindow_units Nanoseconds\n"
            "window_selected_functions { 3, { {thread, Last Evt Val}, {evt_type, =}, {topcompose1, Sign} } "
            "}\n" +
            kType7 +
            "window_name data\nwindow_type single\nwindow_level thread\nwindow_units Nanoseconds\n"
            "window_selected_functions { 2, { {thread, Last Evt Val}, {evt_type, =} } }\n" +
            kType7 +
            "< NEW ANALYZER2D >\nAnalyzer2D.ControlWindow: 1\nAnalyzer2D.DataWindow: "
            "2\nAnalyzer2D.Statistic: " +
            statistic +
            "\nAnalyzer2D.ComputeYScale: False\nAnalyzer2D.Minimum: 1\nAnalyzer2D.Maximum: "
            "1\nAnalyzer2D.Delta: 1\n";
        auto cfg = parseCfgText(text, "stat.cfg");
        gpueff::semantic::WindowSet windows(cfg, f.trace->context());
        return *gpueff::semantic::computeHistogram(cfg, windows).cells[0][0];
    };
    // Thread 1 data bursts where control is 1: [5,20) value 3 and [50,100) value 5.
    CHECK(run("Time") == 65);
    CHECK(run("# Bursts") == 2);
    CHECK(run("Sum bursts") == 8);
    CHECK(run("Average per Burst") == 4);
    CHECK(run("Average value") == doctest::Approx((3.0 * 15 + 5.0 * 50) / 65));
    CHECK(run("Integral") == 3.0 * 15 + 5.0 * 50);
    CHECK(run("Maximum") == 5);
    CHECK(run("Minimum") == 3);
    CHECK(run("Average Burst Time") == 32.5);
    CHECK(run("Stdev Burst Time") == doctest::Approx(17.5));
    CHECK(run("% Time") == 100);
    CHECK(run("% Window Time") == 65);
}

TEST_CASE("Unimplemented or unknown names stop with a message naming them") {
    const auto& f = fixture();
    auto fails = [&](const std::string& text, const std::string& needle) {
        auto cfg = parseCfgText(text, "bad.cfg");
        try {
            gpueff::semantic::WindowSet windows(cfg, f.trace->context());
            FAIL("accepted: " << text);
        } catch (const gpueff::Error& e) {
            CHECK(std::string(e.what()).find(needle) != std::string::npos);
        }
    };
    fails(singleWindowCfg("thread", "{thread, No Such Function}"), "No Such Function");
    fails(singleWindowCfg("thread", "{thread, Useful}, {compose_thread, Frobnicate}"), "Frobnicate");
    {
        auto cfg = parseCfgText(singleWindowCfg("thread", "{thread, Last Evt Val}, {evt_type, =}",
                                                "window_filter_module evt_type 1 12345\n"),
                                "bad.cfg");
        gpueff::semantic::WindowSet windows(cfg, f.trace->context());
        CHECK(windows.warnings().size() == 1);
        CHECK_THROWS_WITH_AS(windows.requireEvents(0), doctest::Contains("12345"), gpueff::Error);
    }
    CHECK_THROWS_AS(parseCfgText("#ParaverCFG\nwindow_name w\nwindow_level galaxy\n", "bad.cfg"),
                    gpueff::Error);
    CHECK_THROWS_AS(parseCfgText("not a cfg\n", "bad.cfg"), gpueff::Error);
}
