#include "engine/semantic/AggregateFunctions.h"

#include "engine/common/Error.h"
#include "engine/semantic/WholeNumber.h"

#include <algorithm>
#include <map>

namespace gpueff::semantic {

using Id = AggregateFunction::Id;

namespace {

const std::vector<AggregateFunction>& catalogue() {
    static const std::vector<AggregateFunction> functions = {
        {Id::Adding, "Adding", InfoType::None, {}},
        {Id::AddingSign, "AddingSign", InfoType::None, {}},
        {Id::Average, "Average", InfoType::None, {}},
        {Id::Maximum, "Maximum", InfoType::Same, {}},
        {Id::Minimum, "Minimum", InfoType::Same, {}},
        {Id::Activity, "Activity", InfoType::None, {{1}}},
        {Id::InActivity, "In Activity", InfoType::None, {{1}}},
        {Id::Mode, "Mode", InfoType::Same, {}},
        {Id::ObjectI, "Thread i", InfoType::Same, {{1}}},
        {Id::AddObjects, "Add Tasks", InfoType::None, {{0}}},
        {Id::ChangedValue, "Changed value", InfoType::Same, {}},
        {Id::ActiveThread, "Active Thd", InfoType::Same, {}},
        {Id::ActiveThreadSign, "Active Thd Sign", InfoType::None, {}},
        {Id::ActiveThreadValues, "Active Thd Val", InfoType::Same, {{1}}},
        {Id::ActiveThreadValuesSign, "Active Thd Val Sign", InfoType::None, {{1}}},
    };
    return functions;
}

} // namespace

const AggregateFunction& aggregateFunction(const std::string& name, const std::string& where) {
    for (const auto& f : catalogue())
        if (name == f.name) return f;
    throw Error(where + ": unknown aggregate function '" + name + "'");
}

double aggregate(const AggregateFunction& f, const std::vector<std::vector<double>>& p,
                 const std::vector<double>& v, std::size_t lastChanged) {
    auto contains = [](const std::vector<double>& list, double x) {
        return std::find(list.begin(), list.end(), x) != list.end();
    };
    switch (f.id) {
    case Id::Adding:
    case Id::AddingSign:
    case Id::Average: {
        double sum = 0;
        for (auto x : v) sum += x;
        if (f.id == Id::AddingSign) return sum > 0 ? 1 : 0;
        if (f.id == Id::Average) return sum / static_cast<double>(v.size());
        return sum;
    }
    case Id::Maximum: {
        double m = 0;
        for (auto x : v) m = x > m ? x : m;
        return m;
    }
    case Id::Minimum: {
        double m = 0;
        for (auto x : v)
            if (m == 0 || x < m) m = x;
        return m;
    }
    case Id::Activity:
    case Id::InActivity: {
        double first = contains(p[0], v[0]) ? v[0] : 0;
        if (first == 0) return 0;
        for (std::size_t i = 1; i < v.size(); ++i)
            if (v[i] != first) return 0;
        return f.id == Id::Activity ? first : 1;
    }
    case Id::Mode: {
        std::map<double, unsigned> counts;
        double mode = 0;
        unsigned best = 0;
        for (auto x : v) {
            auto c = ++counts[x];
            if (c > best) {
                best = c;
                mode = x;
            }
        }
        return mode;
    }
    case Id::ObjectI: { // the i-th child, 1-based; 0 for an i the parent does not have
        auto i = wholeAs<std::size_t>(p[0].empty() ? 0 : p[0][0]);
        return i && *i >= 1 && *i <= v.size() ? v[*i - 1] : 0;
    }
    case Id::AddObjects: { // the children listed, 0-based
        double sum = 0;
        for (auto x : p[0]) {
            auto k = wholeAs<std::size_t>(x);
            if (k && *k < v.size()) sum += v[*k];
        }
        return sum;
    }
    case Id::ChangedValue:
        return v[lastChanged];
    case Id::ActiveThread:
        return v[0];
    case Id::ActiveThreadSign:
        return v[0] != 0 ? 1 : 0;
    case Id::ActiveThreadValues:
        return contains(p[0], v[0]) ? v[0] : 0;
    case Id::ActiveThreadValuesSign:
        return contains(p[0], v[0]) ? 1 : 0;
    }
    return 0;
}

AggregateInterval::AggregateInterval(std::vector<IntervalPtr> children, const AggregateFunction& function,
                                     std::vector<std::vector<double>> params)
    : children_(std::move(children)), function_(function), params_(std::move(params)) {
    for (std::size_t i = params_.size(); i < function_.defaults.size(); ++i)
        params_.push_back(function_.defaults[i]);
    values_.assign(children_.size(), 0.0);
}

void AggregateInterval::push(std::size_t child) {
    heap_.emplace_back(children_[child]->end, sequence_++, child);
    std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
}

std::size_t AggregateInterval::pop() {
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
    auto child = std::get<2>(heap_.back());
    heap_.pop_back();
    return child;
}

void AggregateInterval::init() {
    heap_.clear();
    sequence_ = 0;
    lastChanged_ = 0;
    begin = 0;
    end = 0;
    for (std::size_t i = 0; i < children_.size(); ++i) {
        auto& c = *children_[i];
        c.init();
        if (i == 0 || c.begin > begin) begin = c.begin;
        if (i == 0 || c.end < end) end = c.end;
        values_[i] = c.value;
        push(i);
    }
    value = aggregate(function_, params_, values_, lastChanged_);
}

// Advances the children whose interval ends where this one ends (at most once per child and step, as
// Paraver does), then ends at the earliest child end.
void AggregateInterval::next() {
    begin = end;
    for (std::size_t step = 0;
         step < children_.size() && !heap_.empty() && std::get<0>(heap_.front()) == begin; ++step) {
        auto i = pop();
        auto& c = *children_[i];
        if (c.end <= begin) {
            c.next();
            lastChanged_ = i;
        }
        values_[i] = c.value;
        push(i);
    }
    end = std::get<0>(heap_.front());
    value = aggregate(function_, params_, values_, lastChanged_);
}

} // namespace gpueff::semantic
