// The catalogue of histogram statistics (engine/semantic/HistogramStatistic): every statistic paraver-kernel
// has is a row, and a cfg's Analyzer2D.Statistic is resolved to its row when the cfg is read. What each row
// computes is pinned against paramedir by data/paraver/fidelity_cases/statistics_catalogue
// (test_fidelity_cases).
#include "engine/common/Error.h"
#include "engine/semantic/Cfg.h"
#include "engine/semantic/HistogramStatistic.h"

#include <doctest/doctest.h>
#include <set>
#include <string>

using namespace gpueff::semantic;

namespace {

// The names of paraver-kernel abbc7c3b's statistics, copied by hand from the `name` of each class in its
// src/histogramstatistic.cpp (StatTime::name = "Time", ...), with whether the class's createComms() is true.
const std::vector<std::pair<std::string, bool>> kParaverStatistics = {
    {"#Sends", true},
    {"#Receives", true},
    {"Bytes sent", true},
    {"Bytes received", true},
    {"Average bytes sent", true},
    {"Average bytes received", true},
    {"Minimum bytes sent", true},
    {"Minimum bytes received", true},
    {"Maximum bytes sent", true},
    {"Maximum bytes received", true},
    {"Time", false},
    {"% Time", false},
    {"% Time Not Zero", false},
    {"% Window Time", false},
    {"# Bursts", false},
    {"% # Bursts", false},
    {"Integral", false},
    {"Average value", false},
    {"Maximum", false},
    {"Minimum", false},
    {"Average Burst Time", false},
    {"Stdev Burst Time", false},
    {"Average per Burst", false},
    {"Average per Burst != 0", false},
    {"Average value != 0", false},
    {"# Bursts != 0", false},
    {"Sum bursts", false},
};

// One thread-level window and a histogram over it; `statistic` is the Analyzer2D.Statistic line (line 9), or
// none when empty. `extra` goes after the histogram's lines.
std::string histogramCfg(const std::string& statisticLine, const std::string& extra = "") {
    return "#ParaverCFG\n"                                                // 1
           "ConfigFile.Version: 3.4\n"                                    // 2
           "window_name w\n"                                              // 3
           "window_type single\n"                                         // 4
           "window_level thread\n"                                        // 5
           "window_selected_functions { 1, { {thread, State As Is} } }\n" // 6
           "< NEW ANALYZER2D >\n"                                         // 7
           "Analyzer2D.ControlWindow: 1\n"                                // 8
           + (statisticLine.empty() ? "" : statisticLine + "\n") +        // 9
           "Analyzer2D.AnalysisLimits: Alltrace\n"
           "Analyzer2D.Minimum: 0\nAnalyzer2D.Maximum: 2\nAnalyzer2D.Delta: 1\n" +
           extra;
}

std::string errorOf(const std::string& text) {
    try {
        parseCfgText(text, "s.cfg");
    } catch (const gpueff::Error& e) {
        return e.what();
    }
    return "(accepted)";
}

} // namespace

TEST_CASE("Every statistic of paraver-kernel is one row of the catalogue, with the function of its kind") {
    const auto& rows = histogramStatisticCatalogue();
    CHECK(rows.size() == kParaverStatistics.size());
    std::set<std::string> names;
    for (const auto& row : rows) names.insert(std::string(row.name));
    CHECK(names.size() == rows.size()); // no name twice
    for (const auto& [name, communication] : kParaverStatistics) {
        CAPTURE(name);
        const auto* row = findHistogramStatistic(name);
        REQUIRE(row != nullptr);
        CHECK(row->name == name);
        CHECK((row->kind == StatisticKind::Communication) == communication);
        // Exactly one evaluator, the one its kind's cells are evaluated with.
        CHECK((row->cell != nullptr) == !communication);
        CHECK((row->messages != nullptr) == communication);
        CHECK((row->reads == StatisticReads::Messages) == communication);
    }
    CHECK(findHistogramStatistic("time") == nullptr);
    CHECK(findHistogramStatistic("Time ") == nullptr);
    CHECK(findHistogramStatistic("") == nullptr);
}

TEST_CASE("A cfg's statistic is resolved when it is read: a name paramedir would crash on is refused there") {
    auto cfg = parseCfgText(histogramCfg("Analyzer2D.Statistic: % Time Not Zero"), "s.cfg");
    REQUIRE(cfg.histogram);
    CHECK(cfg.histogram->statistic == findHistogramStatistic("% Time Not Zero"));
    CHECK(cfg.warnings.empty());

    auto bogus = errorOf(histogramCfg("Analyzer2D.Statistic: Frobnications"));
    CHECK_MESSAGE(bogus.find("s.cfg:9: Analyzer2D.Statistic: must be one of Paraver's statistics") == 0,
                  bogus);
    CHECK_MESSAGE(bogus.find("'Sum bursts'") != std::string::npos, bogus);
    CHECK_MESSAGE(bogus.find("'#Sends'") != std::string::npos, bogus);
    CHECK_MESSAGE(bogus.find("got 'Frobnications'") != std::string::npos, bogus);
    CHECK_MESSAGE(bogus.find("differs only in case") == std::string::npos, bogus);

    auto lower = errorOf(histogramCfg("Analyzer2D.Statistic: average BURST time"));
    CHECK_MESSAGE(lower.find("s.cfg:9:") == 0, lower);
    CHECK_MESSAGE(lower.find("'Average Burst Time' differs only in case") != std::string::npos, lower);

    auto empty = errorOf(histogramCfg("Analyzer2D.Statistic:"));
    CHECK_MESSAGE(empty.find("s.cfg:9: Analyzer2D.Statistic:") == 0, empty);
    CHECK_MESSAGE(empty.find("got ''") != std::string::npos, empty);
}

TEST_CASE("A histogram without a Statistic line is Time, with a warning at its first line") {
    auto cfg = parseCfgText(histogramCfg(""), "s.cfg");
    REQUIRE(cfg.histogram);
    CHECK(cfg.histogram->statistic == findHistogramStatistic("Time"));
    REQUIRE(cfg.warnings.size() == 1);
    CHECK(cfg.warnings[0] ==
          "s.cfg:7: histogram '' has no Analyzer2D.Statistic line: Time used; paramedir crashes without one");
}

TEST_CASE("A communication statistic of a 3D histogram is refused when the cfg is read") {
    auto e = errorOf(histogramCfg("Analyzer2D.Statistic: #Sends", "Analyzer2D.3D_ControlWindow: 1\n"));
    CHECK_MESSAGE(
        e == "s.cfg:7: histogram '': communication statistics of a 3D histogram are not implemented by "
             "gpueff",
        e);
    // The same 3D histogram with a semantic statistic is read.
    CHECK_NOTHROW(parseCfgText(histogramCfg("Analyzer2D.Statistic: Time", "Analyzer2D.3D_ControlWindow: 1\n"),
                               "s.cfg"));
}
