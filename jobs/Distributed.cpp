#include "jobs/Distributed.h"

#include "engine/common/Error.h"
#include "engine/nsys/RecordBlocks.h"
#include "jobs/PartCodec.h"
#include "metrics/DeviceActivity.h"

#include <algorithm>
#include <numeric>

namespace gpueff::jobs {

namespace {

// Records travel to rank 0 in blocks of this size: few messages, and a bounded amount in flight.
constexpr std::size_t kRelayBlockBytes = 256 * 1024;

// Rank 0's view of one other process's records, formatted there: decoded from its blocks as the merge asks
// for them.
class RemoteStream : public nsys::RecordSource {
public:
    RemoteStream(Peers& peers, int from) : RecordSource(Relay{}), peers_(peers), from_(from) {}
    std::string name() const override { return "process " + std::to_string(from_); }
    // What it relayed is counted by its own process (PartFacts), not here.
    void count(std::uint64_t, std::map<std::string, std::uint64_t>&) const override {}

protected:
    bool fill(nsys::TraceRecord& out) override {
        while (offset_ == block_.size()) {
            if (ended_) return false;
            block_ = peers_.receiveBlock(from_);
            offset_ = 0;
            ended_ = block_.empty();
        }
        std::uint64_t sequence = 0, origin = 0;
        // The record's line views the block, which stays until the merge has written it (it asks for the
        // next record after).
        offset_ += nsys::decodeFormatted(reinterpret_cast<const unsigned char*>(block_.data()) + offset_, out,
                                         sequence, origin);
        relayKey(sequence, origin);
        return true;
    }

private:
    Peers& peers_;
    int from_;
    std::string block_;
    std::size_t offset_ = 0;
    bool ended_ = false;
};

// Groups of reports dealt largest first (export size; ties: the group of the earliest report) to the
// process with the least so far, rank 0 first. Each group is its reports, in order.
std::vector<int> dealGroups(std::vector<std::vector<std::size_t>> groups,
                            const std::vector<std::uint64_t>& sizes, int processes) {
    auto size = [&sizes](const std::vector<std::size_t>& g) {
        std::uint64_t total = 0;
        for (auto i : g) total += sizes[i];
        return total;
    };
    std::stable_sort(groups.begin(), groups.end(), [&](const auto& a, const auto& b) {
        auto sa = size(a), sb = size(b);
        return sa != sb ? sa > sb : a.front() < b.front();
    });
    std::vector<std::uint64_t> load(static_cast<std::size_t>(processes), 0);
    std::vector<int> rankOf(sizes.size(), 0);
    for (const auto& g : groups) {
        auto least = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
        load[static_cast<std::size_t>(least)] += size(g);
        for (auto i : g) rankOf[i] = least;
    }
    return rankOf;
}

std::vector<std::uint64_t> fileSizes(const std::vector<std::filesystem::path>& inputs) {
    std::vector<std::uint64_t> sizes;
    for (const auto& in : inputs) {
        std::error_code ec;
        auto size = std::filesystem::file_size(in, ec);
        sizes.push_back(ec ? 0 : size);
    }
    return sizes;
}

} // namespace

std::vector<int> assignReports(const paraver::TraceLayout& layout, const std::vector<std::uint64_t>& sizes,
                               int processes) {
    const std::size_t n = sizes.size();
    std::vector<std::size_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&parent](std::size_t i) {
        while (parent[i] != i) i = parent[i] = parent[parent[i]];
        return i;
    };
    auto units = metrics::analysisUnits(metrics::deviceLayout(layout), layout.rows.size());
    std::vector<std::size_t> inputOfUnit(units.size(), SIZE_MAX);
    for (std::size_t r = 0; r < layout.rows.size(); ++r) {
        std::size_t input = layout.tasks.at(layout.rows[r].task).input,
                    &seen = inputOfUnit.at(units.ofRow[r]);
        if (seen == SIZE_MAX)
            seen = input;
        else
            parent[find(input)] = find(seen);
    }
    std::map<std::size_t, std::vector<std::size_t>> byRoot;
    for (std::size_t i = 0; i < n; ++i) byRoot[find(i)].push_back(i);
    std::vector<std::vector<std::size_t>> groups;
    for (auto& [root, g] : byRoot) groups.push_back(std::move(g));
    return dealGroups(std::move(groups), sizes, processes);
}

std::vector<int> assignScans(const std::vector<std::uint64_t>& sizes, int processes) {
    std::vector<std::vector<std::size_t>> alone;
    for (std::size_t i = 0; i < sizes.size(); ++i) alone.push_back({i});
    return dealGroups(std::move(alone), sizes, processes);
}

PeerDistribution::PeerDistribution(Peers& peers, std::vector<std::filesystem::path> inputs, bool traceWritten,
                                   std::function<void(const std::string&)> log)
    : peers_(peers), inputs_(std::move(inputs)), traceWritten_(traceWritten), log_(std::move(log)) {}

