#include "engine/nsys/ReportStreams.h"

#include "engine/common/Error.h"
#include "engine/nsys/RecordBlocks.h"

#include <algorithm>
#include <atomic>

namespace gpueff::nsys {

// The merging thread's view of one report: records decoded from the blocks its worker produced.
class ReportStreams::Stream : public RecordSource {
public:
    Stream(ReportStreams& owner, std::size_t report)
        : RecordSource(Relay{}), owner_(owner), report_(report) {}
    std::string name() const override { return "report " + std::to_string(report_ + 1); }
    void count(std::uint64_t, std::map<std::string, std::uint64_t>& byKind) const override {
        // Read once the stream is exhausted: its worker has finished (seen under the lock in next()).
        const Report& r = owner_.reports_[report_];
        for (const auto& [kind, n] : r.byKind) byKind[kind] += n;
    }

protected:
    bool fill(TraceRecord& out) override {
        if (!block_ || offset_ == block_->used) {
            block_ = owner_.next(report_, std::move(block_));
            offset_ = 0;
            if (!block_) return false;
        }
        std::uint64_t sequence = 0, origin = 0;
        offset_ += decodeRecord(block_->bytes.get() + offset_, out, sequence, origin);
        relayKey(sequence, origin);
        return true;
    }

private:
    ReportStreams& owner_;
    std::size_t report_;
    std::unique_ptr<Block> block_;
    std::size_t offset_ = 0;
};

ReportStreams::ReportStreams(std::vector<std::vector<std::unique_ptr<RecordSource>>> sources,
                             unsigned workers, bool inTurn, pipeline::RecordSink* lanes, SpillStore* spill)
    : reports_(sources.size()), lanes_(lanes), spill_(spill), inTurn_(inTurn) {
    for (std::size_t r = 0; r < sources.size(); ++r) {
        reports_[r].sources = std::move(sources[r]);
        reports_[r].written.assign(reports_[r].sources.size(), 0);
        if (lanes) reports_[r].lane = lanes->openLane(r);
    }
    std::size_t threads = std::min<std::size_t>(std::max(workers, 1u), reports_.size());
    window_ = std::max<std::size_t>(threads, 1); // before any worker looks at it
    try {
        for (std::size_t t = 0; t < threads; ++t)
            workers_.emplace_back([this] { spill_ ? spillWork() : work(); });
    } catch (...) {
        stopWorkers();
        throw;
    }
}

ReportStreams::~ReportStreams() {
    stopWorkers();
}

void ReportStreams::stopWorkers() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    work_.notify_all();
    for (auto& t : workers_)
        if (t.joinable()) t.join();
}

std::vector<std::unique_ptr<RecordSource>> ReportStreams::streams() {
    std::vector<std::unique_ptr<RecordSource>> out;
    for (std::size_t r = 0; r < reports_.size(); ++r) out.push_back(std::make_unique<Stream>(*this, r));
    return out;
}

ReportStreams::Report* ReportStreams::pick() {
    auto eligible = [this](const Report& r) {
        if (inTurn_ && static_cast<std::size_t>(&r - reports_.data()) >= frontier_ + window_) return false;
        return !r.busy && !r.finished && r.ready.size() < kBlocksPerReport;
    };
    if (waitingFor_ != SIZE_MAX && eligible(reports_[waitingFor_])) return &reports_[waitingFor_];
    Report* best = nullptr;
    for (auto& r : reports_)
        if (eligible(r) && (!best || r.ready.size() < best->ready.size())) best = &r;
    return best;
}

void ReportStreams::work() {
    std::unique_lock lock(mutex_);
    for (;;) {
        if (stop_) return;
        Report* r = pick();
        if (!r) {
            work_.wait(lock);
            continue;
        }
        r->busy = true;
        std::unique_ptr<Block> block;
        if (!r->spare.empty()) {
            block = std::move(r->spare.back());
            r->spare.pop_back();
        }
        lock.unlock();
        bool more = false;
        std::exception_ptr error;
        try {
            if (!block) block = std::make_unique<Block>();
            block->used = 0;
            more = produce(*r, *block);
            if (!more) finish(*r);
        } catch (...) {
            error = std::current_exception();
        }
        lock.lock();
        r->busy = false;
        if (block && block->used > 0)
            r->ready.push_back(std::move(block));
        else if (block)
            r->spare.push_back(std::move(block));
        if (!more) {
            r->finished = true;
            r->error = error;
        }
        if (waitingFor_ == static_cast<std::size_t>(r - reports_.data())) ready_.notify_one();
    }
}

