#pragma once
// What one histogram cell folds, whatever its statistic: every row of the statistic catalogue
// (HistogramStatistic) is a function of these.
#include "engine/semantic/Interval.h"

namespace gpueff::semantic {

// A semantic cell: its bursts (where the control window's intervals and the data window's meet).
struct BurstCell {
    bool written = false;
    double time = 0;        // trace units
    double timeNotZero = 0; // control value != 0
    double bursts = 0, burstsNotZero = 0;
    double sumValue = 0;  // Sum bursts, Average per Burst
    double integral = 0;  // data-window units x |value|
    double valueTime = 0; // value x duration
    double timeValueNotZero = 0;
    double maximum = 0, minimum = 0;
    double sumDuration = 0, sumDurationSquared = 0; // control-window units
};

// What a semantic cell's value may divide by or convert with: its row's totals over every column of its
// plane, the analysed range and the units.
struct CellContext {
    double rowTime = 0, rowTimeNotZero = 0, rowBursts = 0; // trace units, bursts
    double rangeTime = 0;                                  // the analysed range, trace units
    paraver::TimeUnit traceUnit{};
    Unit controlUnit = Unit::Microseconds;
};

// A communication cell: the messages of its row with its partner.
struct CommCell {
    bool written = false;
    double sends = 0, receives = 0, bytesSent = 0, bytesReceived = 0;
    double minSent = 0, maxSent = 0, minReceived = 0, maxReceived = 0;

    void add(bool send, double size);
};

} // namespace gpueff::semantic
