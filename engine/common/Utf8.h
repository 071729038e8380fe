#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace gpueff {

// True when `s` is well-formed UTF-8 (no overlong forms, surrogates or code points above U+10FFFF).
bool isValidUtf8(std::string_view s);

// `s` with every ill-formed sequence replaced by U+FFFD (one per maximal ill-formed subpart, as the Unicode
// standard recommends), so names read from files can go into .pcf, JSON and Markdown as text.
std::string repairUtf8(std::string_view s);

// At most `limit` bytes of `text` for an error message: control bytes and bytes outside printable ASCII are
// written as \xNN, so a message quoting a corrupt line stays one readable line.
std::string printableExcerpt(std::string_view text, std::size_t limit = 120);

} // namespace gpueff
