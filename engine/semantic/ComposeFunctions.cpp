#include "engine/semantic/ComposeFunctions.h"

#include "engine/common/Error.h"
#include "engine/semantic/WholeNumber.h"

#include <algorithm>
#include <cerrno>
#include <cfenv>
#include <cmath>

namespace gpueff::semantic {

using Id = ComposeFunction::Id;

namespace {

const std::vector<ComposeFunction>& catalogue() {
    static const std::vector<ComposeFunction> functions = {
        {Id::AsIs, "As Is", InfoType::Same, {}},
        {Id::Sign, "Sign", InfoType::None, {}},
        {Id::OneMinusSign, "1-Sign", InfoType::None, {}},
        {Id::Mod, "Mod", InfoType::None, {{1}}},
        {Id::ModPlus1, "Mod+1", InfoType::None, {{1}}},
        {Id::Div, "Div", InfoType::None, {{1}}},
        {Id::Prod, "Prod", InfoType::None, {{0}}},
        {Id::Add, "Add", InfoType::None, {{0}}},
        {Id::Subs, "Subs", InfoType::None, {{0}}},
        {Id::Complement, "Complement", InfoType::None, {{0}}},
        {Id::InverseDiv, "Inverse Div", InfoType::None, {{1}}},
        {Id::SelectRange, "Select Range", InfoType::Same, {{1}, {0}}},
        {Id::SelectRangeOpen, "Select Range [)", InfoType::Same, {{1}, {0}}},
        {Id::IsInRange, "Is In Range", InfoType::None, {{1}, {0}}},
        {Id::IsInRangeOpen, "Is In Range [)", InfoType::None, {{1}, {0}}},
        {Id::IsEqual, "Is Equal", InfoType::Same, {{1}}},
        {Id::IsEqualSign, "Is Equal (Sign)", InfoType::None, {{1}}},
        {Id::Floor, "Floor", InfoType::Same, {}},
        {Id::Ceil, "Ceil", InfoType::Same, {}},
        {Id::Round, "Round", InfoType::Same, {}},
        {Id::Abs, "Abs", InfoType::Same, {}},
        {Id::StackedVal, "Stacked Val", InfoType::Same, {}},
        {Id::InStackedVal, "In Stacked Val", InfoType::None, {{1}}},
        {Id::NestingLevel, "Nesting level", InfoType::None, {}},
        {Id::LruDepth, "LRU Depth", InfoType::None, {{256}}},
        {Id::Enumerate, "Enumerate", InfoType::None, {}},
        {Id::Accumulate, "Accumulate", InfoType::None, {}},
        {Id::Delta, "Delta", InfoType::None, {}},
        {Id::BurstTime, "Burst Time", InfoType::Time, {}},
        {Id::DivideByBurstTime, "Divide by Burst Time", InfoType::None, {}},
        {Id::JoinBursts, "Join Bursts", InfoType::Same, {}},
        {Id::Timer, "Timer", InfoType::Same, {{1}}},
        {Id::BeginTime, "Begin Time", InfoType::Time, {}},
        {Id::EndTime, "End Time", InfoType::Time, {}},
        {Id::Translate, "Translate", InfoType::Same, {{}}},
        {Id::Sin, "sin", InfoType::None, {}},
        {Id::Cos, "cos", InfoType::None, {}},
        {Id::SqrtAbs, "sqrt (abs)", InfoType::None, {}},
        {Id::ArcTan, "arc tan", InfoType::None, {}},
        {Id::LogN, "log N", InfoType::None, {{std::exp(1.0)}}},
        {Id::Exp, "exp", InfoType::None, {{std::exp(1.0)}}},
    };
    return functions;
}

bool inRanges(const std::vector<std::vector<double>>& p, double v, bool open) {
    auto n = std::min(p[0].size(), p[1].size());
    for (std::size_t i = 0; i < n; ++i)
        if ((open ? v < p[0][i] : v <= p[0][i]) && v >= p[1][i]) return true;
    return false;
}

} // namespace

const ComposeFunction& composeFunction(const std::string& name, const std::string& where) {
    for (const auto& f : catalogue())
        if (name == f.name) return f;
    throw Error(where + ": unknown compose function '" + name + "'");
}

ComposeInterval::ComposeInterval(IntervalPtr child, const ComposeFunction& function,
                                 std::vector<std::vector<double>> params, const TraceContext& context,
                                 Unit unit)
    : child_(std::move(child)), function_(function), params_(std::move(params)), context_(context),
      unit_(unit) {
    for (std::size_t i = params_.size(); i < function_.defaults.size(); ++i)
        params_.push_back(function_.defaults[i]);
    // Timer's duration: an empty list is the default; the parser refuses a negative one.
    if (function_.id == Id::Timer) timer_ = params_[0].empty() ? 1.0 : std::max(params_[0][0], 0.0);
}

// Where a firing timer ends the interval: timerBegin_ + the duration, which the accumulated time exceeds,
// so it lies before the child's end (clamped there, should double rounding say otherwise).
std::int64_t ComposeInterval::timerEnd() const {
    auto duration = wholeAs<std::int64_t>(std::trunc(timer_));
    std::int64_t e = 0;
    if (!duration || __builtin_add_overflow(timerBegin_, *duration, &e) || e > end) return end;
    return e;
}

double ComposeInterval::apply(double v) {
    const auto& p = params_;
    auto first = [&](std::size_t i) { return p[i].empty() ? 0.0 : p[i][0]; };
    auto toWindow = [&](double t) { return toWindowUnits(t, context_.trace.header.unit, unit_); };
    switch (function_.id) {
    case Id::AsIs:
    case Id::JoinBursts:
    case Id::Timer:
        return v;
    case Id::Sign:
        return v != 0 ? 1 : 0;
    case Id::OneMinusSign:
        return v != 0 ? 0 : 1;
    case Id::Mod:
        return std::fmod(v, first(0) != 0 ? first(0) : 1);
    case Id::ModPlus1:
        return std::fmod(v, first(0) != 0 ? first(0) : 1) + 1;
    case Id::Div:
        return first(0) != 0 ? v / first(0) : std::fmod(v, 1.0);
    case Id::Prod:
        return v * first(0);
    case Id::Add:
        return v + first(0);
    case Id::Subs:
        return v - first(0);
    case Id::Complement:
        return first(0) - v;
    case Id::InverseDiv:
        return v != 0 ? first(0) / v : 0;
    case Id::SelectRange:
        return inRanges(p, v, false) ? v : 0;
    case Id::SelectRangeOpen:
        return inRanges(p, v, true) ? v : 0;
    case Id::IsInRange:
        return inRanges(p, v, false) ? 1 : 0;
    case Id::IsInRangeOpen:
        return inRanges(p, v, true) ? 1 : 0;
    case Id::IsEqual:
    case Id::IsEqualSign:
        for (auto x : p[0])
            if (v == x) return function_.id == Id::IsEqual ? v : 1;
        return 0;
    case Id::Floor:
        return std::floor(v);
    case Id::Ceil:
        return std::ceil(v);
    case Id::Round:
        return std::rint(v);
    case Id::Abs:
        return std::fabs(v);
    case Id::StackedVal:
    case Id::InStackedVal:
        if (v != 0)
            stack_.push_back(v);
        else if (!stack_.empty())
            stack_.pop_back();
        if (stack_.empty()) return 0;
        if (function_.id == Id::StackedVal) return stack_.back();
        return stack_.back() == first(0) ? stack_.back() : 0;
    case Id::NestingLevel:
        if (v != 0)
            ++nesting_;
        else if (nesting_ > 0)
            --nesting_;
        return nesting_;
    case Id::LruDepth: {
        if (v == 0.0) return 0.0;
        // A whole number in [0, 10^6]: the parser checks it; 0 for anything else, never an unbounded list.
        auto size = wholeAs<std::uint32_t>(first(0)).value_or(0);
        double depth = 1;
        auto it = lru_.begin();
        for (; it != lru_.end(); ++it, ++depth)
            if (*it == v) break;
        bool found = it != lru_.end();
        lru_.push_front(v);
        if (found)
            lru_.erase(it);
        else {
            if (lru_.size() > size) lru_.pop_back();
            depth = static_cast<double>(size) + 1;
        }
        return depth;
    }
    case Id::Enumerate:
        return v != 0 ? value + 1 : value;
    case Id::Accumulate:
        return value + v;
    case Id::Delta: {
        double r = v != previous_ ? v - previous_ : 0.0;
        previous_ = v;
        return r;
    }
    case Id::BurstTime:
        return toWindow(static_cast<double>(end - begin));
    case Id::DivideByBurstTime: {
        double d = static_cast<double>(end - begin);
        return d == 0 ? 0 : v / toWindow(d);
    }
    case Id::BeginTime:
        return toWindow(static_cast<double>(begin));
    case Id::EndTime:
        return toWindow(static_cast<double>(end));
    case Id::Translate:
        for (std::size_t i = 0; i + 1 < p[0].size(); i += 2)
            if (p[0][i] == v) return p[0][i + 1];
        return v;
    case Id::Sin:
        return std::sin(v);
    case Id::Cos:
        return std::cos(v);
    case Id::SqrtAbs:
        return std::sqrt(std::fabs(v));
    case Id::ArcTan:
        return std::atan(v);
    case Id::LogN: {
        double r = std::log(v) / std::log(first(0));
        return (v <= 0 || r < 0) ? 0 : r;
    }
    case Id::Exp: {
        errno = 0;
        std::feclearexcept(FE_ALL_EXCEPT);
        double r = std::pow(first(0), v);
        if (errno == EDOM || std::fetestexcept(FE_INVALID) || std::fetestexcept(FE_DIVBYZERO)) r = 0;
        return r;
    }
    }
    return v;
}

// Join Bursts: extend the interval over the following child intervals with the same value, up to the trace
// end. A zero-length child interval (two records at one time) does not stop the join: paraver-kernel's guard
// compares record iterators, not times, so it only fires when the child stops advancing, which a cursor here
// does only at the trace end (Interval.h).
void ComposeInterval::joinFrom() {
    while (child_->value == value) {
        end = child_->end;
        if (end >= context_.endTime) break;
        child_->next();
    }
}

void ComposeInterval::init() {
    stack_.clear();
    lru_.clear();
    nesting_ = previous_ = accumulated_ = 0;
    split_ = false;
    value = 0;
    child_->init();
    begin = child_->begin;
    end = child_->end;
    if (function_.id == Id::JoinBursts) {
        value = child_->value;
        child_->next();
        joinFrom();
        return;
    }
    if (function_.id == Id::Timer) {
        value = child_->value;
        if (value != 0) {
            timerBegin_ = begin;
            accumulated_ += static_cast<double>(end - begin);
            if (accumulated_ > timer_) {
                end = timerEnd();
                split_ = true;
                accumulated_ = 0;
            }
        }
        return;
    }
    value = apply(child_->value);
}

void ComposeInterval::next() {
    if (function_.id == Id::JoinBursts) {
        begin = child_->begin;
        end = child_->end;
        value = child_->value;
        child_->next();
        if (end >= context_.endTime) return;
        joinFrom();
        return;
    }
    if (function_.id == Id::Timer) {
        if (split_) { // the rest of the child's burst after the timer fired reads 0
            split_ = false;
            value = 0;
            begin = end;
            end = child_->end;
            return;
        }
        child_->next();
        value = child_->value;
        begin = child_->begin;
        end = child_->end;
        if (value != 0) {
            if (accumulated_ == 0) timerBegin_ = begin;
            accumulated_ += static_cast<double>(end - begin);
            if (accumulated_ > timer_) {
                end = timerEnd();
                split_ = true;
                accumulated_ = 0;
            } else if (accumulated_ == timer_) {
                accumulated_ = 0;
            }
        } else {
            accumulated_ = 0;
        }
        return;
    }
    child_->next();
    begin = child_->begin;
    end = child_->end;
    value = apply(child_->value);
}

} // namespace gpueff::semantic
