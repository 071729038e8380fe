#include "engine/kineto/ChromeTrace.h"

#include "engine/common/Error.h"
#include "engine/common/GzipStream.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <istream>
#include <limits>
#include <nlohmann/json.hpp>
#include <streambuf>

namespace gpueff::kineto {

namespace {

using json = nlohmann::json;

// GzipStream (plain or gzip, one end-of-file rule for every input) as the stream buffer nlohmann's SAX parser
// pulls characters from: one 1 MiB buffer, whatever the file's size.
class GzStreamBuffer : public std::streambuf {
public:
    GzStreamBuffer(const std::filesystem::path& path, const std::function<void(std::uint64_t)>& progress)
        : file_(path), progress_(progress), buffer_(1 << 20) {}

protected:
    int_type underflow() override {
        if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
        auto n = file_.read(buffer_.data(), buffer_.size());
        if (n == 0) return traits_type::eof();
        std::uint64_t read = file_.contentPosition();
        if (progress_ && read / kProgressStep != (read - n) / kProgressStep) progress_(read);
        setg(buffer_.data(), buffer_.data(), buffer_.data() + n);
        return traits_type::to_int_type(*gptr());
    }

private:
    static constexpr std::uint64_t kProgressStep = 16u << 20;
    GzipStream file_;
    const std::function<void(std::uint64_t)>& progress_;
    std::vector<char> buffer_;
};

// The keys the reader acts on, named once when the parser reads them (every value is then dispatched on an
// enum, not by comparing strings again).
enum class Key {
    Other,
    Ph,
    Cat,
    Name,
    Pid,
    Tid,
    Ts,
    Dur,
    Args, // event
    Device,
    Stream,
    Correlation,
    Bytes,
    Registers,
    SharedMemory,
    GroupSize,
    InElements, // args
    OutElements,
    Grid,
    Block,
    SyncKind,
    Collective,
    Dtype,
    GroupName,
    GroupRanks,
    Labels, // args
    TraceEvents,
    DistributedInfo,
    DeviceProperties,
    BaseTime,
    HostName,
    SchemaVersion, // top level
    Rank,
    WorldSize,
    Id // nested
};

Key keyOf(std::string_view k) {
    static constexpr std::pair<std::string_view, Key> keys[] = {
        {"ph", Key::Ph},
        {"cat", Key::Cat},
        {"name", Key::Name},
        {"pid", Key::Pid},
        {"tid", Key::Tid},
        {"ts", Key::Ts},
        {"dur", Key::Dur},
        {"args", Key::Args},
        {"device", Key::Device},
        {"stream", Key::Stream},
        {"correlation", Key::Correlation},
        {"bytes", Key::Bytes},
        {"registers per thread", Key::Registers},
        {"shared memory", Key::SharedMemory},
        {"Group size", Key::GroupSize},
        {"In msg nelems", Key::InElements},
        {"Out msg nelems", Key::OutElements},
        {"grid", Key::Grid},
        {"block", Key::Block},
        {"cuda_sync_kind", Key::SyncKind},
        {"Collective name", Key::Collective},
        {"dtype", Key::Dtype},
        {"Process Group Name", Key::GroupName},
        {"Process Group Ranks", Key::GroupRanks},
        {"labels", Key::Labels},
        {"traceEvents", Key::TraceEvents},
        {"distributedInfo", Key::DistributedInfo},
        {"deviceProperties", Key::DeviceProperties},
        {"baseTimeNanoseconds", Key::BaseTime},
        {"host_name", Key::HostName},
        {"schemaVersion", Key::SchemaVersion},
        {"rank", Key::Rank},
        {"world_size", Key::WorldSize},
        {"id", Key::Id},
    };
    for (const auto& [text, key] : keys)
        if (text.size() == k.size() && text == k) return key;
    return Key::Other;
}

// Where the parser is: the container being filled and what its key means.
enum class Scope { Root, TraceEvents, Event, Args, ArgArray, Distributed, DeviceList, Device, Skip };

class Handler : public nlohmann::json_sax<json> {
public:
    Handler(const std::filesystem::path& path, const std::function<void(const ChromeEvent&)>& onEvent)
        : path_(path), onEvent_(onEvent) {}
    TraceMetadata metadata;

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t v) override { return integer(v, false); }
    bool number_unsigned(number_unsigned_t v) override {
        if (v > static_cast<number_unsigned_t>(std::numeric_limits<std::int64_t>::max()))
            return integer(0, true);
        return integer(static_cast<std::int64_t>(v), false);
    }
    bool number_float(number_float_t v, const string_t& text) override {
        if (isTime()) return time(microsecondsTextToNs(text));
        if (!std::isfinite(v) || std::fabs(v) > 9.2e18) return integer(0, true);
        return integer(static_cast<std::int64_t>(std::llround(v)), false);
    }
    bool binary(binary_t&) override { return true; }
    bool string(string_t& s) override;
    bool start_object(std::size_t) override;
    bool end_object() override;
    bool start_array(std::size_t) override;
    bool end_array() override;
    bool key(string_t& k) override {
        key_ = keyOf(k);
        return true;
    }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& e) override {
        std::string what = e.what();
        // nlohmann's message starts with "[json.exception.parse_error.101] parse error at line 1, column 9: "
        if (auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
        throw Error(path_.string() + ": invalid JSON at byte " + std::to_string(position) + ": " + what +
                    (what.find("end of input") != std::string::npos ? " (a truncated file?)" : ""));
    }

private:
    Scope top() const { return stack_.empty() ? Scope::Root : stack_.back(); }
    bool isTime() const { return top() == Scope::Event && (key_ == Key::Ts || key_ == Key::Dur); }
    bool time(std::optional<std::int64_t> ns);
    bool integer(std::int64_t v, bool tooLarge);
    void push(Scope s) { stack_.push_back(s); }

    const std::filesystem::path& path_;
    const std::function<void(const ChromeEvent&)>& onEvent_;
    std::vector<Scope> stack_;
    bool root_ = false;
    Key key_ = Key::Other, arrayKey_ = Key::Other;
    std::size_t arrayIndex_ = 0;
    std::int64_t deviceId_ = 0;
    std::string deviceName_;
    ChromeEvent event_;
};

bool Handler::time(std::optional<std::int64_t> ns) {
    Field& f = key_ == Key::Ts ? event_.ts : event_.dur;
    if (ns)
        f.set(*ns);
    else
        event_.badNumber = key_ == Key::Ts ? "ts" : "dur";
    return true;
}

bool Handler::integer(std::int64_t v, bool tooLarge) {
    switch (top()) {
    case Scope::Event:
        if (key_ == Key::Ts || key_ == Key::Dur) {
            if (tooLarge || v > std::numeric_limits<std::int64_t>::max() / 1000 ||
                v < std::numeric_limits<std::int64_t>::min() / 1000)
                return time(std::nullopt);
            return time(v * 1000);
        }
        if (tooLarge) return true;
        if (key_ == Key::Pid)
            event_.pid.set(v);
        else if (key_ == Key::Tid)
            event_.tid.set(v);
        return true;
    case Scope::Args: {
        if (tooLarge) return true;
        static constexpr std::pair<Key, Field ChromeEvent::*> fields[] = {
            {Key::Device, &ChromeEvent::device},           {Key::Stream, &ChromeEvent::stream},
            {Key::Correlation, &ChromeEvent::correlation}, {Key::Bytes, &ChromeEvent::bytes},
            {Key::Registers, &ChromeEvent::registers},     {Key::SharedMemory, &ChromeEvent::sharedMemory},
            {Key::GroupSize, &ChromeEvent::groupSize},     {Key::InElements, &ChromeEvent::inElements},
            {Key::OutElements, &ChromeEvent::outElements},
        };
        for (const auto& [key, member] : fields)
            if (key_ == key) (event_.*member).set(v);
        return true;
    }
    case Scope::ArgArray:
        if (!tooLarge && arrayIndex_ < 3)
            (arrayKey_ == Key::Grid ? event_.grid : event_.block)[arrayIndex_] = v;
        ++arrayIndex_;
        return true;
    case Scope::Root:
        if (key_ == Key::BaseTime && !tooLarge)
            metadata.baseTimeNs = v;
        else if (key_ == Key::SchemaVersion)
            metadata.schemaVersion = std::to_string(v);
        return true;
    case Scope::Distributed:
        if (key_ == Key::Rank && !tooLarge)
            metadata.rank = v;
        else if (key_ == Key::WorldSize && !tooLarge)
            metadata.worldSize = v;
        return true;
    case Scope::Device:
        if (key_ == Key::Id) deviceId_ = v;
        return true;
    default:
        return true;
    }
}

// The lexer hands its own token buffer, cleared before the next token: swapping it with the event's string
// moves the text without a copy and gives the lexer the old buffer's capacity back.
bool Handler::string(string_t& s) {
    switch (top()) {
    case Scope::Event:
        if (key_ == Key::Ph)
            event_.ph = s.empty() ? '?' : s[0];
        else if (key_ == Key::Cat)
            event_.cat.swap(s);
        else if (key_ == Key::Name)
            event_.name.swap(s);
        else if (key_ == Key::Ts || key_ == Key::Dur)
            event_.badNumber = key_ == Key::Ts ? "ts" : "dur";
        return true;
    case Scope::Args:
        if (key_ == Key::SyncKind)
            event_.syncKind.swap(s);
        else if (key_ == Key::Collective)
            event_.collective.swap(s);
        else if (key_ == Key::Dtype)
            event_.dtype.swap(s);
        else if (key_ == Key::GroupName)
            event_.groupName.swap(s);
        else if (key_ == Key::GroupRanks)
            event_.groupRanks.swap(s);
        else if (key_ == Key::Name || key_ == Key::Labels)
            event_.metadataName.swap(s); // of 'M' events
        return true;
    case Scope::Root:
        if (key_ == Key::HostName)
            metadata.hostName = s;
        else if (key_ == Key::SchemaVersion)
            metadata.schemaVersion = s;
        return true;
    case Scope::Device:
        if (key_ == Key::Name) deviceName_ = s;
        return true;
    default:
        return true;
    }
}

bool Handler::start_object(std::size_t) {
    if (stack_.empty() && !root_) {
        root_ = true;
        return true;
    }
    switch (top()) {
    case Scope::TraceEvents:
        event_.clear();
        push(Scope::Event);
        break;
    case Scope::Event:
        push(key_ == Key::Args ? Scope::Args : Scope::Skip);
        break;
    case Scope::Root:
        push(key_ == Key::DistributedInfo ? Scope::Distributed : Scope::Skip);
        break;
    case Scope::DeviceList:
        deviceId_ = -1, deviceName_.clear();
        push(Scope::Device);
        break;
    default:
        push(Scope::Skip);
    }
    return true;
}

bool Handler::end_object() {
    if (stack_.empty()) return true; // the root object
    Scope s = top();
    stack_.pop_back();
    if (s == Scope::Event)
        onEvent_(event_);
    else if (s == Scope::Device && deviceId_ >= 0)
        metadata.deviceNames[deviceId_] = deviceName_;
    return true;
}

bool Handler::start_array(std::size_t) {
    if (stack_.empty() && !root_) {
        // The Chrome trace "array format": the file is the event list itself.
        root_ = true;
        metadata.sawTraceEvents = true;
        push(Scope::TraceEvents);
        return true;
    }
    switch (top()) {
    case Scope::Root:
        if (key_ == Key::TraceEvents) {
            metadata.sawTraceEvents = true;
            push(Scope::TraceEvents);
        } else {
            push(key_ == Key::DeviceProperties ? Scope::DeviceList : Scope::Skip);
        }
        break;
    case Scope::Args:
        arrayKey_ = key_, arrayIndex_ = 0;
        push(key_ == Key::Grid || key_ == Key::Block ? Scope::ArgArray : Scope::Skip);
        break;
    default:
        push(Scope::Skip);
    }
    return true;
}

bool Handler::end_array() {
    if (!stack_.empty()) stack_.pop_back();
    return true;
}

} // namespace

