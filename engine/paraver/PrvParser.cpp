#include "engine/paraver/PrvParser.h"

#include "engine/common/Error.h"
#include "engine/common/Utf8.h"
#include "engine/paraver/PrvReader.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <type_traits>

namespace gpueff::paraver {

std::size_t MemoryBytes::read(char* out, std::size_t size) {
    auto n = std::min(size, text_.size());
    std::copy_n(text_.data(), n, out);
    text_.remove_prefix(n);
    return n;
}

LineReader::LineReader(ByteSource& source, std::string path) : source_(source), path_(std::move(path)) {
    buffer_.resize(1 << 20);
}

bool LineReader::next(std::string_view& line) {
    while (true) {
        const char* base = buffer_.data();
        auto* nl = static_cast<const char*>(std::memchr(base + begin_, '\n', end_ - begin_));
        if (nl) {
            line = std::string_view(base + begin_, static_cast<std::size_t>(nl - base) - begin_);
            begin_ = static_cast<std::size_t>(nl - base) + 1;
            ++lineNumber_;
            return true;
        }
        if (eof_) {
            if (begin_ == end_) return false;
            line = std::string_view(base + begin_, end_ - begin_);
            begin_ = end_;
            ++lineNumber_;
            return true;
        }
        fill();
    }
}

void LineReader::fill() {
    std::copy(buffer_.begin() + static_cast<long>(begin_), buffer_.begin() + static_cast<long>(end_),
              buffer_.begin());
    end_ -= begin_;
    begin_ = 0;
    if (end_ == buffer_.size()) { // a line longer than the buffer
        if (buffer_.size() >= kMaxLineBytes)
            throw Error(path_ + ":" + std::to_string(lineNumber_ + 1) + ": a line longer than " +
                        std::to_string(kMaxLineBytes >> 20) + " MiB: not a Paraver trace");
        buffer_.resize(std::min(buffer_.size() * 2, kMaxLineBytes));
    }
    auto n = source_.read(buffer_.data() + end_, buffer_.size() - end_);
    if (n == 0) eof_ = true;
    end_ += n;
}

TraceHeader readHeaderLine(LineReader& in, std::uint64_t maxObjects) {
    std::string_view line;
    if (!in.next(line)) throw Error(in.path() + ": empty file, not a Paraver trace");
    // "new format" announces paraver-kernel's TraceBodyIO_v2, another record syntax (separate state begin
    // and end records, CPU:thread objects): refused rather than misread as the usual records.
    if (line == "new format" || line == "new format\r")
        throw Error(in.path() +
                    ":1: a \"new format\" trace (Paraver's internal TraceBodyIO_v2 records): gpueff reads "
                    "the usual .prv format only");
    return parseHeader(line, in.path(), maxObjects);
}

namespace {

// A decimal integer at `p` (a '-' first for signed types), as std::from_chars reads it in base 10 (no '+',
// no spaces; a value out of T's range is a failure), written out because the library's generic version is a
// quarter of the time of a cut or filter. On success `p` is after the last digit.
template <typename T>
bool parseDecimal(const char*& p, const char* end, T& out) {
    using U = std::make_unsigned_t<T>;
    bool negative = false;
    if constexpr (std::is_signed_v<T>) {
        if (p < end && *p == '-') {
            negative = true;
            ++p;
        }
    }
    const U limit = negative ? static_cast<U>(std::numeric_limits<T>::max()) + 1U
                             : static_cast<U>(std::numeric_limits<T>::max());
    const char* start = p;
    U v = 0;
    // Up to digits10 digits always fit: no overflow check (a division per digit) for them.
    const char* unchecked =
        end - p > std::numeric_limits<T>::digits10 ? p + std::numeric_limits<T>::digits10 : end;
    for (; p < unchecked; ++p) {
        auto digit = static_cast<unsigned char>(*p - '0');
        if (digit > 9) break;
        v = static_cast<U>(v * 10U + digit);
    }
    for (; p < end; ++p) {
        auto digit = static_cast<unsigned char>(*p - '0');
        if (digit > 9) break;
        if (v > (limit - digit) / 10U) return false;
        v = static_cast<U>(v * 10U + digit);
    }
    if (p == start) return false;
    out = negative ? static_cast<T>(static_cast<U>(U{0} - v)) : static_cast<T>(v);
    return true;
}

// Colon-separated integer fields of one record line.
class Fields {
public:
    explicit Fields(std::string_view line) : line_(line) {}
    template <typename T>
    bool next(T& out) {
        if (pos_ > line_.size()) return false;
        const char* p = line_.data() + pos_;
        if (!parseDecimal(p, line_.data() + line_.size(), out)) return false;
        pos_ = static_cast<std::size_t>(p - line_.data());
        if (pos_ < line_.size()) {
            if (line_[pos_] != ':') return false;
            ++pos_;
        } else {
            pos_ = line_.size() + 1;
        }
        return true;
    }
    bool done() const { return pos_ > line_.size(); }
    // Nothing left, or only a ':' after the last field (paramedir accepts one there).
    bool atEnd() const { return pos_ >= line_.size(); }
    std::size_t& pos() { return pos_; }

private:
    std::string_view line_;
    std::size_t pos_ = 2; // after "N:"
};

} // namespace

PrvBodyParser::PrvBodyParser(const TraceHeader& header, const LineReader& in, bool lenient)
    : header_(header), in_(in), lenient_(lenient) {
    firstThreadOfTask_ = firstThreadOfTasks(header_);
    // Node of each CPU and of each thread: a record's CPU must be on its thread's node (below). Both counts
    // are capped by the header parser (kMaxObjects).
    cpuNode_.push_back(0); // CPU 0, "unknown"
    for (std::size_t n = 0; n < header_.cpusPerNode.size(); ++n)
        cpuNode_.insert(cpuNode_.end(), header_.cpusPerNode[n], static_cast<std::uint32_t>(n + 1));
    for (const auto& appl : header_.applications)
        for (const auto& task : appl) threadNode_.insert(threadNode_.end(), task.threads, task.node);
}

std::int64_t PrvBodyParser::threadIndex(std::uint32_t appl, std::uint32_t task, std::uint32_t thread) const {
    if (appl == 0 || appl > header_.applications.size()) return -1;
    const auto& tasks = header_.applications[appl - 1];
    if (task == 0 || task > tasks.size() || thread == 0 || thread > tasks[task - 1].threads) return -1;
    return firstThreadOfTask_[appl - 1][task - 1] + thread - 1;
}

std::vector<RowAddress> PrvBodyParser::addresses() const {
    std::vector<RowAddress> out;
    for (std::size_t a = 0; a < header_.applications.size(); ++a)
        for (std::size_t t = 0; t < header_.applications[a].size(); ++t)
            for (std::uint32_t th = 0; th < header_.applications[a][t].threads; ++th)
                out.push_back(
                    {0, static_cast<std::uint32_t>(a + 1), static_cast<std::uint32_t>(t + 1), th + 1});
    return out;
}

void PrvBodyParser::parse(std::string_view line, Output& out) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) return;
    if (line[0] == '#') return out.comment(line);
    if (line.size() < 2 || line[1] != ':') return malformed(line, "not a record");
    // The record kinds of paraver-kernel's TraceBodyIO_v1 and the communicator lines of its header.
    switch (line[0]) {
    case '1':
        return state(line, out);
    case '2':
        return event(line, out);
    case '3':
        return communication(line, out);
    case 'c':
    case 'C':
        return out.communicator(line);
    case 'i':
    case 'I':
        return; // Paraver's internal lines, nothing we evaluate
    case '4':
        return; // a global communication: paramedir reads and ignores it
    default:
        return malformed(line, "unknown record type");
    }
}

