#pragma once
// `mpirun -n R gpueff analyze`: the translation and the analysis shared by R processes (jobs/Peers.h).
// Every process runs the pre-pass over its share of the reports (what each found is exchanged) and the names
// pass over the reports it reads (the names are exchanged, nsys/Distribution.h), then reads the records of
// those reports into its own analysis units;
// the window's evidence and the stream's totals are combined over the processes, each computes the partial
// results of its own devices and tasks, and rank 0 reduces them into the report, the same as one process
// would write. When the trace is written, rank 0 merges the records the others relay into the one .prv.
#include "engine/nsys/Distribution.h"
#include "engine/pipeline/ShardSpill.h"
#include "jobs/Peers.h"
#include "metrics/Analysis.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace gpueff::jobs {

// Which reports each process reads: reports whose records meet in one analysis unit (a device and the
// GPU-metrics row of another process on its host) go together, and the groups are dealt largest first
// (export size) to the process with the least so far, rank 0 first.
std::vector<int> assignReports(const paraver::TraceLayout& layout, const std::vector<std::uint64_t>& sizes,
                               int processes);
// Which process runs the pre-pass of each report, before any layout is known: each report dealt alone, as
// assignReports deals reports that share no unit (so a report is read where it was scanned, unless it
// meets another in a unit).
std::vector<int> assignScans(const std::vector<std::uint64_t>& sizes, int processes);

class PeerDistribution : public nsys::Distribution {
public:
    // `inputs`: the exports, in order; `traceWritten`: rank 0 writes the .prv from every process's records.
    PeerDistribution(Peers& peers, std::vector<std::filesystem::path> inputs, bool traceWritten,
                     std::function<void(const std::string&)> log);
    std::vector<std::size_t> scanShare() override;
    std::vector<nsys::ScanFacts> exchangeScans(const nsys::ScanFacts& mine) override;
    std::vector<std::size_t> ownReports(const paraver::TraceLayout& layout) override;
    bool root() const override { return peers_.rank() == 0; }
    bool traceWritten() const override { return traceWritten_; }
    std::vector<std::unique_ptr<nsys::RecordSource>> remoteStreams() override;
    void beginRelay(std::vector<paraver::RowAddress> rows) override { rows_ = std::move(rows); }
    void relay(const nsys::TraceRecord& record, std::uint64_t sequence, std::uint64_t origin) override;
    void endRelay() override;
    std::vector<nsys::NameFacts> exchangeNames(const nsys::NameFacts& mine) override;
    std::vector<nsys::PartFacts> exchange(const nsys::PartFacts& mine) override;

    const std::vector<std::size_t>& own() const { return own_; }

private:
    Peers& peers_;
    std::vector<std::filesystem::path> inputs_;
    bool traceWritten_;
    std::function<void(const std::string&)> log_;
    std::vector<std::size_t> own_;
    std::vector<paraver::RowAddress> rows_; // where each row's records go in a .prv line
    std::string block_;                     // records on their way to rank 0
    std::size_t used_ = 0;
};

// The analysis' exchanges (metrics::AnalysisPeers) over the peers.
class PeerAnalysis : public metrics::AnalysisPeers {
public:
    explicit PeerAnalysis(Peers& peers) : peers_(peers) {}
    metrics::WindowEvidence combineWindow(const metrics::WindowEvidence& mine) override;
    bool gatherPartials(const std::vector<std::size_t>& devices, const std::vector<std::size_t>& tasks,
                        std::vector<metrics::DevicePartial>& devicePartials,
                        std::vector<metrics::TaskPartial>& taskPartials, SpillStore& store) override;

private:
    Peers& peers_;
};

// Every process's stream totals combined, on every process.
pipeline::StreamTotals wholeTotals(Peers& peers, const pipeline::StreamTotals& mine);

} // namespace gpueff::jobs
