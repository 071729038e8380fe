#include "engine/pipeline/ShardSpill.h"

#include "engine/common/Error.h"
#include "engine/common/SpillStore.h"
#include "engine/paraver/Trace.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <iterator>
#include <queue>
#include <stdexcept>
#include <unistd.h>

namespace gpueff::pipeline {

namespace {

// A record on the file: this head, then its pairs (type, value), its communication or its state. Packed by
// memcpy: the file lives only as long as the process that wrote it.
enum class Kind : std::uint8_t { Event, Communication, MirroredCommunication, State };
struct Head {
    std::int64_t time;
    std::uint64_t seq; // place in the stream: the replay of several units merges on it
    std::uint32_t row, cpu;
    Kind kind;
    paraver::RecordOrder order;
    std::uint8_t pairs;
};
constexpr std::size_t kPair = sizeof(std::uint32_t) + sizeof(std::int64_t);
constexpr std::size_t kState = sizeof(std::int64_t) + sizeof(std::uint32_t); // end, value
constexpr std::size_t kMaxRecord = sizeof(Head) + std::max({paraver::TraceRecord::kMaxPairs * kPair,
                                                            sizeof(paraver::Communication), kState});
constexpr std::size_t kBlock = 32 * 1024; // per unit, in memory until written

std::string systemError(const std::filesystem::path& dir, const char* what) {
    return temporaryFileError(dir, what);
}

// Reads one unit's runs back, a record at a time.
class RunReader {
public:
    RunReader(int fd, const std::vector<std::pair<std::uint64_t, std::uint32_t>>& runs,
              const std::filesystem::path& dir)
        : fd_(fd), runs_(runs), dir_(dir) {
        load();
    }
    bool done() const { return at_ >= buffer_.size(); }
    const Head& head() const { return head_; }
    const char* payload() const { return buffer_.data() + at_ + sizeof(Head); }
    std::size_t payloadSize() const {
        switch (head_.kind) {
        case Kind::Event:
            return head_.pairs * kPair;
        case Kind::Communication:
        case Kind::MirroredCommunication:
            return sizeof(paraver::Communication);
        case Kind::State:
            return kState;
        }
        return 0;
    }
    void next() {
        at_ += sizeof(Head) + payloadSize();
        if (at_ >= buffer_.size())
            load();
        else
            readHead();
    }

private:
    void load() {
        buffer_.clear();
        at_ = 0;
        while (buffer_.empty() && run_ < runs_.size()) {
            auto [offset, size] = runs_[run_++];
            buffer_.resize(size);
            std::size_t got = 0;
            while (got < size) {
                auto n = ::pread(fd_, buffer_.data() + got, size - got, static_cast<off_t>(offset + got));
                if (n < 0 && errno == EINTR) continue;
                if (n <= 0) throw Error(systemError(dir_, "read"));
                got += static_cast<std::size_t>(n);
            }
        }
        if (!buffer_.empty()) readHead();
    }
    void readHead() { std::memcpy(&head_, buffer_.data() + at_, sizeof(Head)); }