std::vector<std::size_t> PeerDistribution::scanShare() {
    auto rankOf = assignScans(fileSizes(inputs_), peers_.size());
    std::vector<std::size_t> mine;
    for (std::size_t i = 0; i < rankOf.size(); ++i)
        if (rankOf[i] == peers_.rank()) mine.push_back(i);
    return mine;
}

std::vector<std::size_t> PeerDistribution::ownReports(const paraver::TraceLayout& layout) {
    auto rankOf = assignReports(layout, fileSizes(inputs_), peers_.size());
    std::vector<std::size_t> perRank(static_cast<std::size_t>(peers_.size()), 0);
    own_.clear();
    for (std::size_t i = 0; i < rankOf.size(); ++i) {
        ++perRank[static_cast<std::size_t>(rankOf[i])];
        if (rankOf[i] == peers_.rank()) own_.push_back(i);
    }
    if (log_ && root()) {
        std::string counts;
        for (auto c : perRank) counts += (counts.empty() ? "" : ", ") + std::to_string(c);
        log_("distributed over " + std::to_string(peers_.size()) +
             " processes (reports per process: " + counts + ")");
    }
    return own_;
}

std::vector<std::unique_ptr<nsys::RecordSource>> PeerDistribution::remoteStreams() {
    std::vector<std::unique_ptr<nsys::RecordSource>> out;
    for (int r = 1; r < peers_.size(); ++r) out.push_back(std::make_unique<RemoteStream>(peers_, r));
    return out;
}

void PeerDistribution::relay(const nsys::TraceRecord& record, std::uint64_t sequence, std::uint64_t origin) {
    if (block_.empty()) block_.resize(kRelayBlockBytes);
    if (used_ + nsys::kMaxFormattedRecordBytes > block_.size()) {
        peers_.sendBlock(std::string_view(block_.data(), used_));
        used_ = 0;
    }
    used_ += nsys::encodeFormatted(record, sequence, origin, rows_,
                                   reinterpret_cast<unsigned char*>(block_.data()) + used_);
}

void PeerDistribution::endRelay() {
    if (used_ > 0) peers_.sendBlock(std::string_view(block_.data(), used_));
    used_ = 0;
    peers_.sendBlock({});
}

namespace {

// Every other process's part of an all-gather, decoded.
template <typename T>
std::vector<T> others(Peers& peers, const std::string& mine, T (*decode)(const std::string&)) {
    auto all = peers.allGather(mine);
    std::vector<T> out;
    for (std::size_t r = 0; r < all.size(); ++r)
        if (static_cast<int>(r) != peers.rank()) out.push_back(decode(all[r]));
    return out;
}

} // namespace

std::vector<nsys::ScanFacts> PeerDistribution::exchangeScans(const nsys::ScanFacts& mine) {
    return others(peers_, encodeScanFacts(mine), decodeScanFacts);
}

std::vector<nsys::NameFacts> PeerDistribution::exchangeNames(const nsys::NameFacts& mine) {
    return others(peers_, encodeNameFacts(mine), decodeNameFacts);
}

std::vector<nsys::PartFacts> PeerDistribution::exchange(const nsys::PartFacts& mine) {
    return others(peers_, encodePartFacts(mine), decodePartFacts);
}

metrics::WindowEvidence PeerAnalysis::combineWindow(const metrics::WindowEvidence& mine) {
    metrics::WindowEvidence whole;
    for (const auto& bytes : peers_.allGather(encodeWindowEvidence(mine)))
        whole.combine(decodeWindowEvidence(bytes));
    return whole;
}

bool PeerAnalysis::gatherPartials(const std::vector<std::size_t>& devices,
                                  const std::vector<std::size_t>& tasks,
                                  std::vector<metrics::DevicePartial>& devicePartials,
                                  std::vector<metrics::TaskPartial>& taskPartials, SpillStore& store) {
    Partials mine;
    if (peers_.rank() != 0) {
        for (auto d : devices) mine.devices.emplace_back(d, devicePartials.at(d));
        for (auto t : tasks) mine.tasks.emplace_back(t, taskPartials.at(t));
        mine.store = store.loadValues({0, store.size()});
    }
    auto all = peers_.gather(encodePartials(mine));
    if (peers_.rank() != 0) return false;
    for (std::size_t r = 1; r < all.size(); ++r) {
        auto theirs = decodePartials(all[r]);
        // Their references were into their store: it joins the root's at `base`.
        const auto base = store.appendValues(theirs.store).offset;
        for (auto& [d, p] : theirs.devices) {
            metrics::relocate(p, base);
            devicePartials.at(d) = std::move(p);
        }
        for (auto& [t, p] : theirs.tasks) {
            metrics::relocate(p, base);
            taskPartials.at(t) = std::move(p);
        }
    }
    return true;
}

pipeline::StreamTotals wholeTotals(Peers& peers, const pipeline::StreamTotals& mine) {
    pipeline::StreamTotals whole;
    for (const auto& bytes : peers.allGather(encodeTotals(mine))) whole.add(decodeTotals(bytes));
    return whole;
}

} // namespace gpueff::jobs
