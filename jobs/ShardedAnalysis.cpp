#include "jobs/ShardedAnalysis.h"

#include "engine/paraver/EventTypes.h"
#include "engine/pipeline/TraceBuilder.h"
#include "engine/semantic/LoadedTrace.h"

#include <algorithm>

namespace gpueff::jobs {

namespace {

// The spilled stream seen as a sharded trace: a shard is replayed into a TraceBuilder when visited.
class SpilledTrace : public metrics::ShardedTrace {
public:
    SpilledTrace(const pipeline::ShardSpill& spill, std::vector<std::vector<std::uint32_t>> shards,
                 std::filesystem::path shown)
        : spill_(spill), shards_(std::move(shards)), shown_(std::move(shown)) {}
    std::size_t shards() const override { return shards_.size(); }
    std::vector<std::uint32_t> unitsOf(std::size_t shard) const override { return shards_.at(shard); }
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
        pipeline::TraceBuilder builder;
        spill_.replay(shards_.at(shard), builder);
        auto trace = semantic::LoadedTrace::fromStream(builder, shown_, &spill_.totals());
        use(*trace);
    }
    void visitLabels(const std::function<void(const semantic::LoadedTrace&)>& use) const override {
        pipeline::TraceBuilder builder;
        spill_.replay({}, builder); // no unit: the labels and layout alone
        auto trace = semantic::LoadedTrace::fromStream(builder, shown_, &spill_.totals());
        use(*trace);
    }

private:
    const pipeline::ShardSpill& spill_;
    std::vector<std::vector<std::uint32_t>> shards_;
    std::filesystem::path shown_;
};

// Units in order (those of `wanted`, when given), a shard closed when the next unit would pass the limit.
// No unit at all is one empty shard: the layout and labels of the whole trace.
std::vector<std::vector<std::uint32_t>> pack(const pipeline::ShardSpill& spill, std::uint64_t limitRecords,
                                             const std::vector<bool>* wanted = nullptr) {
    std::vector<std::vector<std::uint32_t>> shards(1);
    std::uint64_t held = 0;
    for (std::uint32_t u = 0; u < spill.units(); ++u) {
        if (wanted && !(*wanted)[u]) continue;
        auto n = spill.records(u);
        if (!shards.back().empty() && held + n > limitRecords) {
            shards.emplace_back();
            held = 0;
        }
        shards.back().push_back(u);
        held += n;
    }
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
        tempDir);
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

std::vector<std::vector<std::uint32_t>>
ShardedAnalysis::shardsOf(std::uint64_t memoryLimit, const std::vector<bool>* wanted,
                          const std::function<void(const std::string&)>& log) {
    auto shards = pack(*spill_, std::max<std::uint64_t>(1, memoryLimit / kAnalysisBytesPerRecord), wanted);
    shards_ = shards.size();
    if (shards_ > 1 && log)
        log("analysis in " + std::to_string(shards_) + " parts of at most " +
            std::to_string(memoryLimit >> 20) + " MiB of records (" + std::to_string(spill_->bytes() >> 20) +
            " MiB kept on disk meanwhile)");
    return shards;
}

metrics::Analysis ShardedAnalysis::analyze(const metrics::AnalysisOptions& options, std::uint64_t memoryLimit,
                                           const std::filesystem::path& shown,
                                           const std::function<void(const std::string&)>& log) {
    return metrics::analyze(SpilledTrace(*spill_, shardsOf(memoryLimit, nullptr, log), shown), options);
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
    return metrics::analyze(SpilledTrace(*spill_, shardsOf(memoryLimit, &wanted, {}), shown), options, peers);
}

} // namespace gpueff::jobs