    int fd_;
    const std::vector<std::pair<std::uint64_t, std::uint32_t>>& runs_;
    const std::filesystem::path& dir_;
    std::size_t run_ = 0, at_ = 0;
    std::vector<char> buffer_;
    Head head_{};
};

} // namespace

// One writer of the spill: the stream's own consume(), or a lane. Its records carry sequence numbers above
// every earlier part's, and its blocks go to the file at offsets reserved at once, so writers run in
// parallel.
class ShardSpill::Writer : public RecordSink {
public:
    Writer(ShardSpill& spill, std::uint64_t firstSeq)
        : spill_(spill), units_(spill.units_.size()), rows_(spill.unitOfRow_.size()),
          apart_(spill.unitOfRow_.size()), seq_(firstSeq) {}
    void begin(const StreamInfo&) override {}
    void consume(const TraceRecord& record) override;
    void end(const StreamLabels&) override {}
    // Writes every block and frees them.
    void flushAll() {
        for (auto& u : units_) {
            flush(u);
            std::vector<char>().swap(u.block);
        }
    }
    // Moves this writer's runs and counts behind those of earlier parts.
    void appendTo(std::vector<Unit>& units, std::vector<ExpectedRecords::Row>& rows,
                  std::vector<RowApart>& apart, StreamTotals& totals) {
        for (std::size_t u = 0; u < units_.size(); ++u) {
            auto& runs = units[u].runs;
            runs.insert(runs.end(), units_[u].runs.begin(), units_[u].runs.end());
            units[u].records += units_[u].records;
            units[u].sent += units_[u].sent;
            for (auto [from, n] : units_[u].mirrored) units[u].mirrored[from] += n;
        }
        for (std::size_t r = 0; r < rows_.size(); ++r) {
            rows[r].states += rows_[r].states;
            rows[r].events += rows_[r].events;
            rows[r].sends += rows_[r].sends;
            rows[r].receives += rows_[r].receives;
            apart[r].events += apart_[r].events;
            apart[r].records += apart_[r].records;
        }
        totals_.eventTypes = typesSeen_;
        std::sort(totals_.eventTypes.begin(), totals_.eventTypes.end());
        totals.add(totals_);
    }

private:
    void noteType(std::uint32_t type) {
        if (type == lastType_) return;
        lastType_ = type;
        if (std::find(typesSeen_.begin(), typesSeen_.end(), type) == typesSeen_.end())
            typesSeen_.push_back(type);
    }
    void flush(Unit& unit) {
        if (unit.block.empty()) return;
        const std::uint64_t at = spill_.fileSize_.fetch_add(unit.block.size());
        std::size_t put = 0;
        while (put < unit.block.size()) {
            auto n = ::pwrite(spill_.fd_, unit.block.data() + put, unit.block.size() - put,
                              static_cast<off_t>(at + put));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) throw Error(systemError(spill_.tempDir_, "write"));
            put += static_cast<std::size_t>(n);
        }
        unit.runs.push_back({at, static_cast<std::uint32_t>(unit.block.size())});
        unit.block.clear();
    }
    void append(std::uint32_t unit, const char* data, std::size_t size) {
        auto& u = units_[unit];
        if (u.block.capacity() < kBlock) u.block.reserve(kBlock);
        if (u.block.size() + size > kBlock) flush(u);
        u.block.insert(u.block.end(), data, data + size);
    }

    ShardSpill& spill_;
    std::vector<Unit> units_;
    std::vector<ExpectedRecords::Row> rows_;
    std::vector<RowApart> apart_;
    std::uint64_t seq_;
    StreamTotals totals_;
    std::vector<std::uint32_t> typesSeen_; // unsorted, distinct
    std::uint32_t lastType_ = UINT32_MAX;
};

// A lane's first sequence number: parts of up to 2^40 records each, after the stream's own.
constexpr std::uint64_t laneSeq(std::size_t part) {
    return (static_cast<std::uint64_t>(part) + 1) << 40;
}

ShardSpill::ShardSpill(paraver::ReadOptions options, Partition partition,
                       const std::filesystem::path& tempDir, TypeRanges apartTypes)
    : options_(std::move(options)), partition_(std::move(partition)), tempDir_(tempDir),
      fd_(unlinkedTemporaryFile(tempDir, ".gpueff-shards")), apartTypes_(std::move(apartTypes)) {}

ShardSpill::~ShardSpill() {
    if (fd_ >= 0) ::close(fd_);
}

void ShardSpill::begin(const StreamInfo& info) {
    info_ = info;
    auto threadOfRow = threadOfRows(info);
    auto unitOfThread = partition_(layoutInThreadOrder(info, threadOfRow));
    unitOfRow_.clear();
    std::uint32_t count = 0;
    for (auto thread : threadOfRow) {
        auto unit = unitOfThread.at(thread);
        unitOfRow_.push_back(unit);
        count = std::max(count, unit + 1);
    }
    units_.assign(count, Unit{});
    main_ = std::make_unique<Writer>(*this, 0);
}

RecordSink* ShardSpill::openLane(std::size_t part) {
    std::lock_guard lock(lanesMutex_);
    auto& lane = lanes_[part];
    if (!lane) lane = std::make_unique<Writer>(*this, laneSeq(part));
    return lane.get();
}

void ShardSpill::closeLane(std::size_t part) {
    Writer* lane;
    {
        std::lock_guard lock(lanesMutex_);
        lane = lanes_.at(part).get();
    }
    lane->flushAll();
}

void ShardSpill::consume(const TraceRecord& r) {
    main_->consume(r);
}

