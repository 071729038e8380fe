#include "engine/paraver/PrvReader.h"

#include "engine/common/Error.h"
#include "engine/common/Utf8.h"
#include "engine/paraver/PrvParser.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <numeric>
#include <string_view>

namespace gpueff::paraver {

namespace {

template <typename T>
void reorder(std::vector<T>& v, const std::vector<std::uint32_t>& order) {
    std::vector<T> out(v.size());
    for (std::size_t i = 0; i < order.size(); ++i) out[i] = v[order[i]];
    v.swap(out);
}

// Stable-sorts parallel columns by `key` when it is out of order (pairs of one event record and
// equal-time records keep their file order).
template <typename... Columns>
void sortColumnsBy(std::vector<std::int64_t>& key, Columns&... columns) {
    if (std::is_sorted(key.begin(), key.end())) return;
    std::vector<std::uint32_t> order(key.size());
    std::iota(order.begin(), order.end(), 0U);
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return key[a] < key[b]; });
    reorder(key, order);
    (reorder(columns, order), ...);
}

// Records of a thread are usually written in time order; not always.
void sortThread(ThreadRecords& t) {
    sortColumnsBy(t.eventTime, t.eventType, t.eventValue, t.eventCpu);
    sortColumnsBy(t.stateBegin, t.stateEnd, t.stateValue, t.stateCpu);
}

// The parser's records as columns (the in-memory trace): event pairs of the kept types, states and
// communications, per thread.
class ColumnBuilder : public PrvBodyParser::Output {
public:
    ColumnBuilder(Trace& trace, const LineReader& in, const ReadOptions& options)
        : t_(trace), in_(in), options_(options) {}

    void record(const TraceRecord& r) override {
        if (r.isCommunication) {
            const auto& c = r.comm;
            checkRoom(t_.communications.size());
            auto index = static_cast<std::uint32_t>(t_.communications.size());
            t_.communications.push_back({c.sendRow, c.recvRow, c.sendCpu, c.recvCpu, c.logicalSend,
                                         c.physicalSend, c.logicalRecv, c.physicalRecv, c.size, c.tag});
            t_.threads[c.sendRow].sends.push_back(index);
            t_.threads[c.recvRow].receives.push_back(index);
            return;
        }
        auto& th = t_.threads[r.row];
        if (r.isState) {
            checkRoom(th.stateBegin.size());
            th.stateBegin.push_back(r.time);
            th.stateEnd.push_back(r.state.end);
            th.stateValue.push_back(r.state.value);
            th.stateCpu.push_back(r.cpu);
            return;
        }
        for (std::uint8_t i = 0; i < r.pairCount; ++i) {
            if (!options_.keeps(r.pairs[i].type)) continue;
            checkRoom(th.eventTime.size());
            th.eventTime.push_back(r.time);
            th.eventType.push_back(r.pairs[i].type);
            th.eventValue.push_back(r.pairs[i].value);
            th.eventCpu.push_back(r.cpu);
        }
    }
    void communicator(std::string_view line) override { t_.communicatorLines.emplace_back(line); }
    // Comment lines say who wrote the trace (gpueff translate's "# gpueff ... translate: time 0 = ..."): the
    // first few are kept, bounded, for readers of the trace's provenance.
    void comment(std::string_view line) override {
        if (t_.comments.size() < kMaxComments) t_.comments.push_back(repairUtf8(line.substr(0, 1024)));
    }

private:
    // Record indices are 32-bit (RecordStream::index); four billion records of one thread would need far
    // more memory than any machine has, but the limit is checked rather than wrapped.
    void checkRoom(std::size_t records) const {
        if (records >= std::numeric_limits<std::uint32_t>::max())
            throw Error(in_.where() + ": more than 2^32 - 1 records of one kind in one thread");
    }

    Trace& t_;
    const LineReader& in_;
    const ReadOptions& options_;
};

Trace read(ByteSource& source, const std::string& name, const ReadOptions& options) {
    LineReader in(source, name);
    Trace trace;
    trace.source = name;
    trace.header = readHeaderLine(in, options.maxObjects);
    trace.indexThreads();
    PrvBodyParser parser(trace.header, in, options.lenient);
    ColumnBuilder columns(trace, in, options);
    std::string_view line;
    while (in.next(line)) parser.parse(line, columns);
    trace.skippedLines = parser.skippedLines;
    trace.firstSkipped = parser.firstSkipped;
    trace.recordsAfterEnd = parser.recordsAfterEnd;
    trace.lastRecordTime = parser.lastRecordTime;
    for (auto& t : trace.threads) sortThread(t);
    buildRecordStreams(trace);
    return trace;
}

} // namespace

Trace readPrv(const std::filesystem::path& path, const ReadOptions& options) {
    GzipFile file(path.string());
    return read(file, path.string(), options);
}

Trace readPrvText(std::string_view text, const std::string& name, const ReadOptions& options) {
    MemoryBytes memory(text);
    return read(memory, name, options);
}

} // namespace gpueff::paraver
