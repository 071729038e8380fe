#include "engine/paraver/TraceHeader.h"

#include "engine/common/Error.h"

#include <charconv>

namespace gpueff::paraver {

namespace {

class Cursor {
public:
    Cursor(std::string_view text, const std::string& where) : text_(text), where_(where) {}
    [[noreturn]] void fail(const std::string& what) const {
        throw Error(where_ + ":1: bad Paraver header (" + what + " at column " + std::to_string(pos_ + 1) +
                    "): " + std::string(text_.substr(0, 200)));
    }
    std::uint64_t number() {
        std::uint64_t v = 0;
        auto res = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), v);
        if (res.ec != std::errc()) fail("a number was expected");
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

} // namespace

std::uint32_t TraceHeader::totalThreads() const {
    std::uint32_t n = 0;
    for (const auto& appl : applications)
        for (const auto& t : appl) n += t.threads;
    return n;
}

std::uint32_t TraceHeader::totalCpus() const {
    std::uint32_t n = 0;
    for (auto c : cpusPerNode) n += c;
    return n;
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

TraceHeader parseHeader(std::string_view line, const std::string& where) {
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
    if (line.substr(0, 8) != "#Paraver") throw Error(where + ":1: not a Paraver trace (no #Paraver header)");
    TraceHeader h;
    auto open = line.find('('), close = line.find("):");
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
        throw Error(where + ":1: bad Paraver header (no \"(date):\")");
    h.date = std::string(line.substr(open + 1, close - open - 1));
    Cursor c(line.substr(close + 2), where);
    h.endTime = static_cast<std::int64_t>(c.number());
    if (c.accept('_')) {
        auto rest = c.rest();
        if (rest.substr(0, 2) == "ns")
            h.unit = TimeUnit::Nanoseconds, c.skip(2);
        else if (rest.substr(0, 2) == "us")
            h.unit = TimeUnit::Microseconds, c.skip(2);
        else if (rest.substr(0, 2) == "ms")
            h.unit = TimeUnit::Milliseconds, c.skip(2);
        else if (rest.substr(0, 1) == "s")
            h.unit = TimeUnit::Seconds, c.skip(1);
        else
            c.fail("unknown time unit");
    }
    c.expect(':');
    auto nodes = c.number();
    if (nodes > 0) {
        c.expect('(');
        for (std::uint64_t n = 0; n < nodes; ++n) {
            if (n) c.expect(',');
            h.cpusPerNode.push_back(static_cast<std::uint32_t>(c.number()));
        }
        c.expect(')');
    }
    c.expect(':');
    auto appls = c.number();
    if (appls == 0 || appls > 1'000'000) c.fail("implausible number of applications");
    for (std::uint64_t a = 0; a < appls; ++a) {
        // Applications after the first may be separated by ',' as well as ':'.
        if (a == 0 || !c.accept(',')) c.expect(':');
        auto tasks = c.number();
        if (tasks == 0 || tasks > 100'000'000) c.fail("implausible number of tasks");
        c.expect('(');
        std::vector<TraceHeader::Task> appl;
        for (std::uint64_t t = 0; t < tasks; ++t) {
            if (t) c.expect(',');
            TraceHeader::Task task;
            task.threads = static_cast<std::uint32_t>(c.number());
            c.expect(':');
            task.node = static_cast<std::uint32_t>(c.number());
            if (!h.cpusPerNode.empty() && (task.node == 0 || task.node > h.cpusPerNode.size()))
                c.fail("task on node " + std::to_string(task.node) + " of " +
                       std::to_string(h.cpusPerNode.size()));
            appl.push_back(task);
        }
        c.expect(')');
        h.applications.push_back(std::move(appl));
    }
    if (c.accept(',')) h.communicators = static_cast<std::uint32_t>(c.number());
    if (!c.atEnd()) c.fail("unexpected text after the applications");
    return h;
}

} // namespace gpueff::paraver
