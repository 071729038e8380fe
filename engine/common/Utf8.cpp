#include "engine/common/Utf8.h"

#include <cstdint>

namespace gpueff {

namespace {

// Length of the well-formed UTF-8 sequence at the start of `s` (RFC 3629, table 3-7 of the Unicode
// standard), or 0 when its first byte does not start one.
std::size_t sequenceLength(std::string_view s) {
    auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(s[i]); };
    auto continuation = [&](std::size_t i, std::uint8_t lo = 0x80, std::uint8_t hi = 0xBF) {
        return i < s.size() && byte(i) >= lo && byte(i) <= hi;
    };
    std::uint8_t b = byte(0);
    if (b < 0x80) return 1;
    if (b >= 0xC2 && b <= 0xDF) return continuation(1) ? 2 : 0;
    if (b >= 0xE0 && b <= 0xEF) {
        std::uint8_t lo = b == 0xE0 ? 0xA0 : 0x80; // no overlong forms
        std::uint8_t hi = b == 0xED ? 0x9F : 0xBF; // no surrogates
        return continuation(1, lo, hi) && continuation(2) ? 3 : 0;
    }
    if (b >= 0xF0 && b <= 0xF4) {
        std::uint8_t lo = b == 0xF0 ? 0x90 : 0x80; // no overlong forms
        std::uint8_t hi = b == 0xF4 ? 0x8F : 0xBF; // nothing above U+10FFFF
        return continuation(1, lo, hi) && continuation(2) && continuation(3) ? 4 : 0;
    }
    return 0;
}

} // namespace

std::string validUtf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    while (!text.empty()) {
        auto n = sequenceLength(text);
        if (n == 0) {
            out += "\xEF\xBF\xBD"; // U+FFFD REPLACEMENT CHARACTER
            n = 1;
        } else {
            out.append(text.substr(0, n));
        }
        text.remove_prefix(n);
    }
    return out;
}

std::string printableExcerpt(std::string_view text, std::size_t limit) {
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < text.size() && i < limit; ++i) {
        auto c = static_cast<std::uint8_t>(text[i]);
        if (c >= 0x20 && c < 0x7F) {
            out.push_back(static_cast<char>(c));
        } else {
            out += "\\x";
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 0xF]);
        }
    }
    if (text.size() > limit) out += "...";
    return out;
}

} // namespace gpueff
