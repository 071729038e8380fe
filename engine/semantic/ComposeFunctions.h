#pragma once
#include "engine/semantic/Interval.h"

#include <list>
#include <string>
#include <vector>

namespace gpueff::semantic {

// Paraver's compose functions: a value map over one child interval, some with memory (Stacked Val,
// Accumulate...), two that change the intervals themselves (Join Bursts, Timer).
struct ComposeFunction {
    enum class Id {
        AsIs,
        Sign,
        OneMinusSign,
        Mod,
        ModPlus1,
        Div,
        Prod,
        Add,
        Subs,
        Complement,
        InverseDiv,
        SelectRange,
        SelectRangeOpen,
        IsInRange,
        IsInRangeOpen,
        IsEqual,
        IsEqualSign,
        Floor,
        Ceil,
        Round,
        Abs,
        StackedVal,
        InStackedVal,
        NestingLevel,
        LruDepth,
        Enumerate,
        Accumulate,
        Delta,
        BurstTime,
        DivideByBurstTime,
        JoinBursts,
        Timer,
        BeginTime,
        EndTime,
        Translate,
        Sin,
        Cos,
        SqrtAbs,
        ArcTan,
        LogN,
        Exp
    };
    Id id;
    const char* name;
    InfoType info;
    std::vector<std::vector<double>> defaults;
};

const ComposeFunction& composeFunction(const std::string& name, const std::string& where);

class ComposeInterval : public Interval {
public:
    ComposeInterval(IntervalPtr child, const ComposeFunction& function,
                    std::vector<std::vector<double>> params, const TraceContext& context, Unit unit);
    void init() override;
    void next() override;

private:
    double apply(double v);
    void joinFrom();
    std::int64_t timerEnd() const;

    IntervalPtr child_;
    const ComposeFunction& function_;
    std::vector<std::vector<double>> params_;
    const TraceContext& context_;
    Unit unit_;
    std::vector<double> stack_;
    std::list<double> lru_;
    double nesting_ = 0, previous_ = 0;
    // Timer: time accumulated in non-zero bursts, and whether the current interval is its virtual split.
    double accumulated_ = 0;
    std::int64_t timerBegin_ = 0;
    double timer_ = 1; // Timer's duration (trace units)
    bool split_ = false;
};

} // namespace gpueff::semantic
