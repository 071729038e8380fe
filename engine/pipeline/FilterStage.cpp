#include "engine/pipeline/FilterStage.h"

#include "engine/common/Error.h"
#include "engine/paraver/EventTypes.h"
#include "engine/paraver/PrvReader.h"

#include <algorithm>
#include <set>

namespace gpueff::pipeline {

namespace t = paraver::types;

bool durationType(std::uint32_t type) {
    switch (type) {
    case t::kCudaApi:
    case t::kMemoryOperation:
    case t::kKernel:
    case t::kNcclKernel:
    case t::kGraphLaunch:
    case t::kSynchronization:
    case t::kNvtxStartEndRange:
    case t::kOpenAccOtherKind:
    case t::kOpenAccDataKind:
    case t::kOpenAccLaunchKind:
    case t::kOsRuntime:
    case t::kPthread:
        return true;
    default:
        break;
    }
    if (type >= t::kMpiPointToPoint && type <= t::kMpiIo) return true;
    return t::isNvtxRangeType(type);
}

FilterStage::FilterStage(RecordSink& next, FilterOptions options, FilterCounts* counts)
    : Stage(next), options_(std::move(options)), counts_(counts ? *counts : own_) {}

void FilterStage::begin(const StreamInfo& info) {
    open_.assign(info.rows.size(), IntervalPairing<Open>(Nesting::Stack));
    auto in = [](const TypeRanges& ranges, std::uint64_t v) {
        for (const auto& [lo, hi] : ranges)
            if (lo <= v && v <= hi) return true;
        return false;
    };
    if (!options_.tasks.empty() || !options_.devices.empty()) {
        keepRows_.assign(info.rows.size(), true);
        std::uint32_t tasks = 0;
        for (const auto& appl : info.header.applications)
            tasks = std::max(tasks, static_cast<std::uint32_t>(appl.size()));
        for (const auto& [lo, hi] : options_.tasks)
            if (lo == 0 || hi > tasks)
                throw Error(info.source + ": --tasks " + std::to_string(lo) +
                            (hi == lo ? std::string() : "-" + std::to_string(hi)) +
                            ": the trace has tasks 1.." + std::to_string(tasks));
        const auto& layout = info.layout.rows.size() == info.rows.size() ? info.layout : options_.layout;
        std::set<std::int64_t> gpus, kept;
        for (std::uint32_t row = 0; row < info.rows.size(); ++row) {
            if (!options_.tasks.empty() && !in(options_.tasks, info.rows[row].task)) keepRows_[row] = false;
            if (options_.devices.empty()) continue;
            std::int64_t gpu = row < layout.rows.size() ? layout.rows[row].device : -1;
            if (gpu < 0) continue;
            gpus.insert(gpu);
            if (in(options_.devices, static_cast<std::uint64_t>(gpu)))
                kept.insert(gpu);
            else
                keepRows_[row] = false;
        }
        if (!options_.devices.empty() && kept.empty()) {
            std::string known;
            for (auto g : gpus) known += (known.empty() ? "" : ", ") + std::to_string(g);
            throw Error(info.source + ": --devices: no GPU rows of those devices (the trace's devices: " +
                        (known.empty() ? "none named CUDA-D<n>.S<s> in its .row" : known) + ")");
        }
    }
    next_.begin(info);
}

bool FilterStage::keepsType(std::uint32_t type) const {
    if (!options_.keepTypes.empty() && !paraver::inTypeRanges(options_.keepTypes, type)) return false;
    return !paraver::inTypeRanges(options_.dropTypes, type);
}

void FilterStage::emit(const TraceRecord& r) {
    if (r.isCommunication || r.isState) {
        ++counts_.recordsKept;
        return next_.consume(r);
    }
    if (options_.keepTypes.empty() && options_.dropTypes.empty()) {
        ++counts_.recordsKept;
        return next_.consume(r);
    }
    out_.time = r.time;
    out_.order = r.order;
    out_.isCommunication = false;
    out_.isState = false;
    out_.row = r.row;
    out_.cpu = r.cpu;
    std::uint8_t n = 0;
    for (std::uint8_t i = 0; i < r.pairCount; ++i)
        if (keepsType(r.pairs[i].type)) out_.pairs[n++] = r.pairs[i];
    out_.pairCount = n;
    if (n == 0) {
        ++counts_.recordsDropped;
        return;
    }
    ++counts_.recordsKept;
    next_.consume(out_);
}

// Emits the held records from the front while they are decided: not a begin waiting for its end, or a begin
// that has lasted minDuration already (`now` is the stream's time).
void FilterStage::release(std::int64_t now, bool all) {
    while (!held_.empty()) {
        auto& h = held_.front();
        if (h.pending && !all && h.record.time + *options_.minDuration > now) break;
        if (!h.dropped) emit(h.record);
        held_.popFront();
        ++firstSeq_;
    }
}

void FilterStage::durations(const TraceRecord& r) {
    const auto seq = firstSeq_ + held_.size();
    bool pending = false, dropped = false;
    if (!r.isCommunication && !r.isState && r.pairCount > 0 && durationType(r.pairs[0].type)) {
        if (r.row >= open_.size()) open_.resize(r.row + 1);
        // Calls and ranges of one type nest on a row; an end with nothing open passes.
        auto paired = open_[r.row].event(
            r.pairs[0].type, r.pairs[0].value,
            [&](const Open*) {
                return Open{seq, r.time};
            },
            [&](const Open& o, const Open*) {
                if (o.seq < firstSeq_) return; // its begin is out already: it lasted minDuration
                auto& begin = held_[o.seq - firstSeq_];
                begin.pending = false;
                if (r.time - o.begin < *options_.minDuration) {
                    begin.dropped = dropped = true;
                    ++counts_.shortIntervals;
                    counts_.recordsDropped += 2;
                }
            });
        pending = paired == Pairing::Opened;
    }
    // A dropped end is not held, so the sequence numbers of held records stay dense.
    if (dropped) return release(r.time, false);
    if (held_.empty() && !pending) { // nothing waits: straight through
        ++firstSeq_;
        return emit(r);
    }
    auto& h = held_.pushBack();
    h.record = r;
    h.pending = pending;
    h.dropped = false;
    release(r.time, false);
}

void FilterStage::consume(const TraceRecord& r) {
    if (r.isCommunication) {
        if (!keepsRow(r.comm.sendRow) || !keepsRow(r.comm.recvRow)) return void(++counts_.recordsDropped);
    } else if (!keepsRow(r.row)) {
        return void(++counts_.recordsDropped);
    }
    if (!options_.minDuration) return emit(r);
    durations(r);
}

void FilterStage::end(const StreamLabels& labels) {
    if (options_.minDuration) release(0, true);
    next_.end(labels);
}

} // namespace gpueff::pipeline
