#pragma once
// Keeps a record stream on disk, sorted into runs per unit (a group of rows chosen by the caller), so that a
// consumer can take the stream back one group of units at a time: the analysis holds one shard of a trace in
// memory while the others wait in a temporary file. Only the event types `options` asks for are kept.
#include "engine/common/SpilledText.h"
#include "engine/paraver/PrvReader.h"
#include "engine/pipeline/RecordSink.h"
#include "engine/pipeline/TraceBuilder.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gpueff::pipeline {

// What the whole stream had, which a part of it cannot tell (the end time, the event types present, the
// communications by tag).
struct StreamTotals {
    std::int64_t lastRecordTime = 0;
    std::uint64_t recordsAfterEnd = 0;     // records after the header's end time
    std::vector<std::uint32_t> eventTypes; // sorted, distinct: the kept event types present
    struct Tag {
        std::uint64_t lines = 0;
        bool physicalSendDiffers = false; // some line leaves after its logical send
        static void fields(auto& s, auto&& f) {
            f("lines", s.lines);
            f("physicalSendDiffers", s.physicalSendDiffers);
        }
    };
    std::map<std::int64_t, Tag> communications; // tag -> its lines
    static void fields(auto& s, auto&& f) {
        f("lastRecordTime", s.lastRecordTime);
        f("recordsAfterEnd", s.recordsAfterEnd);
        f("eventTypes", s.eventTypes);
        f("communications", s.communications);
    }
    // Adds the totals of another part of the same stream (disjoint records).
    void add(const StreamTotals& part);
};

// What a replay gives of the events that may be set apart (ShardSpill's `apartTypes` on the rows a replay
// marks): all of the records, the records without those events (a shard to hold in memory), or those events
// alone, without states or communications (a stream its consumer reads once, so that they never stand in
// memory together).
enum class ReplayPart { All, Rest, Apart };

class ShardSpill : public RecordSink {
public:
    // The unit of each row, rows in the header's thread order (TraceBuilder's order).
    using Partition = std::function<std::vector<std::uint32_t>(const paraver::TraceLayout& threadOrder)>;
    using TypeRanges = std::vector<std::pair<std::uint32_t, std::uint32_t>>; // inclusive
    // The temporary file is made in `tempDir` and unlinked at once: nothing is left after a crash. Events of
    // `apartTypes` are counted per row, for a replay to set them apart (ReplayPart).
    ShardSpill(paraver::ReadOptions options, Partition partition, const std::filesystem::path& tempDir,
               TypeRanges apartTypes = {});
    ~ShardSpill() override;
    void begin(const StreamInfo& info) override;
    void consume(const TraceRecord& record) override;
    void end(const StreamLabels& labels) override;
    // Reports read in turn spill from their workers at once, each into lanes of its own (RecordSink):
    // a replay gives what consume() of part 0's records, then part 1's, ... would have given.
    RecordSink* openLane(std::size_t part) override;
    void closeLane(std::size_t part) override;

    const StreamInfo& info() const { return info_; }
    std::size_t units() const { return units_.size(); }
    std::uint64_t records(std::uint32_t unit) const { return units_.at(unit).records; }
    std::uint64_t bytes() const { return fileSize_; }
    const std::filesystem::path& directory() const { return tempDir_; } // of its temporary file
    std::uint32_t unitOfRow(std::uint32_t row) const { return unitOfRow_.at(row); }
    const StreamTotals& totals() const { return totals_; }
    // The stream's labels, once it has ended: the .pcf text on a temporary file beside the records (100s of
    // MB with a name per NVTX range, read a line at a time), the .row text.
    const SpilledText& pcf() const { return pcf_; }
    const std::string& rowText() const { return row_; }
    // This stream is a part of a larger one (a process's share of a distributed run): from now on its
    // totals are the whole stream's, for the parts it replays to evaluate as the whole would.
    void setWholeTotals(StreamTotals whole) { totals_ = std::move(whole); }
    // The stream's warnings a TraceBuilder of the whole of it would give (records after the end).
    std::vector<std::string> warnings() const;
    // Replays the records of `units` in stream order into `sink`, between the stream's begin and end
    // (a communication between two units goes to both, once): `part` of them, the events of the apart types
    // being set apart on the rows `apartRows` marks (by stream row; needed unless `part` is All).
    void replay(const std::vector<std::uint32_t>& units, RecordSink& sink, ReplayPart part = ReplayPart::All,
                const std::vector<bool>* apartRows = nullptr) const;
    // What a replay of `units` gives each row, for a TraceBuilder to size its columns once: of all records,
    // or of the Rest when `apartRows` is given.
    ExpectedRecords expected(const std::vector<std::uint32_t>& units,
                             const std::vector<bool>* apartRows = nullptr) const;
    // The records of `unit` a Rest replay gives (records() less the event records of apart types alone on
    // the rows `apartRows` marks).
    std::uint64_t recordsLeft(std::uint32_t unit, const std::vector<bool>& apartRows) const;

private:
    // Per row: its events of the apart types, and its event records holding nothing else.
    struct RowApart {
        std::uint64_t events = 0, records = 0;
    };
    bool isApart(std::uint32_t type) const {
        for (auto [first, last] : apartTypes_)
            if (first <= type && type <= last) return true;
        return false;
    }
    struct Unit {
        std::vector<char> block;                                   // records not yet written
        std::vector<std::pair<std::uint64_t, std::uint32_t>> runs; // (offset, bytes) on the file
        std::uint64_t records = 0;
        std::uint64_t sent = 0;                          // communications from its rows
        std::map<std::uint32_t, std::uint64_t> mirrored; // from another unit's rows, by that unit
    };
    class Writer;

    paraver::ReadOptions options_;
    Partition partition_;
    std::filesystem::path tempDir_;
    int fd_ = -1;
    std::atomic<std::uint64_t> fileSize_{0}; // reserved by the writers' blocks
    StreamInfo info_;
    SpilledText pcf_;
    std::string row_;
    std::vector<std::uint32_t> unitOfRow_; // stream row -> unit
    std::unique_ptr<Writer> main_;         // consume()
    std::mutex lanesMutex_;
    std::map<std::size_t, std::unique_ptr<Writer>> lanes_;
    std::vector<Unit> units_; // every writer's runs, in part order, once the stream has ended
    std::vector<ExpectedRecords::Row> rowRecords_; // by stream row, once the stream has ended
    TypeRanges apartTypes_;
    std::vector<RowApart> rowApart_; // by stream row, once the stream has ended
    StreamTotals totals_;
};

} // namespace gpueff::pipeline
