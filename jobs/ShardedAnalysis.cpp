#include "jobs/ShardedAnalysis.h"

#include "engine/common/MemorySize.h"
#include "engine/paraver/EventTypes.h"
#include "engine/pipeline/TraceBuilder.h"
#include "engine/semantic/LoadedTrace.h"
#include "metrics/DeviceActivity.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace gpueff::jobs {

namespace {

// The rows of the stream whose host events a replay sets apart (every task's host rows), by stream row.
std::vector<bool> hostRowsOf(const pipeline::ShardSpill& spill) {
    const auto& info = spill.info();
    auto threadOfRow = pipeline::threadOfRows(info);
    auto activity = metrics::deviceLayout(pipeline::layoutInThreadOrder(info, threadOfRow));
    std::vector<bool> hostThread(threadOfRow.size(), false);
    for (const auto& task : activity.tasks)
        for (auto thread : task.cpuRows) hostThread.at(thread) = true;
    std::vector<bool> rows(threadOfRow.size(), false);
    for (std::size_t r = 0; r < rows.size(); ++r) rows[r] = hostThread.at(threadOfRow[r]);
    return rows;
}

// A replay of a task's host events into a walker: rows as the trace's threads, grouped by time
// (metrics::HostEventGroups), the task's rows alone.
class HostEventFeed : public pipeline::RecordSink {
public:
    HostEventFeed(const metrics::TaskInfo& task, metrics::HostEventWalker& walker,
                  const std::vector<std::uint32_t>& threadOfRow)
        : task_(task), groups_(walker), threadOfRow_(threadOfRow) {
        for (auto thread : task.cpuRows) rows_.insert(static_cast<std::uint32_t>(thread));
    }
    void begin(const pipeline::StreamInfo&) override {}
    void consume(const paraver::TraceRecord& r) override {
        const auto thread = threadOfRow_.at(r.row);
        if (!rows_.contains(thread)) return;
        for (std::uint8_t i = 0; i < r.pairCount; ++i)
            groups_.add(thread, {r.time, r.pairs[i].type, r.pairs[i].value});
    }
    void end(const pipeline::StreamLabels&) override { groups_.end(task_.cpuRows); }

private:
    const metrics::TaskInfo& task_;
    metrics::HostEventGroups groups_;
    const std::vector<std::uint32_t>& threadOfRow_;
    std::set<std::uint32_t> rows_;
};

// The spilled stream seen as a sharded trace: a shard is replayed into a TraceBuilder when visited, by
// whichever worker visits it. Kept shards stay loaded from their first visit to their release (all of them
// fit the memory limit together), so the analysis' three looks replay each one once.
// Under a limit the records do not fit together, the tasks' host events are left out of the shards and
// streamed from the file to the families that walk them (ShardPlan::hostEventsApart).
class SpilledTrace : public metrics::ShardedTrace {
public:
    // `labels`: the stream's, shared by every shard.
    SpilledTrace(const pipeline::ShardSpill& spill, ShardPlan plan, std::filesystem::path shown,
                 std::shared_ptr<const paraver::TraceLabels> labels)
        : spill_(spill), plan_(std::move(plan)), shown_(std::move(shown)), kept_(plan_.shards.size()),
          labels_(std::move(labels)) {
        // The cfgs name some types by label: the whole stream's labels say which types they walk.
        walked_ = metrics::eventTypesWalked(*labels_);
        if (plan_.hostEventsApart) {
            threadOfRow_ = pipeline::threadOfRows(spill_.info());
            for (std::uint32_t r = 0; r < threadOfRow_.size(); ++r)
                unitsOfThread_[threadOfRow_[r]].insert(spill_.unitOfRow(r));
        }
    }
    void walkHostEvents(const semantic::LoadedTrace& trace, const metrics::TaskInfo& task,
                        metrics::HostEventWalker& walker) const override {
        if (!plan_.hostEventsApart) return ShardedTrace::walkHostEvents(trace, task, walker);
        std::set<std::uint32_t> units;
        for (auto thread : task.cpuRows)
            if (auto it = unitsOfThread_.find(static_cast<std::uint32_t>(thread)); it != unitsOfThread_.end())
                units.insert(it->second.begin(), it->second.end());
        HostEventFeed feed(task, walker, threadOfRow_);
        spill_.replay({units.begin(), units.end()}, feed, pipeline::ReplayPart::Apart, &plan_.hostRows);
    }
    std::size_t shards() const override { return plan_.shards.size(); }
    std::vector<std::uint32_t> unitsOf(std::size_t shard) const override { return plan_.shards.at(shard); }
    metrics::TraceFacts facts() const override {
        const auto& tags = spill_.totals().communications;
        metrics::TraceFacts f;
        f.communications = !tags.empty();
        auto launch = tags.find(paraver::types::kTagKernelLaunch);
        f.launchLinesCarryCallEnds = launch == tags.end() || launch->second.physicalSendDiffers;
        return f;
    }
    void visit(std::size_t shard,
               const std::function<void(const semantic::LoadedTrace&)>& use) const override {
        if (!plan_.kept) {
            use(*load(plan_.shards.at(shard)));
            // glibc keeps what a worker frees in that worker's arena, where another worker's next part
            // cannot reuse it: the peak would be the sum of every worker's largest part.
            returnFreedMemory();
            return;
        }
        // Each shard is visited by one worker at a time: its slot needs no lock.
        auto& kept = kept_.at(shard);
        if (!kept) kept = load(plan_.shards[shard]);
        use(*kept);
    }
    void release(std::size_t shard) const override { kept_.at(shard).reset(); }
    // Not kept: the labels of a trace with a name per NVTX range weigh as much as a shard's records.
    void visitLabels(const std::function<void(const semantic::LoadedTrace&)>& use) const override {
        use(*load({})); // no unit: the labels and layout alone
    }
    // The partials' store beside the shards' file.
    std::optional<std::filesystem::path> spillDirectory() const override { return spill_.directory(); }
    std::uint64_t bytes(std::size_t shard) const override {
        std::uint64_t records = 0;
        for (auto u : plan_.shards.at(shard))
            records += plan_.hostEventsApart ? spill_.recordsLeft(u, plan_.hostRows) : spill_.records(u);
        return records * kAnalysisBytesPerRecord;
    }
    // Kept shards fit the limit together by construction.
    std::uint64_t memoryBudget() const override { return plan_.kept ? 0 : plan_.memoryLimit; }

private:
    std::unique_ptr<semantic::LoadedTrace> load(const std::vector<std::uint32_t>& units) const {
        pipeline::TraceBuilder builder;
        const auto* apart = plan_.hostEventsApart ? &plan_.hostRows : nullptr;
        builder.expect(spill_.expected(units, apart));
        if (walked_) builder.walkOnly(*walked_);
        // The rows outside the units hold only the lines mirrored from them, which no cfg walks there.
        std::vector<bool> rows(spill_.info().rows.size(), false);
        const std::set<std::uint32_t> wanted(units.begin(), units.end());
        for (std::uint32_t r = 0; r < rows.size(); ++r) rows[r] = wanted.contains(spill_.unitOfRow(r));
        builder.walkRows(std::move(rows));
        builder.skipLabels();
        spill_.replay(units, builder, apart ? pipeline::ReplayPart::Rest : pipeline::ReplayPart::All, apart);
        return semantic::LoadedTrace::fromStream(builder, shown_, &spill_.totals(), labels_);
    }

