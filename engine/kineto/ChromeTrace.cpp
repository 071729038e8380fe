#include "engine/kineto/ChromeTrace.h"

#include "engine/common/Error.h"
#include "engine/common/GzipStream.h"
#include "engine/kineto/EventFields.h"
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
using fields::readEvent;
using fields::readRootMember;
using fields::validate;
static_assert(JsonCursor::kPadding >= simdjson::SIMDJSON_PADDING);

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
            auto error = parser_
                             .iterate(simdjson::padded_string_view(json.data(), json.size(),
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
