#include "engine/paraver/TraceHeader.h"

#include "engine/common/Error.h"
#include "engine/common/Utf8.h"

#include <charconv>
#include <limits>

namespace gpueff::paraver {

namespace {

constexpr std::uint64_t kMaxUint32 = std::numeric_limits<std::uint32_t>::max();

class Cursor {
public:
    // `text` is the whole header line, read from `start`: columns in messages count from the line's start.
    Cursor(std::string_view text, std::size_t start, const std::string& where)
        : text_(text), where_(where), pos_(start) {}
    [[noreturn]] void fail(const std::string& what) const {
        throw Error(where_ + ":1: bad Paraver header (" + what + " at column " + std::to_string(pos_ + 1) +
                    "): " + printableExcerpt(text_, 200));
    }
    // A decimal number in [0, max]; `what` names it in the message. from_chars reports overflow instead of
    // wrapping, and a '-' is refused here rather than read modulo 2^64 as strtoull would.
    std::uint64_t number(const char* what, std::uint64_t max) {
        if (peek() == '-') fail(std::string(what) + " must not be negative");
        std::uint64_t v = 0;
        auto res = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), v);
        if (res.ec == std::errc::result_out_of_range || (res.ec == std::errc() && v > max))
            fail(std::string(what) + " " +
                 std::string(text_.substr(pos_, static_cast<std::size_t>(res.ptr - text_.data()) - pos_)) +
                 " is out of range (at most " + std::to_string(max) + ")");
        if (res.ec != std::errc()) fail(std::string(what) + " was expected");
        pos_ = static_cast<std::size_t>(res.ptr - text_.data());
        return v;
    }
    bool accept(char c) {
        if (pos_ < text_.size() && text_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    void expect(char c) {
        if (!accept(c)) fail(std::string("'") + c + "' was expected");
    }
    bool atEnd() const { return pos_ >= text_.size(); }
    char peek() const { return atEnd() ? '\0' : text_[pos_]; }
    std::string_view rest() const { return text_.substr(pos_); }
    void skip(std::size_t n) { pos_ += n; }

private:
    std::string_view text_;
    const std::string& where_;
    std::size_t pos_ = 0;
};

// Running total of one kind of object, refused as soon as it passes the limit (before anything is sized by
// it).
class ObjectCount {
public:
    ObjectCount(const char* what, std::uint64_t max, const std::string& where)
        : what_(what), max_(max), where_(where) {}
    void add(std::uint64_t n) {
        std::uint64_t sum = 0;
        bool wraps = __builtin_add_overflow(total_, n, &sum);
        if (wraps || sum > max_)
            throw Error(where_ + ":1: header declares " + (total_ > 0 ? "at least " : "") +
                        std::to_string(wraps ? n : sum) + " " + what_ + ", more than gpueff's limit of " +
                        std::to_string(max_) + " (a corrupt header?)");
        total_ = sum;
    }

private:
    const char* what_;
    std::uint64_t max_, total_ = 0;
    const std::string& where_;
};

} // namespace

std::uint32_t TraceHeader::totalThreads() const {
    std::uint64_t n = 0;
    for (const auto& appl : applications)
        for (const auto& t : appl) n += t.threads;
    return static_cast<std::uint32_t>(n); // parseHeader keeps the total at most kMaxObjects
}

std::uint32_t TraceHeader::totalCpus() const {
    std::uint64_t n = 0;
    for (auto c : cpusPerNode) n += c;
    return static_cast<std::uint32_t>(n); // parseHeader keeps the total at most kMaxObjects
}

std::vector<std::vector<std::uint32_t>> firstThreadOfTasks(const TraceHeader& header,
                                                           std::uint32_t* threads) {
    std::vector<std::vector<std::uint32_t>> out;
    std::uint32_t next = 0;
    for (const auto& appl : header.applications) {
        std::vector<std::uint32_t> firsts;
        for (const auto& task : appl) {
            firsts.push_back(next);
            next += task.threads;
        }
        out.push_back(std::move(firsts));
    }
    if (threads) *threads = next;
    return out;
}

const char* unitSuffix(TimeUnit unit) {
    switch (unit) {
    case TimeUnit::Nanoseconds:
        return "_ns";
    case TimeUnit::Microseconds:
        return "";
    case TimeUnit::Milliseconds:
        return "_ms";
    case TimeUnit::Seconds:
        return "_s";
    }
    return "";
}

TraceHeader parseHeader(std::string_view line, const std::string& where, std::uint64_t maxObjects) {
    maxObjects = std::min(maxObjects, kMaxUint32);
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
    if (line.substr(0, 8) != "#Paraver") throw Error(where + ":1: not a Paraver trace (no #Paraver header)");
    TraceHeader h;
    auto open = line.find('('), close = line.find("):");
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
        throw Error(where + ":1: bad Paraver header (no \"(date):\")");
    h.date = repairUtf8(line.substr(open + 1, close - open - 1));
    Cursor c(line, close + 2, where);
    h.endTime = static_cast<std::int64_t>(c.number("end time", static_cast<std::uint64_t>(kMaxTime)));
    if (c.accept('_')) {
        // paramedir (traceheader.h) knows _ns and _ms; every other suffix is read as microseconds.
        std::size_t n = 0;
        auto rest = c.rest();
        while (n < rest.size() && rest[n] != ':') ++n;
        auto suffix = rest.substr(0, n);
        if (suffix == "ns")
            h.unit = TimeUnit::Nanoseconds;
        else if (suffix == "ms")
            h.unit = TimeUnit::Milliseconds;
        else if (suffix == "us")
            h.unit = TimeUnit::Microseconds;
        else
            h.unit = TimeUnit::Microseconds, h.unknownUnitSuffix = "_" + repairUtf8(suffix.substr(0, 16));
        c.skip(n);
    }
    c.expect(':');
    // Counts of nodes, applications and tasks are each followed by one list entry per object, so the line's
    // own length bounds them; threads per task and CPUs per node are bare numbers and are capped instead.
    ObjectCount cpus("CPUs", maxObjects, where), tasks("tasks", maxObjects, where),
        threads("threads", maxObjects, where);
    auto nodes = c.number("number of nodes", maxObjects);
    if (nodes > 0 && c.peek() == ':') {
        // "N:" without a CPU list: N nodes of one CPU each (paraver-kernel's ResourceModel).
        cpus.add(nodes);
        h.cpusPerNode.assign(static_cast<std::size_t>(nodes), 1);
    } else if (nodes > 0) {
        c.expect('(');
        for (std::uint64_t n = 0; n < nodes; ++n) {
            if (n) c.expect(',');
            auto count = c.number("number of CPUs", std::numeric_limits<std::uint64_t>::max());
            cpus.add(count);
            h.cpusPerNode.push_back(static_cast<std::uint32_t>(count));
        }
        c.expect(')');
    }
    c.expect(':');
    auto appls = c.number("number of applications", maxObjects);
    if (appls == 0) c.fail("no application");
    for (std::uint64_t a = 0; a < appls; ++a) {
        // Applications after the first may be separated by ',' as well as ':'.
        if (a == 0 || !c.accept(',')) c.expect(':');
        auto taskCount = c.number("number of tasks", maxObjects);
        if (taskCount == 0) c.fail("an application without tasks");
        tasks.add(taskCount);
        c.accept(':'); // nsys2prv writes "1:(2:1)"; paramedir reads it as "1(2:1)"
        c.expect('(');
        std::vector<TraceHeader::Task> appl;
        for (std::uint64_t t = 0; t < taskCount; ++t) {
            if (t) c.expect(',');
            TraceHeader::Task task;
            auto threadCount = c.number("number of threads", std::numeric_limits<std::uint64_t>::max());
            // Every level above the thread aggregates its threads: a task without one has no value at all.
            if (threadCount == 0) c.fail("a task without threads");
            threads.add(threadCount);
            task.threads = static_cast<std::uint32_t>(threadCount);
            c.expect(':');
            task.node = static_cast<std::uint32_t>(c.number("node", kMaxUint32));
            if (!h.cpusPerNode.empty() && (task.node == 0 || task.node > h.cpusPerNode.size()))
                c.fail("task on node " + std::to_string(task.node) + " of " +
                       std::to_string(h.cpusPerNode.size()));
            appl.push_back(task);
        }
        c.expect(')');
        h.applications.push_back(std::move(appl));
    }
    // paramedir skips one character after the last application, ',' as it writes it or ':'.
    if (c.accept(',') || c.accept(':'))
        h.communicators = static_cast<std::uint32_t>(c.number("number of communicators", kMaxUint32));
    if (!c.atEnd()) c.fail("unexpected text after the applications");
    return h;
}

} // namespace gpueff::paraver
