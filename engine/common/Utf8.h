#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace gpueff {

// `text` as valid UTF-8: every byte that does not start or continue a well-formed sequence (overlong forms,
// surrogates and code points above U+10FFFF included) becomes U+FFFD. Names read from input files go
// through it once, at the reader, so JSON writers and terminals downstream never see invalid text.
std::string validUtf8(std::string_view text);

// At most `limit` bytes of `text` for an error message: control bytes and bytes outside printable ASCII are
// written as \xNN, so a message quoting a corrupt line stays one readable line.
std::string printableExcerpt(std::string_view text, std::size_t limit = 120);

} // namespace gpueff
