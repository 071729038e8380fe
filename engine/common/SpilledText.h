#pragma once
// Text written once and read back in order, kept on an unlinked temporary file rather than in memory: a
// trace's labels (.pcf) with a name per NVTX range run to hundreds of MB, which a reader parses a line at a
// time and need never hold whole.
#include "engine/common/SpillStore.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <istream>
#include <memory>
#include <utility>

namespace gpueff {

class SpilledText {
public:
    SpilledText() = default; // empty
    // Writes the text with `write` to a new file in `dir` (named `prefix`-XXXXXX, unlinked at once).
    SpilledText(const std::filesystem::path& dir, const char* prefix,
                const std::function<void(std::FILE*)>& write);
    SpilledText(SpilledText&& other) noexcept
        : store_(std::move(other.store_)), text_(std::exchange(other.text_, {})) {}
    SpilledText& operator=(SpilledText&& other) noexcept {
        store_ = std::move(other.store_);
        text_ = std::exchange(other.text_, {});
        return *this;
    }

    std::uint64_t size() const { return text_.bytes; }
    // Copies the text to `out` (fails naming the file when it cannot be read back).
    void copyTo(std::FILE* out) const;
    // The text from its start, as a stream read through a buffer (several may be open at once).
    std::unique_ptr<std::istream> open() const;

private:
    std::unique_ptr<SpillStore> store_;
    SpillStore::Ref text_;
};

} // namespace gpueff
