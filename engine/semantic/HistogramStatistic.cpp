#include "engine/semantic/HistogramStatistic.h"

#include "engine/semantic/HistogramCells.h"

#include <algorithm>
#include <cmath>

namespace gpueff::semantic {

namespace {

// Each function is the finishRow of paraver-kernel's statistic of that name (src/histogramstatistic.cpp) over
// what the cell folded; the per-burst part (execute) is BurstCell's or CommCell's fold, shared by all.
using C = const BurstCell&;
using X = const CellContext&;
using M = const CommCell&;

double timeInControlUnits(C c, X x) {
    return toWindowUnits(c.time, x.traceUnit, x.controlUnit);
}
double percentTime(C c, X x) {
    return c.time * 100.0 / x.rowTime;
}
double percentTimeNotZero(C c, X x) {
    return c.timeNotZero * 100.0 / x.rowTimeNotZero;
}
double percentWindowTime(C c, X x) {
    return c.time * 100.0 / x.rangeTime;
}
double bursts(C c, X) {
    return c.bursts;
}
double percentBursts(C c, X x) {
    return c.bursts * 100.0 / x.rowBursts;
}
double integral(C c, X) {
    return c.integral;
}
double averageValue(C c, X) {
    return c.valueTime / c.time;
}
double maximum(C c, X) {
    return c.maximum;
}
double minimum(C c, X) {
    return c.minimum;
}
double averageBurstTime(C c, X) {
    return c.sumDuration / c.bursts;
}
double stdevBurstTime(C c, X) {
    double mean = c.sumDuration / c.bursts;
    return std::sqrt(std::fabs(c.sumDurationSquared / c.bursts - mean * mean));
}
double averagePerBurst(C c, X) {
    return c.sumValue / c.bursts;
}
double averagePerBurstNotZero(C c, X) {
    return c.sumValue / c.burstsNotZero;
}
double averageValueNotZero(C c, X) {
    return c.timeValueNotZero == 0 ? 0.0 : c.valueTime / c.timeValueNotZero;
}
double burstsNotZero(C c, X) {
    return c.burstsNotZero;
}
double sumBursts(C c, X) {
    return c.sumValue;
}

double sends(M c) {
    return c.sends;
}
double receives(M c) {
    return c.receives;
}
double bytesSent(M c) {
    return c.bytesSent;
}
double bytesReceived(M c) {
    return c.bytesReceived;
}
double averageBytesSent(M c) {
    return c.bytesSent / c.sends;
}
double averageBytesReceived(M c) {
    return c.bytesReceived / c.receives;
}
double minimumBytesSent(M c) {
    return c.minSent;
}
double minimumBytesReceived(M c) {
    return c.minReceived;
}
double maximumBytesSent(M c) {
    return c.maxSent;
}
double maximumBytesReceived(M c) {
    return c.maxReceived;
}

constexpr auto S = StatisticKind::Semantic;
constexpr auto Comm = StatisticKind::Communication;
constexpr auto Dur = StatisticReads::Durations;
constexpr auto Ctl = StatisticReads::ControlValues;
constexpr auto Dat = StatisticReads::DataValues;
constexpr auto Msg = StatisticReads::Messages;

} // namespace

const std::vector<HistogramStatistic>& histogramStatisticCatalogue() {
    static const std::vector<HistogramStatistic> rows = {
        {"Time", S, Dur, timeInControlUnits, nullptr},
        {"% Time", S, Dur, percentTime, nullptr},
        {"% Time Not Zero", S, Ctl, percentTimeNotZero, nullptr},
        {"% Window Time", S, Dur, percentWindowTime, nullptr},
        {"# Bursts", S, Dur, bursts, nullptr},
        {"% # Bursts", S, Dur, percentBursts, nullptr},
        {"Integral", S, Dat, integral, nullptr},
        {"Average value", S, Dat, averageValue, nullptr},
        {"Maximum", S, Dat, maximum, nullptr},
        {"Minimum", S, Dat, minimum, nullptr},
        {"Average Burst Time", S, Dur, averageBurstTime, nullptr},
        {"Stdev Burst Time", S, Dur, stdevBurstTime, nullptr},
        {"Average per Burst", S, Dat, averagePerBurst, nullptr},
        {"Average per Burst != 0", S, Dat, averagePerBurstNotZero, nullptr},
        {"Average value != 0", S, Dat, averageValueNotZero, nullptr},
        {"# Bursts != 0", S, Dat, burstsNotZero, nullptr},
        {"Sum bursts", S, Dat, sumBursts, nullptr},
        {"#Sends", Comm, Msg, nullptr, sends},
        {"#Receives", Comm, Msg, nullptr, receives},
        {"Bytes sent", Comm, Msg, nullptr, bytesSent},
        {"Bytes received", Comm, Msg, nullptr, bytesReceived},
        {"Average bytes sent", Comm, Msg, nullptr, averageBytesSent},
        {"Average bytes received", Comm, Msg, nullptr, averageBytesReceived},
        {"Minimum bytes sent", Comm, Msg, nullptr, minimumBytesSent},
        {"Minimum bytes received", Comm, Msg, nullptr, minimumBytesReceived},
        {"Maximum bytes sent", Comm, Msg, nullptr, maximumBytesSent},
        {"Maximum bytes received", Comm, Msg, nullptr, maximumBytesReceived},
    };
    return rows;
}

const HistogramStatistic* findHistogramStatistic(std::string_view name) {
    const auto& rows = histogramStatisticCatalogue();
    auto it = std::find_if(rows.begin(), rows.end(), [&](const auto& r) { return r.name == name; });
    return it == rows.end() ? nullptr : &*it;
}

} // namespace gpueff::semantic
