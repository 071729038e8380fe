#include "engine/kineto/ChromeTrace.h"

#include "engine/common/Error.h"
#include "engine/common/GzipStream.h"
#include "engine/kineto/JsonCursor.h"

#include <cmath>
#include <istream>
#include <limits>
#include <simdjson.h>

namespace gpueff::kineto {

// The Chrome-trace reader: JsonCursor hands out the root object's members and the events of traceEvents one
// by one, and simdjson's On-Demand parser reads each (bench/README.md "Kineto parse": chosen over nlohmann's
// SAX parser and simdjson's DOM by measurement). Every value is validated, also those gpueff does not use, so
// a malformed file is refused wherever its fault lies.

namespace {

namespace od = simdjson::ondemand;
static_assert(JsonCursor::kPadding >= simdjson::SIMDJSON_PADDING);

// A JSON number as an integer field takes it: fractions rounded, and `tooLarge` beyond int64.
struct Number {
    std::int64_t value = 0;
    bool tooLarge = false;
};

// An integer of more digits than 64 bits hold, which JSON allows and simdjson 3.0 refuses to parse.
bool isLongInteger(std::string_view token) {
    std::size_t i = token.starts_with('-') ? 1 : 0, digits = 0;
    for (; i < token.size() && token[i] >= '0' && token[i] <= '9'; ++i) ++digits;
    while (i < token.size() && (token[i] == ' ' || token[i] == '\n' || token[i] == '\r' || token[i] == '\t'))
        ++i;
    return digits >= 20 && token[token.starts_with('-') ? 1 : 0] != '0' && i == token.size();
}

template <typename V>
Number numberOf(V& v) {
    od::number n;
    std::string_view token = v.raw_json_token();
    if (auto error = v.get_number().get(n)) {
        if ((error == simdjson::NUMBER_ERROR || error == simdjson::NUMBER_OUT_OF_RANGE) &&
            isLongInteger(token))
            return {0, true};
        throw simdjson::simdjson_error(error);
    }
    switch (n.get_number_type()) {
    case od::number_type::signed_integer:
        return {n.get_int64(), false};
    case od::number_type::unsigned_integer:
        return {0, true};
    default: {
        double d = n.get_double();
        if (!std::isfinite(d) || std::fabs(d) > 9.2e18) return {0, true};
        return {static_cast<std::int64_t>(std::llround(d)), false};
    }
    }
}

// Walks a value gpueff does not use, so that every byte of the file is checked as JSON.
void validate(od::value v);

template <typename V>
void validateScalar(V& v, od::json_type type) {
    switch (type) {
    case od::json_type::number:
        numberOf(v);
        break;
    case od::json_type::string:
        (void)std::string_view(v.get_string());
        break;
    case od::json_type::boolean:
        (void)bool(v.get_bool());
        break;
    case od::json_type::null:
        if (!bool(v.is_null())) throw simdjson::simdjson_error(simdjson::N_ATOM_ERROR);
        break;
    default:
        break;
    }
}

void validate(od::value v) {
    od::json_type type = v.type();
    if (type == od::json_type::object) {
        for (auto field : v.get_object()) {
            (void)std::string_view(field.unescaped_key());
            validate(field.value());
        }
    } else if (type == od::json_type::array) {
        for (auto element : v.get_array()) validate(element.value());
    } else {
        validateScalar(v, type);
    }
}

// A whole document checked (a value of the root gpueff does not use).
void validate(od::document& doc) {
    od::json_type type = doc.type();
    if (type == od::json_type::object || type == od::json_type::array)
        validate(od::value(doc.get_value()));
    else
        validateScalar(doc, type);
}

std::string_view stringOf(od::value& v) {
    return v.get_string();
}

// The keys the reader acts on, named once per key read (values are then dispatched on an enum).
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
    InElements,
    OutElements,
    Grid,
    Block,
    SyncKind,
    Collective,
    Dtype,
    GroupName,
    GroupRanks,
    Labels, // args (and Name)
};

Key eventKey(std::string_view k) {
    static constexpr std::pair<std::string_view, Key> keys[] = {
        {"ph", Key::Ph},   {"cat", Key::Cat}, {"name", Key::Name}, {"pid", Key::Pid},
        {"tid", Key::Tid}, {"ts", Key::Ts},   {"dur", Key::Dur},   {"args", Key::Args},
    };
    for (const auto& [text, key] : keys)
        if (text == k) return key;
    return Key::Other;
}

Key argKey(std::string_view k) {
    static constexpr std::pair<std::string_view, Key> keys[] = {
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
        {"name", Key::Name},
        {"labels", Key::Labels},
    };
    for (const auto& [text, key] : keys)
        if (text == k) return key;
    return Key::Other;
}

Field* integerArg(ChromeEvent& e, Key key) {
    switch (key) {
    case Key::Device:
        return &e.device;
    case Key::Stream:
        return &e.stream;
    case Key::Correlation:
        return &e.correlation;
    case Key::Bytes:
        return &e.bytes;
    case Key::Registers:
        return &e.registers;
    case Key::SharedMemory:
        return &e.sharedMemory;
    case Key::GroupSize:
        return &e.groupSize;
    case Key::InElements:
        return &e.inElements;
    case Key::OutElements:
        return &e.outElements;
    default:
        return nullptr;
    }
}

std::string* textArg(ChromeEvent& e, Key key) {
    switch (key) {
    case Key::SyncKind:
        return &e.syncKind;
    case Key::Collective:
        return &e.collective;
    case Key::Dtype:
        return &e.dtype;
    case Key::GroupName:
        return &e.groupName;
    case Key::GroupRanks:
        return &e.groupRanks;
    case Key::Name:
    case Key::Labels:
        return &e.metadataName; // of 'M' events
    default:
        return nullptr;
    }
}

// JSON's number grammar, checked on the text of a time (which is read from its text, not as a double: a
// double is slower to make from 19 digits, and inexact).
bool isJsonNumber(std::string_view t) {
    std::size_t i = t.starts_with('-') ? 1 : 0;
    auto digits = [&] {
        std::size_t from = i;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
        return i - from;
    };
    std::size_t first = i, whole = digits();
    if (whole == 0 || (whole > 1 && t[first] == '0')) return false;
    if (i < t.size() && t[i] == '.' && (++i, digits() == 0)) return false;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
        if (digits() == 0) return false;
    }
    return i == t.size();
}

