#pragma once
#include "engine/semantic/Interval.h"

#include <string>

namespace gpueff::semantic {

// A derived window's operation on its two parents' values.
struct DerivedFunction {
    enum class Id { Add, Product, Subtract, Divide, Maximum, Minimum, Different };
    Id id;
    const char* name;
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
    double compute() const;

    IntervalPtr children_[2];
    double factors_[2];
    const DerivedFunction& function_;
    std::int64_t traceEnd_;
};

} // namespace gpueff::semantic