    const pipeline::ShardSpill& spill_;
    ShardPlan plan_;
    std::filesystem::path shown_;
    mutable std::vector<std::unique_ptr<semantic::LoadedTrace>> kept_;
    std::shared_ptr<const paraver::TraceLabels> labels_; // the stream's, shared by its shards
    std::optional<std::vector<std::pair<std::uint32_t, std::uint32_t>>> walked_; // event types the cfgs walk
    std::vector<std::uint32_t> threadOfRow_;                                     // stream row -> thread
    std::map<std::uint32_t, std::set<std::uint32_t>> unitsOfThread_; // thread -> the units of its rows
};

// Units in order (those of `wanted`, when given), a shard closed when the next unit would pass `limit`
// records. No unit at all is one empty shard: the layout and labels of the whole trace.
// `hostRows`: the rows whose host events are left out of the shards (ShardPlan::hostEventsApart).
std::vector<std::vector<std::uint32_t>> pack(const pipeline::ShardSpill& spill, std::uint64_t limit,
                                             const std::vector<bool>* wanted,
                                             const std::vector<bool>* hostRows = nullptr) {
    std::vector<std::vector<std::uint32_t>> shards(1);
    std::uint64_t held = 0;
    for (std::uint32_t u = 0; u < spill.units(); ++u) {
        if (wanted && !(*wanted)[u]) continue;
        auto n = hostRows ? spill.recordsLeft(u, *hostRows) : spill.records(u);
        if (!shards.back().empty() && held + n > limit) {
            shards.emplace_back();
            held = 0;
        }
        shards.back().push_back(u);
        held += n;
    }
    return shards;
}

// The units (those of `wanted`, when given) dealt into `parts` shards of about equal work: a task's host
// rows and a device's rows cost differently per record, so each kind is dealt apart, largest unit first to
// the shard holding the fewest records of that kind. Units stay in order within a shard.
std::vector<std::vector<std::uint32_t>> deal(const pipeline::ShardSpill& spill, std::size_t parts,
                                             const std::vector<bool>* wanted) {
    const auto& layout = spill.info().layout;
    auto units = metrics::analysisUnits(metrics::deviceLayout(layout), layout.rows.size());
    std::vector<std::vector<std::uint32_t>> byKind(2); // host rows (with or without devices), devices alone
    for (std::uint32_t u = 0; u < spill.units(); ++u)
        if (!wanted || (*wanted)[u]) byKind[units.tasks.at(u).empty() ? 1 : 0].push_back(u);
    std::vector<std::vector<std::uint32_t>> shards(parts);
    std::vector<std::uint64_t> total(parts, 0); // records of every kind: ties go to the lightest shard
    for (auto& kind : byKind) {
        std::stable_sort(kind.begin(), kind.end(),
                         [&](auto a, auto b) { return spill.records(a) > spill.records(b); });
        std::vector<std::uint64_t> held(parts, 0);
        for (auto u : kind) {
            std::size_t least = 0;
            for (std::size_t p = 1; p < parts; ++p)
                if (std::pair{held[p], total[p]} < std::pair{held[least], total[least]}) least = p;
            shards[least].push_back(u);
            held[least] += spill.records(u);
            total[least] += spill.records(u);
        }
    }
    std::erase_if(shards, [](const auto& s) { return s.empty(); });
    for (auto& s : shards) std::sort(s.begin(), s.end());
    if (shards.empty()) shards.emplace_back();
    return shards;
}

} // namespace

