#pragma once
#include <string>
#include <string_view>

namespace gpueff {

// True when `s` is well-formed UTF-8 (no overlong forms, surrogates or code points above U+10FFFF).
bool isValidUtf8(std::string_view s);

// `s` with every ill-formed sequence replaced by U+FFFD (one per maximal ill-formed subpart, as the Unicode
// standard recommends), so names read from files can go into .pcf, JSON and Markdown as text.
std::string repairUtf8(std::string_view s);

} // namespace gpueff