// ts or dur: Kineto's microseconds as ns, exactly (an integer is scaled, a fraction read from its text); a
// string or a number beyond int64 ns is a bad number, named in the event's skip reason.
void readTime(od::value& v, Key key, ChromeEvent& e) {
    Field& f = key == Key::Ts ? e.ts : e.dur;
    const char* name = key == Key::Ts ? "ts" : "dur";
    od::json_type type = v.type();
    if (type == od::json_type::string) {
        (void)stringOf(v);
        e.badNumber = name;
        return;
    }
    if (type != od::json_type::number) return validate(v);
    std::string_view text = v.raw_json_token();
    while (!text.empty() &&
           (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' || text.back() == '\t'))
        text.remove_suffix(1);
    if (!isJsonNumber(text)) throw simdjson::simdjson_error(simdjson::NUMBER_ERROR);
    if (auto ns = microsecondsTextToNs(text))
        f.set(*ns);
    else
        e.badNumber = name;
}

void readDims(od::value v, std::array<std::int64_t, 3>& dims) {
    std::size_t index = 0;
    for (auto element : v.get_array()) {
        od::value x = element.value();
        if (x.type() != od::json_type::number) {
            validate(x);
            continue;
        }
        Number n = numberOf(x);
        if (!n.tooLarge && index < 3) dims[index] = n.value;
        ++index;
    }
}

void readArgs(od::value v, ChromeEvent& e) {
    for (auto field : v.get_object()) {
        Key key = argKey(field.unescaped_key());
        od::value x = field.value();
        od::json_type type = x.type();
        if (type == od::json_type::number) {
            Number n = numberOf(x);
            if (Field* f = integerArg(e, key); f && !n.tooLarge) f->set(n.value);
        } else if (type == od::json_type::string) {
            std::string_view s = stringOf(x);
            if (std::string* t = textArg(e, key)) t->assign(s);
        } else if (type == od::json_type::array && (key == Key::Grid || key == Key::Block)) {
            readDims(x, key == Key::Grid ? e.grid : e.block);
        } else {
            validate(x);
        }
    }
}

void readEvent(od::object object, ChromeEvent& e) {
    for (auto field : object) {
        Key key = eventKey(field.unescaped_key());
        od::value v = field.value();
        if (key == Key::Ts || key == Key::Dur) {
            readTime(v, key, e);
            continue;
        }
        od::json_type type = v.type();
        if (type == od::json_type::string && (key == Key::Ph || key == Key::Cat || key == Key::Name)) {
            std::string_view s = stringOf(v);
            if (key == Key::Ph)
                e.ph = s.empty() ? '?' : s[0];
            else
                (key == Key::Cat ? e.cat : e.name).assign(s);
        } else if (type == od::json_type::number && (key == Key::Pid || key == Key::Tid)) {
            if (Number n = numberOf(v); !n.tooLarge) (key == Key::Pid ? e.pid : e.tid).set(n.value);
        } else if (type == od::json_type::object && key == Key::Args) {
            readArgs(v, e);
        } else {
            validate(v);
        }
    }
}

// distributedInfo: this trace's rank and the job's size.
void readDistributed(od::value v, TraceMetadata& m) {
    for (auto field : v.get_object()) {
        std::string_view k = field.unescaped_key();
        od::value x = field.value();
        if (x.type() != od::json_type::number || (k != "rank" && k != "world_size")) {
            validate(x);
            continue;
        }
        if (Number n = numberOf(x); !n.tooLarge) (k == "rank" ? m.rank : m.worldSize) = n.value;
    }
}

// deviceProperties: [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", ...}, ...]
void readDevices(od::value v, TraceMetadata& m) {
    for (auto element : v.get_array()) {
        od::value device = element.value();
        if (device.type() != od::json_type::object) {
            validate(device);
            continue;
        }
        std::int64_t id = -1;
        std::string name;
        for (auto field : device.get_object()) {
            std::string_view k = field.unescaped_key();
            od::value x = field.value();
            od::json_type type = x.type();
            if (k == "id" && type == od::json_type::number) {
                Number n = numberOf(x);
                id = n.tooLarge ? 0 : n.value;
            } else if (k == "name" && type == od::json_type::string) {
                name = stringOf(x);
            } else {
                validate(x);
            }
        }
        if (id >= 0) m.deviceNames[id] = name;
    }
}

// One member of the root object other than traceEvents.
void readRootMember(std::string_view key, od::document& doc, TraceMetadata& m) {
    od::json_type type = doc.type();
    if (key == "distributedInfo" && type == od::json_type::object)
        return readDistributed(od::value(doc.get_value()), m);
    if (key == "deviceProperties" && type == od::json_type::array)
        return readDevices(od::value(doc.get_value()), m);
    if (type == od::json_type::number && (key == "baseTimeNanoseconds" || key == "schemaVersion")) {
        Number n = numberOf(doc);
        if (key == "schemaVersion")
            m.schemaVersion = std::to_string(n.value);
        else if (!n.tooLarge)
            m.baseTimeNs = n.value;
        return;
    }
    if (type == od::json_type::string && (key == "host_name" || key == "schemaVersion")) {
        std::string_view s = doc.get_string();
        (key == "host_name" ? m.hostName : m.schemaVersion) = s;
        return;
    }
    validate(doc);
}

// Walks the root: an object whose traceEvents array is read event by event, or (Chrome's "array format")
// the event array itself.
class TraceReader {
public:
    TraceReader(JsonCursor& cursor, const std::function<void(const ChromeEvent&)>& onEvent)
        : cursor_(cursor), onEvent_(onEvent) {}

    TraceMetadata read() {
        int first = cursor_.peek();
        if (first == '[') {
            readEvents();
        } else if (first == '{') {
            readRoot();
        } else {
            parse(cursor_.value(), [](od::document& doc) { validate(doc); });
        }
        if (cursor_.peek() >= 0) cursor_.fail(cursor_.offset(), "unexpected text after the JSON value");
        return metadata_;
    }

private:
    // Parses `json` (a value the cursor handed out, padded) with `use`; simdjson's errors name its offset.
    template <typename Use>
    void parse(std::string_view json, Use use) {
        bool started = false;
        try {
            auto error = parser_.iterate(simdjson::padded_string_view(json.data(), json.size(),
                                                                      json.size() + JsonCursor::kPadding))
                             .get(doc_);
            if (error) throw simdjson::simdjson_error(error);
            started = true;
            use(doc_); // the value ends where the cursor found its end: nothing can follow it
        } catch (const simdjson::simdjson_error& e) {
            // Where the parser stopped, when it can say: in the value, else the value's first byte (a value
            // refused before iterating it, by stage 1, has no position).
            std::uint64_t at = cursor_.valueOffset();
            const char* stop = nullptr;
            if (started && !doc_.current_location().get(stop) && stop >= json.data() &&
                stop < json.data() + json.size())
                at += static_cast<std::uint64_t>(stop - json.data());
            // simdjson says "does not have the requested type" of a misspelt literal ("tru", "nul").
            cursor_.fail(
                at, e.error() == simdjson::INCORRECT_TYPE
                        ? "invalid literal (true, false, null, a number, a string, an object or an array "
                          "is due)"
                        : e.what());
        }
    }

    void readRoot() {
        cursor_.advance();
        if (cursor_.peek() == '}') return cursor_.advance();
        for (;;) {
            std::string key;
            parse(cursor_.value(), [&](od::document& doc) { key = std::string_view(doc.get_string()); });
            cursor_.expect(':', "after a key of the root object");
            if (key == "traceEvents" && cursor_.peek() == '[')
                readEvents();
            else
                parse(cursor_.value(), [&](od::document& doc) { readRootMember(key, doc, metadata_); });
            int next = cursor_.peek();
            cursor_.advance();
            if (next == '}') return;
            if (next != ',') expectedAfter(next, "a member of the root object");
        }
    }

    void readEvents() {
        metadata_.sawTraceEvents = true;
        cursor_.advance();
        if (cursor_.peek() == ']') return cursor_.advance();
        for (;;) {
            std::string_view json = cursor_.value();
            if (json.front() == '{') {
                parse(json, [&](od::document& doc) {
                    event_.clear();
                    readEvent(doc.get_object(), event_);
                });
                onEvent_(event_);
            } else {
                parse(json, [](od::document& doc) { validate(doc); });
            }
            int next = cursor_.peek();
            cursor_.advance();
            if (next == ']') return;
            if (next != ',') expectedAfter(next, "an element of traceEvents");
        }
    }

    [[noreturn]] void expectedAfter(int found, const char* what) {
        if (found < 0) cursor_.fail(cursor_.offset(), std::string("unexpected end of input after ") + what);
        cursor_.fail(cursor_.offset() - 1, std::string("expected ',' or a closing bracket after ") + what +
                                               ", found '" + static_cast<char>(found) + "'");
    }

    JsonCursor& cursor_;
    const std::function<void(const ChromeEvent&)>& onEvent_;
    od::parser parser_;
    od::document doc_;
    ChromeEvent event_;
    TraceMetadata metadata_;
};

TraceMetadata readTrace(const std::filesystem::path& name, JsonCursor::Reader read,
                        const std::function<void(const ChromeEvent&)>& onEvent) {
    JsonCursor cursor(name, std::move(read));
    auto metadata = TraceReader(cursor, onEvent).read();
    if (!metadata.sawTraceEvents)
        throw Error(name.string() + ": not a PyTorch profiler (Kineto) trace: no \"traceEvents\" array");
    return metadata;
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

std::optional<std::int64_t> microsecondsTextToNs(std::string_view text) {
    // The significant digits of the mantissa (leading zeros carry nothing) and the power of ten they are
    // scaled by: the value in ns is mantissa x 10^(3 + exponent - fraction digits). Only the first 20
    // significant digits and the one after them can matter (int64 has 19); no allocation.
    constexpr std::size_t kKept = 21;
    char digits[kKept];
    std::size_t count = 0, i = 0;
    bool negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
    long scale = 3;
    int seen = 0;
    bool point = false;
    for (; i < text.size(); ++i) {
        char c = text[i];
        if (c >= '0' && c <= '9') {
            ++seen;
            if (point) --scale;
            if (count == 0 && c == '0') continue;
            if (count < kKept) digits[count] = c;
            ++count;
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
    if (count == 0) return 0;
    // Digits beyond the nanosecond decide the rounding (half away from zero) by the first of them only.
    bool roundUp = false;
    auto kept = static_cast<long>(count);
    if (scale < 0) {
        kept += scale;
        if (kept < 0) return 0;
        if (kept > 19) return std::nullopt;
        roundUp = static_cast<std::size_t>(kept) < count && digits[kept] >= '5';
        scale = 0;
    }
    if (kept + scale > 19) return std::nullopt;
    unsigned long long value = 0;
    for (long d = 0; d < kept; ++d) value = value * 10 + static_cast<unsigned long long>(digits[d] - '0');
    for (long z = 0; z < scale; ++z) value *= 10;
    value += roundUp;
    if (value > static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max()))
        return std::nullopt;
    auto v = static_cast<std::int64_t>(value);
    return negative ? -v : v;
}

TraceMetadata readChromeTrace(const std::filesystem::path& name, std::istream& in,
                              const std::function<void(const ChromeEvent&)>& onEvent) {
    return readTrace(
        name,
        [&in](char* out, std::size_t size) {
            in.read(out, static_cast<std::streamsize>(size));
            return static_cast<std::size_t>(in.gcount());
        },
        onEvent);
}

TraceMetadata readChromeTrace(const std::filesystem::path& path,
                              const std::function<void(const ChromeEvent&)>& onEvent,
                              const std::function<void(std::uint64_t)>& progress) {
    constexpr std::uint64_t kProgressStep = 16u << 20;
    GzipStream file(path);
    return readTrace(
        path,
        [&](char* out, std::size_t size) {
            std::size_t n = file.read(out, size);
            std::uint64_t read = file.contentPosition();
            if (progress && n > 0 && read / kProgressStep != (read - n) / kProgressStep) progress(read);
            return n;
        },
        onEvent);
}

} // namespace gpueff::kineto
