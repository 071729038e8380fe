#pragma once
#include "engine/semantic/Interval.h"

#include <deque>
#include <string>

namespace gpueff::semantic {

// A derived window's operation on its two parents' values. Paraver has two families: the plain operations
// (and "controlled: clear by" / "controlled: enumerate", which keep state per row but walk both parents'
// intervals like the others) combine the parents interval by interval; the `controlled` ones (maximum, add,
// average) give one value per interval of the second (control) parent, folded over the first (data)
// parent's intervals that overlap it.
struct DerivedFunction {
    enum class Id {
        Add,
        Product,
        Subtract,
        Divide,
        Maximum,
        Minimum,
        Different,
        ClearBy,
        Enumerate,
        ControlledMaximum,
        ControlledAdd,
        ControlledAverage
    };
    Id id;
    const char* name;
    bool controlled; // one value per control interval (IntervalControlDerived in paraver-kernel)
    InfoType info;   // Same: the parents' meaning; a count or an average means no event value any more
};

const DerivedFunction& derivedFunction(const std::string& name, const std::string& where);

// The intersection of the parents' intervals; each parent value is scaled by its factor first.
class DerivedInterval : public Interval {
public:
    DerivedInterval(IntervalPtr first, IntervalPtr second, double factor0, double factor1,
                    const DerivedFunction& function, std::int64_t traceEnd);
    void init() override;
    void next() override;

private:
    double scaled(std::size_t i) const;
    double compute();

    IntervalPtr children_[2];
    double factors_[2];
    const DerivedFunction& function_;
    std::int64_t traceEnd_;
    // State of clear by / enumerate, per row as Paraver keys it by the row's order.
    double lastControl_ = 0, count_ = 0;
    std::int64_t lastDataBegin_ = 0;
};

// A controlled operation: the control parent's intervals, each valued by folding the data parent's
// intervals that overlap it (a data interval across a boundary counts in both).
class ControlledInterval : public Interval {
public:
    ControlledInterval(IntervalPtr data, IntervalPtr control, double dataFactor,
                       const DerivedFunction& function, std::int64_t traceEnd);
    void init() override;
    void next() override;

private:
    void fold(bool newControlBurst);
    void foldBurst(bool fromInit);

    IntervalPtr data_, control_;
    double factor_;
    const DerivedFunction& function_;
    std::int64_t traceEnd_;
    double current_ = 0, totalValue_ = 0, totalTime_ = 0;
};

// window_shifts: the parent's values moved by `shift` intervals (positive: the value of a later interval,
// negative: of an earlier one, 0 until there is one), over the parent's own interval boundaries.
class ShiftInterval : public Interval {
public:
    ShiftInterval(IntervalPtr child, int shift);
    void init() override;
    void next() override;

private:
    struct Entry {
        std::int64_t begin, end;
        double value;
    };
    void push();
    void publish();

    IntervalPtr child_;
    int shift_;
    std::size_t capacity_;
    std::deque<Entry> buffer_;
};

} // namespace gpueff::semantic
