#include "engine/paraver/PrvReader.h"

#include "engine/common/Error.h"
#include "engine/common/Utf8.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <numeric>
#include <string_view>
#include <zlib.h>

namespace gpueff::paraver {

namespace {

// Where the bytes of a trace come from: a plain or gzip-compressed file (zlib reads both), or memory.
class ByteSource {
public:
    virtual ~ByteSource() = default;
    // Up to `size` bytes into `out`; 0 at the end. Throws gpueff::Error on a read error.
    virtual std::size_t read(char* out, std::size_t size, std::uint64_t lineNumber) = 0;
};

class GzipFile : public ByteSource {
public:
    explicit GzipFile(const std::string& path) : path_(path) {
        file_ = gzopen(path_.c_str(), "rb");
        if (!file_) throw Error(path_ + ": cannot open");
        gzbuffer(file_, 1 << 18);
    }
    ~GzipFile() override { gzclose(file_); }
    GzipFile(const GzipFile&) = delete;
    GzipFile& operator=(const GzipFile&) = delete;

    std::size_t read(char* out, std::size_t size, std::uint64_t lineNumber) override {
        if (eof_) return 0;
        auto want = static_cast<unsigned>(std::min<std::size_t>(size, 1U << 30));
        int n = gzread(file_, out, want);
        if (n < 0 || (n == 0 && !gzeof(file_))) {
            int code = 0;
            const char* msg = gzerror(file_, &code);
            throw Error(path_ + ":" + std::to_string(lineNumber + 1) + ": cannot read (" + (msg ? msg : "?") +
                        "): truncated or corrupt file");
        }
        if (n == 0) {
            eof_ = true;
            int code = 0;
            gzerror(file_, &code);
            if (code != Z_OK && code != Z_STREAM_END)
                throw Error(path_ + ": truncated or corrupt compressed file");
        }
        return static_cast<std::size_t>(n);
    }

private:
    std::string path_;
    gzFile file_ = nullptr;
    bool eof_ = false;
};

class Memory : public ByteSource {
public:
    explicit Memory(std::string_view text) : text_(text) {}
    std::size_t read(char* out, std::size_t size, std::uint64_t) override {
        auto n = std::min(size, text_.size());
        std::copy_n(text_.data(), n, out);
        text_.remove_prefix(n);
        return n;
    }

private:
    std::string_view text_;
};

// Lines of a trace, read in large blocks.
class LineReader {
public:
    LineReader(ByteSource& source, std::string path) : source_(source), path_(std::move(path)) {
        buffer_.resize(1 << 20);
    }

    bool next(std::string_view& line) {
        while (true) {
            auto nl = std::find(buffer_.data() + begin_, buffer_.data() + end_, '\n');
            if (nl != buffer_.data() + end_) {
                line = std::string_view(buffer_.data() + begin_,
                                        static_cast<std::size_t>(nl - buffer_.data()) - begin_);
                begin_ = static_cast<std::size_t>(nl - buffer_.data()) + 1;
                ++lineNumber_;
                return true;
            }
            if (eof_) {
                if (begin_ == end_) return false;
                line = std::string_view(buffer_.data() + begin_, end_ - begin_);
                begin_ = end_;
                ++lineNumber_;
                return true;
            }
            fill();
        }
    }
    std::uint64_t lineNumber() const { return lineNumber_; }
    const std::string& path() const { return path_; }

private:
    void fill() {
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
        auto n = source_.read(buffer_.data() + end_, buffer_.size() - end_, lineNumber_);
        if (n == 0) eof_ = true;
        end_ += n;
    }

    ByteSource& source_;
    std::string path_;
    std::vector<char> buffer_;
    std::size_t begin_ = 0, end_ = 0;
    bool eof_ = false;
    std::uint64_t lineNumber_ = 0;
};

// Colon-separated integer fields of one record line.
class Fields {
public:
    explicit Fields(std::string_view line) : line_(line) {}
    template <typename T>
    bool next(T& out) {
        if (pos_ > line_.size()) return false;
        auto res = std::from_chars(line_.data() + pos_, line_.data() + line_.size(), out);
        if (res.ec != std::errc()) return false;
        pos_ = static_cast<std::size_t>(res.ptr - line_.data());
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

private:
    std::string_view line_;
    std::size_t pos_ = 2; // after "N:"
};

class BodyParser {
public:
    BodyParser(Trace& trace, LineReader& in, const ReadOptions& options)
        : t_(trace), in_(in), options_(options) {
        // Node of each CPU and of each thread: a record's CPU must be on its thread's node (below). Both
        // counts are capped by the header parser (kMaxObjects).
        cpuNode_.push_back(0); // CPU 0, "unknown"
        for (std::size_t n = 0; n < t_.header.cpusPerNode.size(); ++n)
            cpuNode_.insert(cpuNode_.end(), t_.header.cpusPerNode[n], static_cast<std::uint32_t>(n + 1));
        for (const auto& appl : t_.header.applications)
            for (const auto& task : appl) threadNode_.insert(threadNode_.end(), task.threads, task.node);
    }