void ShardSpill::Writer::consume(const TraceRecord& r) {
    char record[kMaxRecord];
    Head head;
    std::memset(&head, 0, sizeof head); // padding too: the bytes go to a file
    head.time = r.time;
    head.seq = seq_++;
    head.row = r.row;
    head.cpu = r.cpu;
    head.kind = Kind::Event;
    head.order = r.order;
    std::size_t size = sizeof(Head); // the head goes first, once its fields are known
    auto put = [&](const void* data, std::size_t n) {
        std::memcpy(record + size, data, n);
        size += n;
    };
    if (r.isCommunication) {
        const auto& c = r.comm;
        auto& tag = totals_.communications[c.tag];
        ++tag.lines;
        tag.physicalSendDiffers |= c.physicalSend != c.logicalSend;
        auto seen = std::max({c.logicalSend, c.physicalSend, c.logicalRecv, c.physicalRecv});
        if (seen > spill_.info_.header.endTime) ++totals_.recordsAfterEnd;
        totals_.lastRecordTime = std::max(totals_.lastRecordTime, seen);
        head.kind = Kind::Communication;
        auto sender = spill_.unitOfRow_.at(c.sendRow), receiver = spill_.unitOfRow_.at(c.recvRow);
        put(&c, sizeof(c));
        std::memcpy(record, &head, sizeof(Head));
        append(sender, record, size);
        ++units_[sender].records;
        ++units_[sender].sent;
        ++rows_.at(c.sendRow).sends;
        ++rows_.at(c.recvRow).receives;
        if (receiver != sender) {
            head.kind = Kind::MirroredCommunication;
            std::memcpy(record, &head, sizeof(Head));
            append(receiver, record, size);
            ++units_[receiver].mirrored[sender];
        }
        return;
    }
    if (r.isState) {
        if (r.state.end > spill_.info_.header.endTime) ++totals_.recordsAfterEnd;
        totals_.lastRecordTime = std::max(totals_.lastRecordTime, r.state.end);
        head.kind = Kind::State;
        put(&r.state.end, sizeof(r.state.end));
        put(&r.state.value, sizeof(r.state.value));
        std::memcpy(record, &head, sizeof(Head));
        ++rows_.at(r.row).states;
    } else {
        if (r.pairCount == 0) return;
        if (r.time > spill_.info_.header.endTime) ++totals_.recordsAfterEnd;
        totals_.lastRecordTime = std::max(totals_.lastRecordTime, r.time);
        std::uint8_t apart = 0;
        for (std::uint8_t i = 0; i < r.pairCount; ++i) {
            if (!spill_.options_.keeps(r.pairs[i].type)) continue;
            noteType(r.pairs[i].type);
            put(&r.pairs[i].type, sizeof(std::uint32_t));
            put(&r.pairs[i].value, sizeof(std::int64_t));
            ++head.pairs;
            if (spill_.isApart(r.pairs[i].type)) ++apart;
        }
        if (head.pairs == 0) return;
        std::memcpy(record, &head, sizeof(Head));
        rows_.at(r.row).events += head.pairs;
        apart_[r.row].events += apart;
        if (apart == head.pairs) ++apart_[r.row].records;
    }
    auto unit = spill_.unitOfRow_.at(r.row);
    append(unit, record, size);
    ++units_[unit].records;
}

void ShardSpill::end(const StreamLabels& labels) {
    // The stream's own records first, then the lanes' in part order: every unit's runs in sequence order.
    main_->flushAll();
    rowRecords_.assign(unitOfRow_.size(), {});
    rowApart_.assign(unitOfRow_.size(), {});
    main_->appendTo(units_, rowRecords_, rowApart_, totals_);
    main_.reset();
    for (auto& [part, lane] : lanes_) {
        lane->flushAll();
        lane->appendTo(units_, rowRecords_, rowApart_, totals_);
    }
    lanes_.clear();
    pcf_ = SpilledText(tempDir_, ".gpueff-labels", labels.fullNamesPcf()); // the analysis reads full names
    row_ = labelText(labels.writeRow);
}

void StreamTotals::add(const StreamTotals& part) {
    lastRecordTime = std::max(lastRecordTime, part.lastRecordTime);
    recordsAfterEnd += part.recordsAfterEnd;
    for (const auto& [tag, t] : part.communications) {
        auto& w = communications[tag];
        w.lines += t.lines;
        w.physicalSendDiffers = w.physicalSendDiffers || t.physicalSendDiffers;
    }
    std::vector<std::uint32_t> types;
    std::set_union(eventTypes.begin(), eventTypes.end(), part.eventTypes.begin(), part.eventTypes.end(),
                   std::back_inserter(types));
    eventTypes = std::move(types);
}

std::vector<std::string> ShardSpill::warnings() const {
    paraver::Trace whole;
    whole.source = info_.source;
    whole.header = info_.header;
    whole.recordsAfterEnd = totals_.recordsAfterEnd;
    whole.lastRecordTime = totals_.lastRecordTime;
    return whole.warnings();
}

