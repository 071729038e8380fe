#pragma once
// A cursor over a JSON text read in chunks (a file, plain or gzip, or any stream), which hands out whole
// values one at a time: the Chrome-trace reader walks the root object and the traceEvents array with it
// and gives each event, a few hundred bytes, to simdjson's On-Demand parser (ChromeTrace.cpp). Only the
// current value and one chunk are held, never the file.
//
// The cursor finds where a value ends by its brackets and strings alone (escapes included); whether the
// value is valid JSON is the parser's business. Every value handed out is followed by at least `kPadding`
// readable bytes, as simdjson requires.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gpueff::kineto {

class JsonCursor {
public:
    // Reads up to `size` bytes into `out`; 0 at the end of the input.
    using Reader = std::function<std::size_t(char* out, std::size_t size)>;
    static constexpr std::size_t kPadding = 64; // >= SIMDJSON_PADDING (checked in ChromeTrace.cpp)

    // `name` stands for the input in messages.
    JsonCursor(std::filesystem::path name, Reader read);

    // The next character after white space, without consuming it; -1 at the end of the input.
    int peek();
    // Consumes the character peek() returned.
    void advance() { ++pos_; }
    // Consumes `c` after white space, or throws naming what was found instead.
    void expect(char c, const char* where);
    // The next value after white space, consumed: an object or array up to its closing bracket, a string up
    // to its closing quote, or a scalar up to the next delimiter. Valid until the next call.
    std::string_view value();
    // Byte offset in the (uncompressed) input of the next character, or of the last value's first byte.
    std::uint64_t offset() const { return base_ + pos_; }
    std::uint64_t valueOffset() const { return valueOffset_; }

    // Throws gpueff::Error "NAME: invalid JSON at byte OFFSET: WHAT", adding "(a truncated file?)" when
    // the input ended early.
    [[noreturn]] void fail(std::uint64_t offset, const std::string& what) const;

private:
    bool fill(); // reads more input, keeping bytes from the value being scanned; false at the end
    std::size_t scanEnd(std::size_t from);

    std::filesystem::path name_;
    Reader read_;
    std::vector<char> buffer_;
    std::size_t pos_ = 0, end_ = 0; // next byte, end of the bytes read
    std::size_t keep_ = 0;          // the first byte fill() must keep (the value being scanned)
    std::uint64_t base_ = 0;        // input offset of buffer_[0]
    std::uint64_t valueOffset_ = 0;
    bool eof_ = false;
};

} // namespace gpueff::kineto