    void parse(std::string_view line) {
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty()) return;
        if (line[0] == '#') return comment(line);
        if (line.size() < 2 || line[1] != ':') return malformed(line, "not a record");
        // The record kinds of paraver-kernel's TraceBodyIO_v1 and the communicator lines of its header.
        switch (line[0]) {
        case '1':
            return state(line);
        case '2':
            return event(line);
        case '3':
            return communication(line);
        case 'c':
        case 'C':
            t_.communicatorLines.emplace_back(line);
            return;
        case 'i':
        case 'I':
            return; // Paraver's internal lines, nothing we evaluate
        case '4':
            return; // a global communication: paramedir reads and ignores it
        default:
            return malformed(line, "unknown record type");
        }
    }

private:
    // Comment lines say who wrote the trace (gpueff translate's "# gpueff ... translate: time 0 = ..."):
    // the first few are kept, bounded, for readers of the trace's provenance.
    void comment(std::string_view line) {
        if (t_.comments.size() < kMaxComments) t_.comments.push_back(repairUtf8(line.substr(0, 1024)));
    }

    void malformed(std::string_view line, const std::string& why) {
        auto message =
            in_.path() + ":" + std::to_string(in_.lineNumber()) + ": " + why + ": " + printableExcerpt(line);
        if (options_.lenient) {
            if (t_.skippedLines++ == 0) t_.firstSkipped = message;
            return;
        }
        throw Error(message);
    }

