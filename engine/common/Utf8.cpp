#include "engine/common/Utf8.h"

#include <cstdint>

namespace gpueff {

namespace {

// Length of the well-formed sequence at s[i], or 0 when it is ill-formed; `bad` is then the length of the
// maximal subpart to replace (at least 1).
std::size_t sequenceAt(std::string_view s, std::size_t i, std::size_t& bad) {
    auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char b0 = byte(i);
    bad = 1;
    if (b0 < 0x80) return 1;
    std::size_t n;
    unsigned char lo = 0x80, hi = 0xBF; // the range of the second byte (Unicode table 3-7)
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        n = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        n = 3;
        if (b0 == 0xE0) lo = 0xA0;
        if (b0 == 0xED) hi = 0x9F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        n = 4;
        if (b0 == 0xF0) lo = 0x90;
        if (b0 == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    for (std::size_t k = 1; k < n; ++k) {
        if (i + k >= s.size()) return 0;
        unsigned char b = byte(i + k);
        if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return 0;
        bad = k + 1;
    }
    return n;
}

} // namespace

bool isValidUtf8(std::string_view s) {
    std::size_t i = 0, bad = 0;
    while (i < s.size()) {
        // ASCII runs are the common case (kernel and range names): skip them a byte at a time, no decoding.
        if (static_cast<unsigned char>(s[i]) < 0x80) {
            ++i;
            continue;
        }
        std::size_t n = sequenceAt(s, i, bad);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

std::string repairUtf8(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 8);
    std::size_t i = 0, bad = 0;
    while (i < s.size()) {
        std::size_t n = sequenceAt(s, i, bad);
        if (n == 0) {
            out += "\xEF\xBF\xBD";
            i += bad;
            continue;
        }
        out.append(s.substr(i, n));
        i += n;
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