ShardedAnalysis::ShardedAnalysis(const std::filesystem::path& tempDir) {
    paraver::ReadOptions read;
    read.eventTypes = metrics::eventTypesRead();
    spill_ = std::make_unique<pipeline::ShardSpill>(
        read,
        [](const paraver::TraceLayout& layout) {
            return metrics::analysisUnits(metrics::deviceLayout(layout), layout.rows.size()).ofRow;
        },
        tempDir, metrics::hostEventTypes());
}

ShardedAnalysis::~ShardedAnalysis() = default;

pipeline::RecordSink& ShardedAnalysis::sink() {
    return *spill_;
}

const paraver::TraceHeader& ShardedAnalysis::header() const {
    return spill_->info().header;
}

std::vector<std::string> ShardedAnalysis::warnings() const {
    return spill_->warnings();
}

std::shared_ptr<const paraver::TraceLabels> ShardedAnalysis::labels(const std::filesystem::path& shown) {
    if (!labels_) {
        auto pcf = spill_->pcf().open();
        std::istringstream row(spill_->rowText());
        labels_ = semantic::streamLabels(*pcf, row, spill_->info().header, shown);
    }
    return labels_;
}

ShardPlan ShardedAnalysis::shardsOf(std::uint64_t memoryLimit, unsigned jobs, const std::vector<bool>* wanted,
                                    const std::function<void(const std::string&)>& log) {
    const std::uint64_t limit = std::max<std::uint64_t>(1, memoryLimit / kAnalysisBytesPerRecord);
    std::uint64_t total = 0;
    for (std::uint32_t u = 0; u < spill_->units(); ++u)
        if (!wanted || (*wanted)[u]) total += spill_->records(u);
    ShardPlan plan;
    plan.memoryLimit = memoryLimit;
    jobs = std::max(jobs, 1u);
    if (total <= limit) {
        // Everything fits: one shard per worker, of about equal work, kept between the looks (one shard is
        // read in a single look).
        plan.shards = jobs > 1 ? deal(*spill_, jobs, wanted) : pack(*spill_, limit, wanted);
        plan.kept = plan.shards.size() > 1;
    } else {
        // A shard per worker in memory at once, each within its share of the limit; the host events
        // streamed rather than held.
        plan.hostEventsApart = true;
        plan.hostRows = hostRowsOf(*spill_);
        plan.shards = pack(*spill_, std::max<std::uint64_t>(1, limit / jobs), wanted, &plan.hostRows);
    }
    shards_ = plan.shards.size();
    if (!plan.kept && shards_ > 1 && log)
        log("analysis in " + std::to_string(shards_) + " parts of at most " +
            std::to_string((memoryLimit / jobs) >> 20) + " MiB of records (" +
            std::to_string(spill_->bytes() >> 20) + " MiB kept on disk meanwhile)");
    return plan;
}

metrics::Analysis ShardedAnalysis::analyze(const metrics::AnalysisOptions& options, std::uint64_t memoryLimit,
                                           const std::filesystem::path& shown,
                                           const std::function<void(const std::string&)>& log) {
    auto plan = shardsOf(memoryLimit, options.jobs, nullptr, log); // its log line before any label error
    return metrics::analyze(SpilledTrace(*spill_, std::move(plan), shown, labels(shown)), options);
}

std::optional<metrics::Analysis>
ShardedAnalysis::analyzePart(const metrics::AnalysisOptions& options, std::uint64_t memoryLimit,
                             const std::filesystem::path& shown, const std::vector<std::size_t>& inputs,
                             const pipeline::StreamTotals& whole, metrics::AnalysisPeers& peers) {
    spill_->setWholeTotals(whole);
    const auto& layout = spill_->info().layout;
    std::vector<bool> wanted(spill_->units(), false);
    for (std::uint32_t r = 0; r < layout.rows.size(); ++r) {
        auto input = layout.tasks.at(layout.rows[r].task).input;
        if (std::find(inputs.begin(), inputs.end(), input) != inputs.end())
            wanted.at(spill_->unitOfRow(r)) = true;
    }
    auto plan = shardsOf(memoryLimit, options.jobs, &wanted, {});
    return metrics::analyze(SpilledTrace(*spill_, std::move(plan), shown, labels(shown)), options, peers);
}

} // namespace gpueff::jobs
