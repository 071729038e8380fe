#pragma once
// Bytes that stay where they were put until the arena goes: names and labels packed in chunks, so that
// millions of short texts cost their length and no allocation each. Chunks grow from 4 KiB to `largestChunk`
// (a text larger than that gets a chunk of its own): an arena of a few texts takes a few KiB, one of millions
// a chunk per `largestChunk` bytes. Chunks are not zeroed. Not thread-safe.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

namespace gpueff {

class TextArena {
public:
    explicit TextArena(std::size_t largestChunk = std::size_t{1} << 20) : largest_(largestChunk) {}
    TextArena(TextArena&& other) noexcept { *this = std::move(other); }
    TextArena& operator=(TextArena&& other) noexcept {
        if (this != &other) {
            chunks_ = std::exchange(other.chunks_, {});
            used_ = std::exchange(other.used_, 0);
            size_ = std::exchange(other.size_, 0);
            largest_ = other.largest_;
        }
        return *this;
    }
    TextArena(const TextArena&) = delete;
    TextArena& operator=(const TextArena&) = delete;

    // `n` bytes of the current chunk, or of a new one.
    char* allocate(std::size_t n) {
        if (chunks_.empty() || used_ + n > size_) {
            size_ =
                std::max(std::clamp<std::size_t>(2 * size_, kFirstChunk, std::max(largest_, kFirstChunk)), n);
            chunks_.push_back(std::make_unique_for_overwrite<char[]>(size_));
            used_ = 0;
        }
        char* at = chunks_.back().get() + used_;
        used_ += n;
        return at;
    }
    std::string_view copy(std::string_view text) {
        char* at = allocate(text.size());
        if (!text.empty()) std::memcpy(at, text.data(), text.size());
        return {at, text.size()};
    }

private:
    static constexpr std::size_t kFirstChunk = std::size_t{1} << 12;
    std::vector<std::unique_ptr<char[]>> chunks_;
    std::size_t used_ = 0, size_ = 0, largest_;
};

} // namespace gpueff
