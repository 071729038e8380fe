#include "engine/kineto/JsonCursor.h"

#include "engine/common/Error.h"

#include <array>
#include <cstring>

namespace gpueff::kineto {

namespace {

constexpr std::size_t kChunk = 1 << 20;
constexpr std::size_t kMore = static_cast<std::size_t>(-1); // the value goes on past the bytes read

bool isSpace(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

bool endsScalar(char c) {
    return isSpace(c) || c == ',' || c == '}' || c == ']' || c == ':';
}

// The index past the quote closing the string whose body starts at `p`, or kMore. A quote closes the
// string unless an odd number of backslashes precede it (all of them are in the string, so in the buffer).
std::size_t stringEnd(const char* buffer, std::size_t p, std::size_t end) {
    while (p < end) {
        const void* q = std::memchr(buffer + p, '"', end - p);
        if (!q) return kMore;
        std::size_t quote = static_cast<std::size_t>(static_cast<const char*>(q) - buffer), b = quote;
        while (b > p && buffer[b - 1] == '\\') --b;
        p = quote + 1;
        if ((quote - b) % 2 == 0) return p;
    }
    return kMore;
}

} // namespace

JsonCursor::JsonCursor(std::filesystem::path name, Reader read)
    : name_(std::move(name)), read_(std::move(read)), buffer_(kChunk + kPadding) {}

bool JsonCursor::fill() {
    if (eof_) return false;
    if (keep_ > 0) {
        std::memmove(buffer_.data(), buffer_.data() + keep_, end_ - keep_);
        base_ += keep_, pos_ -= keep_, end_ -= keep_, keep_ = 0;
    }
    // A value longer than the buffer (rare: events are small) doubles it.
    if (buffer_.size() - kPadding - end_ < kChunk / 2) buffer_.resize(2 * buffer_.size());
    std::size_t n = read_(buffer_.data() + end_, buffer_.size() - kPadding - end_);
    if (n == 0) {
        eof_ = true;
        return false;
    }
    end_ += n;
    return true;
}

int JsonCursor::peek() {
    for (;;) {
        while (pos_ < end_) {
            char c = buffer_[pos_];
            if (!isSpace(c)) return static_cast<unsigned char>(c);
            ++pos_;
        }
        keep_ = pos_;
        if (!fill()) return -1;
    }
}

void JsonCursor::expect(char c, const char* where) {
    int next = peek();
    if (next == c) return advance();
    if (next < 0) fail(offset(), std::string("unexpected end of input; expected '") + c + "' " + where);
    fail(offset(),
         std::string("expected '") + c + "' " + where + ", found '" + static_cast<char>(next) + "'");
}

// The end of the value starting at `from`, or kMore when it goes on past the bytes read.
std::size_t JsonCursor::scanEnd(std::size_t from) {
    const char* b = buffer_.data();
    char first = b[from];
    if (first == '"') return stringEnd(b, from + 1, end_);
    if (first != '{' && first != '[') {
        for (std::size_t p = from + 1; p < end_; ++p)
            if (endsScalar(b[p])) return p;
        return eof_ ? end_ : kMore;
    }
    // Brackets and quotes, the only bytes that move the scan: one table lookup for every other byte.
    static constexpr auto kStructural = [] {
        std::array<bool, 256> t{};
        for (unsigned char c : {'"', '{', '}', '[', ']'}) t[c] = true;
        return t;
    }();
    std::size_t depth = 0;
    for (std::size_t p = from; p < end_;) {
        char c = b[p++];
        if (!kStructural[static_cast<unsigned char>(c)]) continue;
        if (c == '"') {
            p = stringEnd(b, p, end_);
            if (p == kMore) return kMore;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            return p;
        }
    }
    return kMore;
}

std::string_view JsonCursor::value() {
    if (peek() < 0) fail(offset(), "unexpected end of input; a value was due");
    keep_ = pos_;
    valueOffset_ = base_ + pos_;
    for (;;) {
        // Scanned again from its first byte after a refill: a value spans few refills (the buffer doubles).
        std::size_t end = scanEnd(pos_);
        if (end != kMore) {
            std::string_view v(buffer_.data() + pos_, end - pos_);
            pos_ = end;
            return v;
        }
        if (!fill()) {
            if (scanEnd(pos_) != kMore) continue; // a scalar ending the input
            fail(valueOffset_, "unexpected end of input inside this value");
        }
    }
}

void JsonCursor::fail(std::uint64_t offset, const std::string& what) const {
    bool early = eof_ && what.find("end of input") != std::string::npos;
    throw Error(name_.string() + ": invalid JSON at byte " + std::to_string(offset) + ": " + what +
                (early ? " (a truncated file?)" : ""));
}

} // namespace gpueff::kineto
