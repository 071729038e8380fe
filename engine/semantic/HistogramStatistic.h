#pragma once
// Paraver's histogram statistics as one catalogue: a row per statistic, with the name a cfg spells
// (Analyzer2D.Statistic, paraver-kernel's HistogramStatistic::getName()), what its cells read and the
// function that turns a cell's folded bursts or messages into its value. A cfg's statistic is resolved to its
// row when the cfg is read (CfgHistogram), so a histogram evaluates every cell through that row's function,
// and a name that is not a row stops the cfg there.
#include <string_view>
#include <vector>

namespace gpueff::semantic {

struct BurstCell;
struct CellContext;
struct CommCell;

// Semantic: columns are the control window's values, each cell folds the bursts where the control window's
// intervals and the data window's meet. Communication: columns are partner objects, each cell folds the
// control window's messages with that partner (paraver-kernel's createComms()).
enum class StatisticKind { Semantic, Communication };

// What a statistic's value reads besides the number and length of its cell's bursts.
enum class StatisticReads {
    Durations,     // the bursts' lengths only (the data window still cuts them)
    ControlValues, // the control window's value of each burst
    DataValues,    // the data window's value of each burst
    Messages,      // the control window's communications (the data window is not read)
};

struct HistogramStatistic {
    std::string_view name; // exactly as a cfg writes it (names are case- and space-sensitive)
    StatisticKind kind;
    StatisticReads reads;
    // The cell's value: `cell` for a semantic statistic, `messages` for a communication one (the other null).
    double (*cell)(const BurstCell&, const CellContext&);
    double (*messages)(const CommCell&);
};

// Every statistic of paraver-kernel 4.11 (src/histogramstatistic.cpp): the 17 semantic ones, then the 10
// communication ones, each in that file's order.
const std::vector<HistogramStatistic>& histogramStatisticCatalogue();

// The row named `name` exactly; null when there is none.
const HistogramStatistic* findHistogramStatistic(std::string_view name);

} // namespace gpueff::semantic