// Its end: what it counted is kept, its sources (and their SQLite statements) closed.
void ReportStreams::finish(Report& report) {
    for (std::size_t i = 0; i < report.sources.size(); ++i)
        report.sources[i]->count(report.written[i], report.byKind);
    report.sources.clear();
    if (lanes_) lanes_->closeLane(static_cast<std::size_t>(&report - reports_.data()));
}

// With `spill`: a report at a time, from its first record to its end, each block to the store. The merge
// waits for no worker's room, so no report waits for another.
void ReportStreams::spillWork() {
    Block block;
    // The block's records go to the store, and to the stream once it is in.
    auto keep = [&](Report& r) {
        if (block.used == 0) return true;
        auto ref = spill_->append({reinterpret_cast<const char*>(block.bytes.get()), block.used});
        block.used = 0;
        std::lock_guard lock(mutex_);
        r.spilled.push_back(ref);
        ready_.notify_all();
        return !stop_;
    };
    for (;;) {
        Report* r = nullptr;
        {
            std::lock_guard lock(mutex_);
            if (stop_ || nextReport_ == reports_.size()) return;
            r = &reports_[nextReport_++];
        }
        std::exception_ptr error;
        try {
            for (bool more = true; more;) {
                more = produce(*r, block);
                if (!keep(*r)) return;
            }
            finish(*r);
        } catch (...) {
            // The records read before the error come first, as without the store.
            error = std::current_exception();
            try {
                keep(*r);
            } catch (...) {
            }
        }
        std::lock_guard lock(mutex_);
        r->finished = true;
        r->error = error;
        ready_.notify_all();
    }
}

// The report's own k-way merge, as mergeSources does over all sources, until the block is full.
bool ReportStreams::produce(Report& report, Block& block) {
    auto& sources = report.sources;
    auto later = [&](std::size_t a, std::size_t b) { return headBefore(*sources[b], *sources[a]); };
    if (!report.started) {
        report.started = true;
        for (std::size_t i = 0; i < sources.size(); ++i) {
            sources[i]->advance();
            if (sources[i]->peek()) report.heap.push_back(i);
        }
        std::make_heap(report.heap.begin(), report.heap.end(), later);
    }
    auto& heap = report.heap;
    while (!heap.empty()) {
        if (block.used + kMaxEncodedRecordBytes > kBlockBytes) return true;
        std::pop_heap(heap.begin(), heap.end(), later);
        RecordSource* s = sources[heap.back()].get();
        const TraceRecord& r = *s->peek();
        if (r.time < report.lastTime)
            throw Error("internal error: source '" + s->name() + "' is not time-ordered");
        report.lastTime = r.time;
        block.used += encodeRecord(r, s->sequence(), s->origin(), block.bytes.get() + block.used);
        if (report.lane) report.lane->consume(r);
        ++report.written[heap.back()];
        s->advance();
        if (s->peek()) {
            std::push_heap(heap.begin(), heap.end(), later);
        } else {
            heap.pop_back();
        }
    }
    return false;
}

std::unique_ptr<ReportStreams::Block> ReportStreams::next(std::size_t r, std::unique_ptr<Block> done) {
    Report& report = reports_[r];
    std::unique_lock lock(mutex_);
    if (spill_) {
        ready_.wait(lock, [&] { return report.taken < report.spilled.size() || report.finished; });
        if (report.taken < report.spilled.size()) {
            auto ref = report.spilled[report.taken++];
            lock.unlock();
            auto block = done ? std::move(done) : std::make_unique<Block>();
            spill_->read(ref, 0, ref.bytes, reinterpret_cast<char*>(block->bytes.get()));
            block->used = ref.bytes;
            return block;
        }
        if (report.error) std::rethrow_exception(report.error);
        return nullptr;
    }
    if (done) {
        report.spare.push_back(std::move(done));
        work_.notify_one(); // room for one more block of this report
    }
    waitingFor_ = r;
    if (report.ready.empty() && !report.finished) work_.notify_one();
    ready_.wait(lock, [&] { return !report.ready.empty() || report.finished; });
    waitingFor_ = SIZE_MAX;
    if (!report.ready.empty()) {
        auto block = std::move(report.ready.front());
        report.ready.pop_front();
        return block;
    }
    if (report.error) {
        auto error = report.error;
        lock.unlock();
        std::rethrow_exception(error);
    }
    if (inTurn_ && frontier_ <= r) {
        frontier_ = r + 1; // the next report may start
        work_.notify_all();
    }
    return nullptr;
}

} // namespace gpueff::nsys
