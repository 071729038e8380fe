#include "engine/pipeline/TraceBuilder.h"

#include "engine/common/Error.h"
#include "engine/paraver/RecordStream.h"

#include <algorithm>
#include <limits>

namespace gpueff::pipeline {

namespace {
// Record indices are 32-bit (RecordStream::index): checked rather than wrapped.
void checkRoom(std::size_t records, const std::string& source) {
    if (records >= std::numeric_limits<std::uint32_t>::max())
        throw Error(source + ": more than 2^32 - 1 records of one kind in one thread");
}
} // namespace

void TraceBuilder::begin(const StreamInfo& info) {
    trace_ = paraver::Trace{};
    trace_.source = info.source;
    trace_.header = info.header;
    trace_.communicatorLines = info.communicatorLines;
    trace_.provenance = info.provenance;
    for (const auto& c : info.comments)
        if (trace_.comments.size() < paraver::kMaxComments) trace_.comments.push_back(c.substr(0, 1024));
    trace_.indexThreads();
    threadOfRow_ = threadOfRows(info);
    cpuOfRow_.clear();
    for (const auto& a : info.rows) cpuOfRow_.push_back(a.cpu);
    // The trace's threads are in header order: so are the layout's rows it keeps.
    layout_ = layoutInThreadOrder(info, threadOfRow_);
    reserve();
}

void TraceBuilder::reserve() {
    if (expected_.rows.size() != threadOfRow_.size()) return;
    std::vector<ExpectedRecords::Row> byThread(trace_.threads.size());
    for (std::size_t row = 0; row < threadOfRow_.size(); ++row) {
        auto& t = byThread.at(threadOfRow_[row]);
        const auto& r = expected_.rows[row];
        t.states += r.states;
        t.events += r.events;
        t.sends += r.sends;
        t.receives += r.receives;
    }
    for (std::size_t i = 0; i < byThread.size(); ++i) {
        auto& t = trace_.threads[i];
        const auto& n = byThread[i];
        for (auto* c : {&t.stateBegin, &t.stateEnd}) c->reserve(n.states);
        for (auto* c : {&t.stateValue, &t.stateCpu}) c->reserve(n.states);
        t.eventTime.reserve(n.events);
        t.eventType.reserve(n.events);
        t.eventValue.reserve(n.events);
        t.eventCpu.reserve(n.events);
        t.sends.reserve(n.sends);
        t.receives.reserve(n.receives);
    }
    trace_.communications.reserve(expected_.communications);
}

void TraceBuilder::seen(std::int64_t time) {
    if (time > trace_.header.endTime) ++trace_.recordsAfterEnd;
    trace_.lastRecordTime = std::max(trace_.lastRecordTime, time);
}

void TraceBuilder::consume(const TraceRecord& r) {
    if (r.isCommunication) {
        const auto& c = r.comm;
        paraver::CommunicationRecord out{thread(c.sendRow),
                                         thread(c.recvRow),
                                         cpu(c.sendRow, c.sendCpu),
                                         cpu(c.recvRow, c.recvCpu),
                                         c.logicalSend,
                                         c.physicalSend,
                                         c.logicalRecv,
                                         c.physicalRecv,
                                         c.size,
                                         c.tag};
        seen(std::max({c.logicalSend, c.physicalSend, c.logicalRecv, c.physicalRecv}));
        bool sender = options_.keepsThread(out.sendThread), receiver = options_.keepsThread(out.recvThread);
        if (!sender && !receiver) return;
        checkRoom(trace_.communications.size(), trace_.source);
        auto index = static_cast<std::uint32_t>(trace_.communications.size());
        trace_.communications.push_back(out);
        if (sender) trace_.threads[out.sendThread].sends.push_back(index);
        if (receiver) trace_.threads[out.recvThread].receives.push_back(index);
        return;
    }
    if (!options_.keepsThread(thread(r.row))) {
        if (r.isState)
            seen(r.state.end);
        else if (r.pairCount > 0)
            seen(r.time);
        return;
    }
    auto& t = trace_.threads[thread(r.row)];
    const auto recordCpu = cpu(r.row, r.cpu);
    if (r.isState) {
        checkRoom(t.stateBegin.size(), trace_.source);
        t.stateBegin.push_back(r.time);
        t.stateEnd.push_back(r.state.end);
        t.stateValue.push_back(r.state.value);
        t.stateCpu.push_back(recordCpu);
        seen(r.state.end);
        return;
    }
    for (std::uint8_t i = 0; i < r.pairCount; ++i) {
        if (!options_.keeps(r.pairs[i].type)) continue;
        checkRoom(t.eventTime.size(), trace_.source);
        t.eventTime.push_back(r.time);
        t.eventType.push_back(r.pairs[i].type);
        t.eventValue.push_back(r.pairs[i].value);
        t.eventCpu.push_back(recordCpu);
    }
    if (r.pairCount > 0) seen(r.time);
}

void TraceBuilder::end(const StreamLabels& labels) {
    if (!skipLabels_) {
        pcf_ = labelText(labels.fullNamesPcf());
        row_ = labelText(labels.writeRow);
    }
    for (auto& t : trace_.threads) sortByTime(t);
    std::optional<std::vector<bool>> threads;
    if (walkedRows_) {
        threads.emplace(trace_.threads.size(), false);
        for (std::size_t row = 0; row < threadOfRow_.size(); ++row)
            if (walkedRows_->at(row)) threads->at(threadOfRow_[row]) = true;
    }
    paraver::EventTypeTest types;
    if (walked_) types = [this](std::uint32_t type) { return paraver::inTypeRanges(*walked_, type); };
    paraver::buildRecordStreams(trace_, types, threads ? &*threads : nullptr);
}

} // namespace gpueff::pipeline
