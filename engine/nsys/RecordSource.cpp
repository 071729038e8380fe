#include "engine/nsys/RecordSource.h"

#include "engine/common/Error.h"

#include <algorithm>

namespace gpueff::nsys {

bool RecordSource::nextReordered() {
    auto later = [this](const std::pair<std::size_t, std::uint64_t>& a,
                        const std::pair<std::size_t, std::uint64_t>& b) {
        return paraver::recordBefore(held_[b.first], b.second, held_[a.first], a.second);
    };
    // A record is final once every record still to come is later: those are at most window_ behind latest_.
    while (!drained_ && (heldOrder_.empty() || held_[heldOrder_.front().first].time >= latest_ - window_)) {
        std::size_t slot;
        if (!freeSlots_.empty()) {
            slot = freeSlots_.back();
            freeSlots_.pop_back();
        } else {
            slot = held_.size();
            held_.emplace_back();
        }
        if (!fill(held_[slot])) {
            freeSlots_.push_back(slot);
            drained_ = true;
            break;
        }
        latest_ = std::max(latest_, held_[slot].time);
        heldOrder_.emplace_back(slot, arrivals_++);
        std::push_heap(heldOrder_.begin(), heldOrder_.end(), later);
    }
    if (heldOrder_.empty()) return false;
    std::pop_heap(heldOrder_.begin(), heldOrder_.end(), later);
    std::size_t slot = heldOrder_.back().first;
    heldOrder_.pop_back();
    current_ = held_[slot];
    freeSlots_.push_back(slot);
    return true;
}

IntervalSource::IntervalSource(std::unique_ptr<Rows> rows, std::int64_t shift)
    : rows_(std::move(rows)), shift_(shift) {}

bool IntervalSource::later(const PendingEnd& a, const PendingEnd& b) {
    if (a.time != b.time) return a.time > b.time;
    if (a.order != b.order) return a.order > b.order;
    if (a.row != b.row) return a.row > b.row;
    return a.seq > b.seq;
}

bool IntervalSource::loadBegin() {
    while (!exhausted_) {
        if (!rows_->step()) {
            exhausted_ = true;
            break;
        }
        nextBegin_.pairCount = 0;
        nextBegin_.isCommunication = false;
        Interval iv;
        if (!decode(*rows_, nextBegin_, iv)) continue;
        // The queries leave out rows ending before they start (RowValidity.h), and a shift moves both ends
        // alike; an end heap fed one would emit records out of time order.
        if (iv.hasEnd && iv.end < iv.begin)
            throw Error("internal error: " + name() + ": a row ending before it starts reached the records");
        nextBegin_.time = iv.begin;
        nextBegin_.row = iv.row;
        nextBegin_.order = RecordOrder::Begin;
        if (iv.hasEnd) {
            PendingEnd e{iv.end,
                         endSeq_++,
                         iv.end == iv.begin ? RecordOrder::ZeroLengthEnd : RecordOrder::IntervalEnd,
                         nextBegin_.pairCount,
                         iv.row,
                         {}};
            for (std::uint8_t i = 0; i < nextBegin_.pairCount; ++i) e.types[i] = nextBegin_.pairs[i].type;
            ends_.push_back(e);
            std::push_heap(ends_.begin(), ends_.end(), later);
        }
        return true;
    }
    return false;
}

void IntervalSource::collectNames() {
    TraceRecord record;
    while (!exhausted_ && rows_->step()) {
        record.pairCount = 0;
        Interval iv;
        decode(*rows_, record, iv);
    }
    exhausted_ = true;
}

bool IntervalSource::fill(TraceRecord& out) {
    if (!haveBegin_) haveBegin_ = loadBegin();
    bool endFirst = !ends_.empty() &&
                    (!haveBegin_ || ends_.front().time < nextBegin_.time ||
                     (ends_.front().time == nextBegin_.time && ends_.front().order < RecordOrder::Begin));
    if (endFirst) {
        std::pop_heap(ends_.begin(), ends_.end(), later);
        const PendingEnd& e = ends_.back();
        out.time = e.time;
        out.order = e.order;
        out.row = e.row;
        out.isCommunication = false;
        out.pairCount = e.pairCount;
        for (std::uint8_t i = 0; i < e.pairCount; ++i) out.pairs[i] = {e.types[i], 0};
        ends_.pop_back();
        return true;
    }
    if (!haveBegin_) return false;
    out = nextBegin_;
    haveBegin_ = false;
    return true;
}

VectorSource::VectorSource(std::string name, std::vector<TraceRecord> records)
    : name_(std::move(name)), records_(std::move(records)) {}

bool VectorSource::fill(TraceRecord& out) {
    if (next_ >= records_.size()) return false;
    out = records_[next_++];
    return true;
}

} // namespace gpueff::nsys
