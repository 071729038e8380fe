#pragma once
// The analysis of a record stream in bounded memory: the records of the types the analysis reads go, per
// analysis unit (metrics/DeviceActivity.h: a task's host rows, a device with its GPU-metrics row), to a
// temporary file as they pass (pipeline::ShardSpill); then the units are packed into shards of at most a
// memory limit's worth of records and the analysis reads one shard at a time (metrics::ShardedTrace).
#include "engine/pipeline/ShardSpill.h"
#include "metrics/Analysis.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>

namespace gpueff::jobs {

// Memory the analysis holds per record it keeps while a shard is read (the records' columns, the intervals
// of the cfgs, the sweeps): the slope of peak RSS against --memory-limit on bench/'s 1 M-kernel rank exports,
// about 1.57 x the 96 bytes first measured on one device's records (bench/README.md).
inline constexpr std::uint64_t kAnalysisBytesPerRecord = 150;

// The shards of an analysis, and whether they stay loaded between its looks.
struct ShardPlan {
    std::vector<std::vector<std::uint32_t>> shards; // units
    bool kept = false;
    std::uint64_t memoryLimit = 0; // what the shards a look holds at once may take together
    // The tasks' host events (metrics/HostEvents.h) are left out of the shards loaded and streamed from the
    // temporary file to the families that read them: when the records do not fit the limit together.
    bool hostEventsApart = false;
    std::vector<bool> hostRows; // by stream row: the tasks' host rows, when their events are apart
};

class ShardedAnalysis {
public:
    // The temporary file goes in tempDir.
    explicit ShardedAnalysis(const std::filesystem::path& tempDir);
    ~ShardedAnalysis();
    pipeline::RecordSink& sink();

    // After the stream ended: the analysis, shard by shard, options.jobs shards at a time, those in memory
    // together holding about `memoryLimit` bytes at most (a unit larger than its share is a shard of its
    // own). `shown` names the trace in messages.
    metrics::Analysis analyze(const metrics::AnalysisOptions& options, std::uint64_t memoryLimit,
                              const std::filesystem::path& shown,
                              const std::function<void(const std::string&)>& log);
    // This process's part of a distributed analysis (jobs/Distributed.h): the units of the tasks read from
    // `inputs` (the process's own reports), with the stream totals of the whole run; the analysis on rank 0,
    // nothing elsewhere.
    std::optional<metrics::Analysis>
    analyzePart(const metrics::AnalysisOptions& options, std::uint64_t memoryLimit,
                const std::filesystem::path& shown, const std::vector<std::size_t>& inputs,
                const pipeline::StreamTotals& whole, metrics::AnalysisPeers& peers);

    std::vector<std::string> warnings() const; // of the whole stream (records after its end)
    const paraver::TraceHeader& header() const;
    const pipeline::StreamTotals& totals() const { return spill_->totals(); }
    std::size_t shards() const { return shards_; }

private:
    ShardPlan shardsOf(std::uint64_t memoryLimit, unsigned jobs, const std::vector<bool>* wanted,
                       const std::function<void(const std::string&)>& log);
    // The stream's labels, read once from the spill's text (taken then), shared by every shard.
    std::shared_ptr<const paraver::TraceLabels> labels(const std::filesystem::path& shown);
    std::unique_ptr<pipeline::ShardSpill> spill_;
    std::shared_ptr<const paraver::TraceLabels> labels_;
    std::size_t shards_ = 0;
};

} // namespace gpueff::jobs
