#include "engine/pipeline/CutStage.h"

#include "engine/common/Error.h"

#include <algorithm>
#include <charconv>
#include <string_view>

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
    rowOpened_.assign(info.rows.size(), 0);
    ordered_ = info.timeOrdered;
    StreamInfo out = info;
    out.header.endTime = end_ - begin_;
    out.provenance.cuts.push_back({begin_, unitName(info.header.unit), description_});
    next_.begin(out);
}

CutStage::TypeValue& CutStage::value(std::uint32_t row, std::uint32_t type) {
    auto& types = values_[row];
    auto it = std::find_if(types.begin(), types.end(), [type](const auto& v) { return v.type == type; });
    if (it != types.end()) return *it;
    return types.emplace_back(TypeValue{type, 0, -1, false});
}

void CutStage::set(std::uint32_t row, std::uint32_t cpu, const TraceRecord& r, bool inside) {
    cpu_[row] = cpu;
    for (std::uint8_t i = 0; i < r.pairCount; ++i) {
        auto& v = value(row, r.pairs[i].type);
        v.value = r.pairs[i].value;
        if (inside)
            v.inside = true;
        else
            v.before = r.time;
    }
}

// An event before the window after its row opened: the value it sets holds at the window's begin when it is
// the latest of its type before the window, up to the type's first record inside.
void CutStage::late(const TraceRecord& r) {
    ++counts_.lateRecords;
    pairs_.clear();
    for (std::uint8_t i = 0; i < r.pairCount; ++i) {
        auto& v = value(r.row, r.pairs[i].type);
        if (r.time < v.before) continue;
        v.before = r.time;
        if (!v.inside) v.value = r.pairs[i].value;
        pairs_.push_back(r.pairs[i]);
    }
    writeValues(r.row, 0, pairs_, paraver::RecordOrder::Begin);
}

void CutStage::writeValues(std::uint32_t row, std::int64_t time, const std::vector<paraver::EventPair>& pairs,
                           paraver::RecordOrder order) {
    for (std::size_t i = 0; i < pairs.size(); i += TraceRecord::kMaxPairs) {
        out_ = TraceRecord{};
        out_.time = time;
        out_.order = order;
        out_.row = row;
        out_.cpu = cpu_[row];
        auto n = std::min<std::size_t>(TraceRecord::kMaxPairs, pairs.size() - i);
        std::copy_n(pairs.begin() + static_cast<long>(i), n, out_.pairs.begin());
        out_.pairCount = static_cast<std::uint8_t>(n);
        forward(out_);
    }
}

void CutStage::openRow(std::uint32_t row) {
    if (rowOpened_[row]) return;
    rowOpened_[row] = 1;
    pairs_.clear();
    for (const auto& v : values_[row])
        if (v.value != 0) pairs_.push_back({v.type, v.value});
    writeValues(row, 0, pairs_, paraver::RecordOrder::Begin);
}

// At the first record inside the window: every row with values open is written at 0 (so a time-ordered
// input gives a time-ordered cut). A row with nothing open yet opens with its own first record inside.
void CutStage::open() {
    opened_ = true;
    for (std::uint32_t row = 0; row < values_.size(); ++row)
        if (std::any_of(values_[row].begin(), values_[row].end(), [](const auto& v) { return v.value != 0; }))
            openRow(row);
}

void CutStage::forward(TraceRecord& r) {
    ++counts_.recordsKept;
    next_.consume(r);
}

void CutStage::consume(const TraceRecord& r) {
    if (r.time < latest_) ordered_ = false;
    latest_ = std::max(latest_, r.time);
    if (ordered_ && r.time > end_) satisfied_ = true; // and this record is past the window, as all after it
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
    if (r.row >= values_.size()) return;
    // Rows are opened one by one: a trace whose rows are each in time order but not merged (nsys2prv
    // writes thread after thread) still has every row's records before the window applied before it opens.
    if (!rowOpened_[r.row]) {
        bool closesOnly = std::all_of(r.pairs.begin(), r.pairs.begin() + r.pairCount,
                                      [](const auto& p) { return p.value == 0; });
        if (r.time < begin_ || (r.time == begin_ && closesOnly)) return set(r.row, cpu, r, false);
        if (r.time > end_) return;
        if (!opened_) open();
        openRow(r.row);
    } else if (r.time < begin_) {
        return late(r);
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
    set(r.row, cpu, out_, true);
    out_.time = r.time - begin_;
    forward(out_);
}

void CutStage::end(const StreamLabels& labels) {
    if (!opened_) open();
    for (std::uint32_t row = 0; row < values_.size(); ++row) openRow(row);
    // What is still open at the window's end closes there.
    for (std::uint32_t row = 0; row < values_.size(); ++row) {
        pairs_.clear();
        for (const auto& v : values_[row])
            if (v.value != 0) pairs_.push_back({v.type, 0});
        writeValues(row, end_ - begin_, pairs_, paraver::RecordOrder::IntervalEnd);
    }
    next_.end(labels);
}

} // namespace gpueff::pipeline
