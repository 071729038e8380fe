#pragma once
// Bytes kept between two stages that need not stay in memory: the analysis' partial results of each task
// wait here from the look that computes them to the reduction that reads them back in order, a block at a
// time; a trace's labels wait here for the analysis (SpilledText). On an unlinked temporary file (nothing is
// left after a crash) or, without a directory, in memory.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpueff {

class SpillStore {
public:
    // Where some appended bytes lie.
    struct Ref {
        std::uint64_t offset = 0, bytes = 0;
        static void fields(auto& s, auto&& f) {
            f("offset", s.offset);
            f("bytes", s.bytes);
        }
    };

    SpillStore(); // in memory
    // On a file in `dir` named `prefix`-XXXXXX, unlinked at once.
    explicit SpillStore(const std::filesystem::path& dir, const char* prefix = ".gpueff-partials");
    ~SpillStore();
    SpillStore(const SpillStore&) = delete;
    SpillStore& operator=(const SpillStore&) = delete;

    bool onDisk() const { return fd_ >= 0; }
    // Thread-safe, with reads as well.
    Ref append(std::string_view bytes);
    // `n` bytes at `at` within `ref`.
    void read(const Ref& ref, std::uint64_t at, std::size_t n, char* out) const;
    Ref appendValues(std::span<const std::int64_t> values);
    std::vector<std::int64_t> loadValues(const Ref& ref) const;
    std::uint64_t size() const { return size_; }

    // Reads a stretch of a Ref in order, as 64-bit values, through a buffer of `bufferBytes`.
    class Cursor {
    public:
        Cursor(const SpillStore& store, const Ref& ref, std::uint64_t at, std::uint64_t bytes,
               std::size_t bufferBytes);
        std::int64_t next();
        bool done() const { return position_ == end_ && index_ == buffer_.size(); }

    private:
        void fill();
        const SpillStore* store_;
        Ref ref_;
        std::uint64_t position_, end_; // within ref_, not yet buffered
        std::vector<std::int64_t> buffer_;
        std::size_t index_ = 0, capacity_;
    };

private:
    std::filesystem::path dir_;
    int fd_ = -1;
    std::atomic<std::uint64_t> size_{0};
    mutable std::mutex memoryMutex_; // in memory only
    std::string memory_;
};

// A file in `dir` for this process alone, unlinked at once (nothing is left after a crash): its descriptor.
int unlinkedTemporaryFile(const std::filesystem::path& dir, const char* prefix);
// "DIR: cannot WHAT the analysis' temporary file: <errno's text>".
std::string temporaryFileError(const std::filesystem::path& dir, const char* what);

// Appends values to a byte string, as a Cursor reads them back.
inline void appendValue(std::string& out, std::int64_t v) {
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

} // namespace gpueff