    bool object(Fields& f, std::uint32_t& cpu, std::uint32_t& thread, std::string_view line) {
        std::uint32_t appl = 0, task = 0, th = 0;
        if (!f.next(cpu) || !f.next(appl) || !f.next(task) || !f.next(th)) {
            malformed(line, "bad object fields");
            return false;
        }
        auto index = t_.threadIndex(appl, task, th);
        if (index < 0) {
            malformed(line, "thread " + std::to_string(appl) + "." + std::to_string(task) + "." +
                                std::to_string(th) + " is not declared in the header");
            return false;
        }
        // CPU 0 is "unknown" in Paraver and valid in every trace; without a resource section it is the only
        // one (paraver-kernel's isValidGlobalCPU: cpu <= number of CPUs), as nsys2prv writes every record.
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
    // trace's end to the last record) and counted for Trace::warnings().
    bool validTime(std::int64_t time, const char* what, std::string_view line) {
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

    void seen(std::int64_t time) {
        if (time > t_.header.endTime) ++t_.recordsAfterEnd;
        t_.lastRecordTime = std::max(t_.lastRecordTime, time);
    }

    // Record indices are 32-bit (RecordStream::index); four billion records of one thread would need far
    // more memory than any machine has, but the limit is checked rather than wrapped.
    void checkRoom(std::size_t records) const {
        if (records >= std::numeric_limits<std::uint32_t>::max())
            throw Error(in_.path() + ":" + std::to_string(in_.lineNumber()) +
                        ": more than 2^32 - 1 records of one kind in one thread");
    }

    void state(std::string_view line) {
        Fields f(line);
        std::uint32_t cpu = 0, thread = 0, value = 0;
        std::int64_t begin = 0, end = 0;
        if (!object(f, cpu, thread, line)) return;
        if (!f.next(begin) || !f.next(end) || !f.next(value) || !f.atEnd())
            return malformed(line, "bad state record");
        if (!validTime(begin, "state begin time", line) || !validTime(end, "state end time", line)) return;
        if (end < begin)
            return malformed(line, "state ends at " + std::to_string(end) + ", before it begins at " +
                                       std::to_string(begin));
        auto& r = t_.threads[thread];
        checkRoom(r.stateBegin.size());
        r.stateBegin.push_back(begin);
        r.stateEnd.push_back(end);
        r.stateValue.push_back(value);
        r.stateCpu.push_back(cpu);
        seen(end);
    }

    void event(std::string_view line) {
        Fields f(line);
        std::uint32_t cpu = 0, thread = 0;
        std::int64_t time = 0;
        if (!object(f, cpu, thread, line)) return;
        if (!f.next(time)) return malformed(line, "bad event time");
        if (!validTime(time, "event time", line)) return;
        auto& r = t_.threads[thread];
        std::size_t before = r.eventTime.size();
        std::uint32_t type = 0;
        std::int64_t value = 0;
        // paramedir reads pairs up to the end of the line: none (a bare time) or a ':' after the last pair
        // is accepted and adds nothing.
        bool any = false;
        while (!f.done() && !f.atEnd()) {
            if (!f.next(type) || !f.next(value)) {
                r.eventTime.resize(before);
                r.eventType.resize(before);
                r.eventValue.resize(before);
                r.eventCpu.resize(before);
                return malformed(line, "bad type:value pair");
            }
            any = true;
            if (!options_.keeps(type)) continue;
            checkRoom(r.eventTime.size());
            r.eventTime.push_back(time);
            r.eventType.push_back(type);
            r.eventValue.push_back(value);
            r.eventCpu.push_back(cpu);
        }
        if (any) seen(time);
    }

    void communication(std::string_view line) {
        Fields f(line);
        CommunicationRecord c{};
        if (!object(f, c.sendCpu, c.sendThread, line)) return;
        if (!f.next(c.logicalSend) || !f.next(c.physicalSend)) return malformed(line, "bad send times");
        if (!object(f, c.recvCpu, c.recvThread, line)) return;
        if (!f.next(c.logicalRecv) || !f.next(c.physicalRecv) || !f.next(c.size) || !f.next(c.tag) ||
            !f.atEnd())
            return malformed(line, "bad communication record");
        // A receive before its send is legal (Paraver's "negative messages"); only the times' range is
        // checked.
        if (!validTime(c.logicalSend, "logical send time", line) ||
            !validTime(c.physicalSend, "physical send time", line) ||
            !validTime(c.logicalRecv, "logical receive time", line) ||
            !validTime(c.physicalRecv, "physical receive time", line))
            return;
        checkRoom(t_.communications.size());
        auto index = static_cast<std::uint32_t>(t_.communications.size());
        t_.communications.push_back(c);
        t_.threads[c.sendThread].sends.push_back(index);
        t_.threads[c.recvThread].receives.push_back(index);
        seen(std::max({c.logicalSend, c.physicalSend, c.logicalRecv, c.physicalRecv}));
    }

    Trace& t_;
    LineReader& in_;
    const ReadOptions& options_;
    std::vector<std::uint32_t> cpuNode_;    // global CPU (1-based; 0 unknown) -> node (1-based)
    std::vector<std::uint32_t> threadNode_; // global thread index -> node of its task (0: no resources)
};

Trace read(ByteSource& source, const std::string& name, const ReadOptions& options) {
    LineReader in(source, name);
    Trace trace;
    trace.source = name;
    std::string_view line;
    if (!in.next(line)) throw Error(name + ": empty file, not a Paraver trace");
    // "new format" announces paraver-kernel's TraceBodyIO_v2, another record syntax (separate state begin
    // and end records, CPU:thread objects): refused rather than misread as the usual records.
    if (line == "new format" || line == "new format\r")
        throw Error(name +
                    ":1: a \"new format\" trace (Paraver's internal TraceBodyIO_v2 records): gpueff reads "
                    "the usual .prv format only");
    trace.header = parseHeader(line, name, options.maxObjects);
    trace.indexThreads();
    BodyParser body(trace, in, options);
    while (in.next(line)) body.parse(line);
    for (auto& t : trace.threads) sortByTime(t);
    buildRecordStreams(trace);
    return trace;
}

} // namespace

Trace readPrv(const std::filesystem::path& path, const ReadOptions& options) {
    GzipFile file(path.string());
    return read(file, path.string(), options);
}

Trace readPrvText(std::string_view text, const std::string& name, const ReadOptions& options) {
    Memory memory(text);
    return read(memory, name, options);
}

} // namespace gpueff::paraver
