#include "engine/pipeline/CutStage.h"

#include "engine/common/Error.h"

#include <algorithm>

namespace gpueff::pipeline {

namespace {
const char* unitName(paraver::TimeUnit unit) {
    switch (unit) {
    case paraver::TimeUnit::Nanoseconds:
        return "ns";
    case paraver::TimeUnit::Microseconds:
        return "us";
    case paraver::TimeUnit::Milliseconds:
        return "ms";
    case paraver::TimeUnit::Seconds:
        return "s";
    }
    return "?";
}
} // namespace

CutStage::CutStage(RecordSink& next, std::int64_t begin, std::optional<std::int64_t> end,
                   std::string description, CutCounts* counts)
    : Stage(next), begin_(begin), endAsked_(end), description_(std::move(description)),
      counts_(counts ? *counts : own_) {}

void CutStage::begin(const StreamInfo& info) {
    const auto traceEnd = info.header.endTime;
    end_ = endAsked_.value_or(traceEnd);
    if (begin_ < 0 || end_ <= begin_)
        throw Error("the cut window must satisfy 0 <= begin < end (got begin " + std::to_string(begin_) +
                    ", end " + std::to_string(end_) + ")");
    if (end_ > traceEnd)
        throw Error(info.source + ": the cut window ends at " + std::to_string(end_) +
                    ", after the trace's end (" + std::to_string(traceEnd) + ")");
    values_.assign(info.rows.size(), {});
    cpu_.assign(info.rows.size(), paraver::kRowCpu);
    StreamInfo out = info;
    out.header.endTime = end_ - begin_;
    out.comments.push_back("# gpueff cut: time 0 = " + std::to_string(begin_) + " " +
                           unitName(info.header.unit) + " of " + description_);
    next_.begin(out);
}

void CutStage::set(std::uint32_t row, std::uint32_t cpu, const TraceRecord& r) {
    if (row >= values_.size()) return;
    cpu_[row] = cpu;
    auto& open = values_[row];
    for (std::uint8_t i = 0; i < r.pairCount; ++i) {
        const auto& p = r.pairs[i];
        auto it = std::find_if(open.begin(), open.end(), [&](const auto& o) { return o.type == p.type; });
        if (p.value == 0) {
            if (it != open.end()) open.erase(it);
        } else if (it != open.end()) {
            it->value = p.value;
        } else {
            open.push_back(p);
        }
    }
}

void CutStage::open() {
    opened_ = true;
    for (std::uint32_t row = 0; row < values_.size(); ++row) {
        const auto& open = values_[row];
        for (std::size_t i = 0; i < open.size(); i += TraceRecord::kMaxPairs) {
            out_ = TraceRecord{};
            out_.time = 0;
            out_.row = row;
            out_.cpu = cpu_[row];
            auto n = std::min<std::size_t>(TraceRecord::kMaxPairs, open.size() - i);
            std::copy_n(open.begin() + static_cast<long>(i), n, out_.pairs.begin());
            out_.pairCount = static_cast<std::uint8_t>(n);
            ++counts_.recordsKept;
            next_.consume(out_);
        }
    }
}

void CutStage::forward(TraceRecord& r) {
    ++counts_.recordsKept;
    next_.consume(r);
}

void CutStage::consume(const TraceRecord& r) {
    if (r.isCommunication) {
        const auto& c = r.comm;
        auto inside = [&](std::int64_t t) { return t >= begin_ && t <= end_; };
        int in =
            inside(c.logicalSend) + inside(c.physicalSend) + inside(c.logicalRecv) + inside(c.physicalRecv);
        bool spans = std::min({c.logicalSend, c.physicalSend, c.logicalRecv, c.physicalRecv}) < begin_ &&
                     std::max({c.logicalSend, c.physicalSend, c.logicalRecv, c.physicalRecv}) > end_;
        if (in < 4) {
            if (in > 0 || spans) ++counts_.communicationsCut;
            return;
        }
        if (!opened_) open();
        out_ = r;
        out_.time -= begin_;
        out_.comm.logicalSend -= begin_;
        out_.comm.physicalSend -= begin_;
        out_.comm.logicalRecv -= begin_;
        out_.comm.physicalRecv -= begin_;
        return forward(out_);
    }
    if (r.isState) {
        std::int64_t b = std::max(r.time, begin_), e = std::min(r.state.end, end_);
        bool keep = b < e || (r.time == r.state.end && r.time >= begin_ && r.time < end_);
        if (!keep) return;
        if (!opened_ && r.time >= begin_) open();
        out_ = r;
        out_.time = b - begin_;
        out_.state.end = e - begin_;
        return forward(out_);
    }
    std::uint32_t cpu = r.cpu;
    if (!opened_) {
        bool closesOnly = std::all_of(r.pairs.begin(), r.pairs.begin() + r.pairCount,
                                      [](const auto& p) { return p.value == 0; });
        if (r.time < begin_ || (r.time == begin_ && closesOnly)) return set(r.row, cpu, r);
        open();
    } else if (r.time < begin_) {
        ++counts_.lateRecords;
        return;
    }
    if (r.time > end_) return;
    out_ = r;
    if (r.time == end_) { // only what closes: a value set here lasts no time inside the window
        std::uint8_t n = 0;
        for (std::uint8_t i = 0; i < r.pairCount; ++i)
            if (r.pairs[i].value == 0) out_.pairs[n++] = r.pairs[i];
        out_.pairCount = n;
        if (n == 0) return;
    }
    set(r.row, cpu, out_);
    out_.time = r.time - begin_;
    forward(out_);
}

void CutStage::end(const StreamLabels& labels) {
    if (!opened_) open();
    // What is still open at the window's end closes there.
    for (std::uint32_t row = 0; row < values_.size(); ++row) {
        const auto& open = values_[row];
        for (std::size_t i = 0; i < open.size(); i += TraceRecord::kMaxPairs) {
            out_ = TraceRecord{};
            out_.time = end_ - begin_;
            out_.order = paraver::RecordOrder::IntervalEnd;
            out_.row = row;
            out_.cpu = cpu_[row];
            auto n = std::min<std::size_t>(TraceRecord::kMaxPairs, open.size() - i);
            for (std::size_t k = 0; k < n; ++k) out_.pairs[k] = {open[i + k].type, 0};
            out_.pairCount = static_cast<std::uint8_t>(n);
            forward(out_);
        }
    }
    next_.end(labels);
}

} // namespace gpueff::pipeline