void PrvBodyParser::malformed(std::string_view line, const std::string& why) {
    auto message = in_.where() + ": " + why + ": " + printableExcerpt(line);
    if (lenient_) {
        if (skippedLines++ == 0) firstSkipped = message;
        return;
    }
    throw Error(message);
}

bool PrvBodyParser::object(std::string_view line, std::size_t& pos, std::uint32_t& cpu,
                           std::uint32_t& thread) {
    Fields f(line);
    f.pos() = pos;
    std::uint32_t appl = 0, task = 0, th = 0;
    if (!f.next(cpu) || !f.next(appl) || !f.next(task) || !f.next(th)) {
        malformed(line, "bad object fields");
        return false;
    }
    pos = f.pos();
    auto index = threadIndex(appl, task, th);
    if (index < 0) {
        malformed(line, "thread " + std::to_string(appl) + "." + std::to_string(task) + "." +
                            std::to_string(th) + " is not declared in the header");
        return false;
    }
    // CPU 0 is "unknown" in Paraver and valid in every trace; without a resource section it is the only one
    // (paraver-kernel's isValidGlobalCPU: cpu <= number of CPUs), as nsys2prv writes every record.
    if (cpu >= cpuNode_.size()) {
        malformed(line, "cpu " + std::to_string(cpu) + " is not declared in the header");
        return false;
    }
    // A CPU of another node than the thread's: paramedir drops the record (validRecordLocation).
    auto node = threadNode_[static_cast<std::size_t>(index)];
    if (cpu != 0 && cpuNode_[cpu] != node) {
        malformed(line, "cpu " + std::to_string(cpu) + " is on node " + std::to_string(cpuNode_[cpu]) +
                            ", thread " + std::to_string(appl) + "." + std::to_string(task) + "." +
                            std::to_string(th) + " runs on node " + std::to_string(node));
        return false;
    }
    thread = static_cast<std::uint32_t>(index);
    return true;
}

