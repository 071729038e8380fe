#include "engine/semantic/DerivedFunctions.h"

#include "engine/common/Error.h"

#include <cmath>
#include <cstdlib>
#include <vector>

namespace gpueff::semantic {

using Id = DerivedFunction::Id;

const DerivedFunction& derivedFunction(const std::string& name, const std::string& where) {
    static const std::vector<DerivedFunction> functions = {
        {Id::Add, "add", false, InfoType::Same},
        {Id::Product, "product", false, InfoType::Same},
        {Id::Subtract, "substract", false, InfoType::Same},
        {Id::Divide, "divide", false, InfoType::Same},
        {Id::Maximum, "maximum", false, InfoType::Same},
        {Id::Minimum, "minimum", false, InfoType::Same},
        {Id::Different, "different", false, InfoType::Same},
        {Id::ClearBy, "controlled: clear by", false, InfoType::Same},
        {Id::Enumerate, "controlled: enumerate", false, InfoType::None},
        {Id::ControlledMaximum, "controlled: maximum", true, InfoType::Same},
        {Id::ControlledAdd, "controlled: add", true, InfoType::Same},
        {Id::ControlledAverage, "controlled: average", true, InfoType::None}};
    for (const auto& f : functions)
        if (name == f.name) return f;
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

double DerivedInterval::compute() {
    double a = scaled(0), b = scaled(1);
    std::int64_t dataBegin = children_[0]->begin;
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
    case Id::ClearBy: {
        // The first value, except 0 from where the second one drops until the first one's next interval.
        double result = 0;
        if (b < lastControl_)
            lastDataBegin_ = dataBegin;
        else if (lastDataBegin_ != dataBegin || dataBegin == 0)
            result = a;
        lastControl_ = b;
        return result;
    }
    case Id::Enumerate: {
        // Counts the first parent's non-zero intervals, restarting where the second one drops. Paraver's
        // condition, precedence included: first call || (new data interval && value != 0).
        if (b < lastControl_)
            count_ = 0;
        else if (lastDataBegin_ == 0 || (dataBegin != lastDataBegin_ && a != 0.0))
            ++count_;
        lastControl_ = b;
        lastDataBegin_ = dataBegin;
        return count_;
    }
    default:
        return 0; // controlled operations are ControlledInterval's
    }
}

void DerivedInterval::init() {
    lastControl_ = 0;
    count_ = 0;
    lastDataBegin_ = 0;
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

ControlledInterval::ControlledInterval(IntervalPtr data, IntervalPtr control, double dataFactor,
                                       const DerivedFunction& function, std::int64_t traceEnd)
    : data_(std::move(data)), control_(std::move(control)), factor_(dataFactor), function_(function),
      traceEnd_(traceEnd) {}

void ControlledInterval::fold(bool newControlBurst) {
    double v = data_->value * factor_;
    switch (function_.id) {
    case Id::ControlledMaximum:
        current_ = current_ > v ? current_ : v;
        break;
    case Id::ControlledAdd:
        current_ = current_ + v;
        break;
    default: { // average weighted by the whole data interval's duration, not the part inside the burst
        if (newControlBurst) totalValue_ = totalTime_ = 0;
        double duration = static_cast<double>(data_->end) - static_cast<double>(data_->begin);
        totalValue_ += v * duration;
        totalTime_ += duration;
        current_ = totalTime_ == 0.0 ? 0.0 : totalValue_ / totalTime_;
    }
    }
}

// One control interval: the data interval under its begin (if it reaches past it), then every data interval
// that starts before its end.
void ControlledInterval::foldBurst(bool fromInit) {
    current_ = 0;
    if (fromInit)
        while (data_->end < begin) data_->next();
    else
        while (data_->end <= begin) data_->next();
    if (data_->end > begin) fold(true);
    while (data_->end < end) {
        data_->next();
        fold(false);
    }
    value = current_;
}

void ControlledInterval::init() {
    totalValue_ = totalTime_ = 0;
    control_->init();
    data_->init();
    begin = control_->begin;
    end = control_->end;
    foldBurst(true);
}

void ControlledInterval::next() {
    control_->next();
    begin = control_->begin;
    end = control_->end;
    if (begin >= traceEnd_) {
        value = current_ = 0;
        return;
    }
    foldBurst(false);
}

ShiftInterval::ShiftInterval(IntervalPtr child, int shift)
    : child_(std::move(child)), shift_(shift), capacity_(static_cast<std::size_t>(std::abs(shift)) + 1) {}

void ShiftInterval::push() {
    Entry e{child_->begin, child_->end, child_->value};
    if (shift_ > 0) {
        buffer_.push_back(e);
        if (buffer_.size() > capacity_) buffer_.pop_front();
    } else {
        buffer_.push_front(e);
        if (buffer_.size() > capacity_) buffer_.pop_back();
    }
    publish();
}

// The times are those of the oldest (shift > 0) or newest (shift < 0) interval held, the value that of the
// other end of the buffer once it is full.
void ShiftInterval::publish() {
    begin = buffer_.front().begin;
    end = buffer_.front().end;
    value = buffer_.size() < capacity_ ? 0.0 : buffer_.back().value;
}

void ShiftInterval::init() {
    buffer_.clear();
    child_->init();
    push();
    if (shift_ > 0)
        while (buffer_.size() < capacity_) {
            child_->next();
            push();
        }
}

void ShiftInterval::next() {
    child_->next();
    push();
}

} // namespace gpueff::semantic