void ChromeEvent::clear() {
    ph = 0;
    cat.clear(), name.clear(), syncKind.clear(), collective.clear(), dtype.clear(), groupName.clear();
    groupRanks.clear(), metadataName.clear(), badNumber.clear();
    pid = tid = ts = dur = device = stream = correlation = bytes = registers = sharedMemory = Field{};
    groupSize = inElements = outElements = Field{};
    grid = block = {0, 0, 0};
}

std::optional<std::int64_t> microsecondsTextToNs(const std::string& text) {
    // Digits of the mantissa and the power of ten they are scaled by; the value in ns is
    // mantissa x 10^(3 + exponent - fraction digits).
    std::size_t i = 0;
    bool negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
    std::string digits;
    int scale = 3, seen = 0;
    bool point = false;
    for (; i < text.size(); ++i) {
        char c = text[i];
        if (c >= '0' && c <= '9') {
            digits += c, ++seen;
            if (point) --scale;
        } else if (c == '.' && !point) {
            point = true;
        } else {
            break;
        }
    }
    if (seen == 0) return std::nullopt;
    if (i < text.size()) {
        if (text[i] != 'e' && text[i] != 'E') return std::nullopt;
        ++i;
        bool expNegative = false;
        if (i < text.size() && (text[i] == '-' || text[i] == '+')) expNegative = text[i++] == '-';
        int exponent = 0;
        std::size_t start = i;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
            exponent = exponent * 10 + (text[i] - '0');
            if (exponent > 400) return std::nullopt;
        }
        if (i == start || i != text.size()) return std::nullopt;
        scale += expNegative ? -exponent : exponent;
    }
    // Leading zeros carry nothing; trailing digits beyond the nanosecond decide the rounding only.
    std::size_t first = digits.find_first_not_of('0');
    if (first == std::string::npos) return 0;
    digits.erase(0, first);
    bool roundUp = false;
    if (scale < 0) {
        auto keep = static_cast<std::ptrdiff_t>(digits.size()) + scale;
        if (keep < 0) return 0;
        roundUp =
            static_cast<std::size_t>(keep) < digits.size() && digits[static_cast<std::size_t>(keep)] >= '5';
        digits.resize(static_cast<std::size_t>(keep));
        scale = 0;
    }
    if (static_cast<int>(digits.size()) + scale > 19) return std::nullopt;
    digits.append(static_cast<std::size_t>(scale), '0');
    unsigned long long value = 0;
    for (char c : digits) value = value * 10 + static_cast<unsigned long long>(c - '0');
    value += roundUp;
    if (value > static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max()))
        return std::nullopt;
    auto v = static_cast<std::int64_t>(value);
    return negative ? -v : v;
}

TraceMetadata readChromeTrace(const std::filesystem::path& name, std::istream& in,
                              const std::function<void(const ChromeEvent&)>& onEvent) {
    Handler handler(name, onEvent);
    json::sax_parse(in, &handler, nlohmann::detail::input_format_t::json, true);
    if (!handler.metadata.sawTraceEvents)
        throw Error(name.string() + ": not a PyTorch profiler (Kineto) trace: no \"traceEvents\" array");
    return handler.metadata;
}

TraceMetadata readChromeTrace(const std::filesystem::path& path,
                              const std::function<void(const ChromeEvent&)>& onEvent,
                              const std::function<void(std::uint64_t)>& progress) {
    GzStreamBuffer buffer(path, progress);
    std::istream in(&buffer);
    return readChromeTrace(path, in, onEvent);
}

} // namespace gpueff::kineto