// A record time must lie in [0, kMaxTime]; one after the header's end time is kept (Paraver moves the
// trace's end to the last record) and counted.
bool PrvBodyParser::validTime(std::int64_t time, const char* what, std::string_view line) {
    if (time < 0) {
        malformed(line, std::string("negative ") + what + " " + std::to_string(time));
        return false;
    }
    if (time > kMaxTime) {
        malformed(line, std::string(what) + " " + std::to_string(time) + " is beyond gpueff's limit of " +
                            std::to_string(kMaxTime));
        return false;
    }
    return true;
}

void PrvBodyParser::seen(std::int64_t time) {
    if (time > header_.endTime) ++recordsAfterEnd;
    lastRecordTime = std::max(lastRecordTime, time);
}

void PrvBodyParser::state(std::string_view line, Output& out) {
    std::size_t pos = 2;
    std::uint32_t cpu = 0, thread = 0, value = 0;
    std::int64_t begin = 0, end = 0;
    if (!object(line, pos, cpu, thread)) return;
    Fields f(line);
    f.pos() = pos;
    if (!f.next(begin) || !f.next(end) || !f.next(value) || !f.atEnd())
        return malformed(line, "bad state record");
    if (!validTime(begin, "state begin time", line) || !validTime(end, "state end time", line)) return;
    if (end < begin)
        return malformed(line, "state ends at " + std::to_string(end) + ", before it begins at " +
                                   std::to_string(begin));
    auto& r = record_;
    r.isState = true;
    r.isCommunication = false;
    r.order = RecordOrder::Begin;
    r.pairCount = 0;
    r.row = thread;
    r.cpu = cpu;
    r.time = begin;
    r.state = {end, value};
    seen(end);
    out.record(r);
}

void PrvBodyParser::event(std::string_view line, Output& out) {
    std::size_t pos = 2;
    std::uint32_t cpu = 0, thread = 0;
    std::int64_t time = 0;
    if (!object(line, pos, cpu, thread)) return;
    Fields f(line);
    f.pos() = pos;
    if (!f.next(time)) return malformed(line, "bad event time");
    if (!validTime(time, "event time", line)) return;
    // paramedir reads pairs up to the end of the line: none (a bare time) or a ':' after the last pair is
    // accepted and adds nothing. The whole line is read before anything is emitted: a bad pair refuses it
    // all.
    pairs_.clear();
    while (!f.done() && !f.atEnd()) {
        EventPair p{};
        if (!f.next(p.type) || !f.next(p.value)) return malformed(line, "bad type:value pair");
        pairs_.push_back(p);
    }
    if (pairs_.empty()) return;
    seen(time);
    auto& r = record_;
    r.isState = false;
    r.isCommunication = false;
    r.order = RecordOrder::Begin;
    r.row = thread;
    r.cpu = cpu;
    r.time = time;
    for (std::size_t i = 0; i < pairs_.size(); i += TraceRecord::kMaxPairs) {
        auto n = std::min<std::size_t>(TraceRecord::kMaxPairs, pairs_.size() - i);
        std::copy_n(pairs_.begin() + static_cast<long>(i), n, r.pairs.begin());
        r.pairCount = static_cast<std::uint8_t>(n);
        out.record(r);
    }
}

void PrvBodyParser::communication(std::string_view line, Output& out) {
    std::size_t pos = 2;
    Communication c{};
    if (!object(line, pos, c.sendCpu, c.sendRow)) return;
    Fields f(line);
    f.pos() = pos;
    if (!f.next(c.logicalSend) || !f.next(c.physicalSend)) return malformed(line, "bad send times");
    pos = f.pos();
    if (!object(line, pos, c.recvCpu, c.recvRow)) return;
    f.pos() = pos;
    if (!f.next(c.logicalRecv) || !f.next(c.physicalRecv) || !f.next(c.size) || !f.next(c.tag) || !f.atEnd())
        return malformed(line, "bad communication record");
    // A receive before its send is legal (Paraver's "negative messages"); only the times' range is checked.
    if (!validTime(c.logicalSend, "logical send time", line) ||
        !validTime(c.physicalSend, "physical send time", line) ||
        !validTime(c.logicalRecv, "logical receive time", line) ||
        !validTime(c.physicalRecv, "physical receive time", line))
        return;
    auto& r = record_;
    r.isState = false;
    r.isCommunication = true;
    r.order = RecordOrder::Communication;
    r.pairCount = 0;
    r.row = c.sendRow;
    r.cpu = c.sendCpu;
    r.time = c.logicalSend;
    r.comm = c;
    seen(std::max({c.logicalSend, c.physicalSend, c.logicalRecv, c.physicalRecv}));
    out.record(r);
}

} // namespace gpueff::paraver