ExpectedRecords ShardSpill::expected(const std::vector<std::uint32_t>& units,
                                     const std::vector<bool>* apartRows) const {
    std::vector<bool> chosen(units_.size(), false);
    for (auto u : units) chosen.at(u) = true;
    ExpectedRecords out;
    out.rows.resize(rowRecords_.size());
    for (std::size_t r = 0; r < rowRecords_.size(); ++r)
        if (chosen[unitOfRow_[r]]) {
            out.rows[r] = rowRecords_[r];
            if (apartRows && apartRows->at(r)) out.rows[r].events -= rowApart_[r].events;
        }
    for (auto u : units) {
        out.communications += units_[u].sent;
        // A line between two chosen units is replayed once, from its sender's.
        for (auto [from, n] : units_[u].mirrored)
            if (!chosen[from]) out.communications += n;
    }
    return out;
}

std::uint64_t ShardSpill::recordsLeft(std::uint32_t unit, const std::vector<bool>& apartRows) const {
    auto n = units_.at(unit).records;
    for (std::size_t r = 0; r < rowApart_.size(); ++r)
        if (unitOfRow_[r] == unit && apartRows.at(r)) n -= rowApart_[r].records;
    return n;
}

void ShardSpill::replay(const std::vector<std::uint32_t>& units, RecordSink& sink, ReplayPart part,
                        const std::vector<bool>* apartRows) const {
    if (part != ReplayPart::All && (!apartRows || apartRows->size() != unitOfRow_.size()))
        throw std::logic_error("ShardSpill::replay: a part needs the rows its events are set apart on");
    std::vector<bool> chosen(units_.size(), false);
    for (auto u : units) chosen.at(u) = true;
    std::vector<std::unique_ptr<RunReader>> readers;
    for (auto u : units)
        if (!units_[u].runs.empty())
            readers.push_back(std::make_unique<RunReader>(fd_, units_[u].runs, tempDir_));
    // (sequence number of its next record, reader): the heap compares without reaching into the readers.
    using Next = std::pair<std::uint64_t, std::size_t>;
    std::priority_queue<Next, std::vector<Next>, std::greater<>> next;
    sink.begin(info_);
    TraceRecord r;
    auto deliver = [&](const RunReader& reader) {
        const auto& h = reader.head();
        r.time = h.time;
        r.order = h.order;
        r.row = h.row;
        r.cpu = h.cpu;
        r.isCommunication = h.kind == Kind::Communication || h.kind == Kind::MirroredCommunication;
        r.isState = h.kind == Kind::State;
        r.pairCount = 0;
        const char* p = reader.payload();
        // The events set apart on this row: kept alone (Apart) or left out (Rest).
        const bool splits = part != ReplayPart::All && (*apartRows)[h.row];
        if (part == ReplayPart::Apart && (h.kind != Kind::Event || !splits)) return;
        switch (h.kind) {
        case Kind::Event:
            for (std::uint8_t k = 0; k < h.pairs; ++k, p += kPair) {
                std::uint32_t type;
                std::int64_t value;
                std::memcpy(&type, p, sizeof(type));
                std::memcpy(&value, p + sizeof(type), sizeof(value));
                if (splits && isApart(type) != (part == ReplayPart::Apart)) continue;
                r.add(type, value);
            }
            if (r.pairCount == 0) return;
            break;
        case Kind::MirroredCommunication:
        case Kind::Communication:
            std::memcpy(&r.comm, p, sizeof(r.comm));
            // The sender's unit holds the line too: replayed once, from there.
            if (h.kind == Kind::MirroredCommunication && chosen[unitOfRow_.at(r.comm.sendRow)]) return;
            break;
        case Kind::State:
            std::memcpy(&r.state.end, p, sizeof(r.state.end));
            std::memcpy(&r.state.value, p + sizeof(r.state.end), sizeof(r.state.value));
            break;
        }
        sink.consume(r);
    };
    if (readers.size() == 1) // one unit (a host's, a device's): its runs are in stream order already
        for (auto& reader = *readers.front(); !reader.done(); reader.next()) deliver(reader);
    else
        for (std::size_t i = 0; i < readers.size(); ++i)
            if (!readers[i]->done()) next.push({readers[i]->head().seq, i});
    while (!next.empty()) {
        auto i = next.top().second;
        next.pop();
        auto& reader = *readers[i];
        deliver(reader);
        reader.next();
        if (!reader.done()) next.push({reader.head().seq, i});
    }
    StreamLabels labels;
    labels.writePcf = [this](std::FILE* f) { pcf_.copyTo(f); };
    labels.writeRow = [this](std::FILE* f) { std::fwrite(row_.data(), 1, row_.size(), f); };
    sink.end(labels);
}

} // namespace gpueff::pipeline
