#include "engine/semantic/DerivedFunctions.h"

#include "engine/common/Error.h"

#include <cmath>
#include <vector>

namespace gpueff::semantic {

using Id = DerivedFunction::Id;

const DerivedFunction& derivedFunction(const std::string& name, const std::string& where) {
    static const std::vector<DerivedFunction> functions = {{Id::Add, "add"},
                                                           {Id::Product, "product"},
                                                           {Id::Subtract, "substract"},
                                                           {Id::Divide, "divide"},
                                                           {Id::Maximum, "maximum"},
                                                           {Id::Minimum, "minimum"},
                                                           {Id::Different, "different"}};
    for (const auto& f : functions)
        if (name == f.name) return f;
    if (name.rfind("controlled:", 0) == 0)
        throw Error(where + ": derived operation '" + name + "' is not implemented by gpueff");
    throw Error(where + ": unknown derived operation '" + name + "'");
}

DerivedInterval::DerivedInterval(IntervalPtr first, IntervalPtr second, double factor0, double factor1,
                                 const DerivedFunction& function, std::int64_t traceEnd)
    : children_{std::move(first), std::move(second)}, factors_{factor0, factor1}, function_(function),
      traceEnd_(traceEnd) {}

// Paraver divides by the inverse for factors below one, which can round differently from a product.
double DerivedInterval::scaled(std::size_t i) const {
    double v = children_[i]->value, f = factors_[i], a = std::fabs(f);
    if (a < 1.0) return f < 0.0 ? -v / (1.0 / a) : v / (1.0 / a);
    return v * f;
}

double DerivedInterval::compute() const {
    double a = scaled(0), b = scaled(1);
    switch (function_.id) {
    case Id::Add:
        return a + b;
    case Id::Product:
        return a * b;
    case Id::Subtract:
        return a - b;
    case Id::Divide:
        return b == 0 ? 0.0 : a / b;
    case Id::Maximum:
        return a > b ? a : b;
    case Id::Minimum:
        return a < b ? a : b;
    case Id::Different:
        return a != b ? 1 : 0;
    }
    return 0;
}

void DerivedInterval::init() {
    for (auto& c : children_) c->init();
    begin = std::max(children_[0]->begin, children_[1]->begin);
    end = std::min(children_[0]->end, children_[1]->end);
    value = compute();
}

void DerivedInterval::next() {
    begin = end;
    bool haveEnd = false;
    for (auto& c : children_) {
        if (c->end <= begin) c->next();
        if (c->end < traceEnd_ && (!haveEnd || c->end < end)) {
            end = c->end;
            haveEnd = true;
        }
    }
    if (!haveEnd) end = traceEnd_;
    value = compute();
}

} // namespace gpueff::semantic
