#pragma once
// The one reader of input files that may be gzip-compressed (.prv.gz, .json.gz): the Paraver parser and the
// Kineto JSON parser both read through it, so both follow the same end-of-file rule.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace gpueff {

// A file read in chunks, plain or gzip-compressed: gzip when its first two bytes are gzip's magic number
// (whatever its name), one or more gzip members back to back (as `cat a.gz b.gz` makes them) read as one
// stream. The end-of-file rule: a plain file ends where the file ends; a gzip file ends after a complete
// member (its checksum and length checked) at the end of the file. A member cut short, damaged data or a
// wrong checksum, and bytes after the last member that are not another member, throw gpueff::Error
// "PATH: truncated or corrupt gzip file: ..." naming the file and how many bytes had been decompressed.
class GzipStream {
public:
    // Throws gpueff::Error "PATH: cannot open: REASON".
    explicit GzipStream(const std::filesystem::path& path);
    ~GzipStream();
    GzipStream(const GzipStream&) = delete;
    GzipStream& operator=(const GzipStream&) = delete;

    // Up to `size` bytes of the (decompressed) content into `out`, fewer only at the end; 0 at the end.
    std::size_t read(char* out, std::size_t size);

    const std::filesystem::path& path() const { return path_; }
    bool compressed() const { return zstream_ != nullptr; }
    // Bytes of the file consumed so far (compressed bytes for a gzip file), for progress lines against its
    // size.
    std::uint64_t filePosition() const { return fileRead_ - available_; }
    // Bytes of content returned so far.
    std::uint64_t contentPosition() const { return produced_; }

private:
    struct ZStream;
    struct Close {
        void operator()(std::FILE* f) const { std::fclose(f); }
    };
    bool refill();
    std::size_t readPlain(char* out, std::size_t size);
    std::size_t inflateInto(char* out, std::size_t size);
    bool nextMember();
    [[noreturn]] void corrupt(const std::string& why) const;

    std::filesystem::path path_;
    std::unique_ptr<std::FILE, Close> file_;
    std::vector<unsigned char> input_; // bytes read from the file, not yet consumed
    std::size_t next_ = 0;             // the first unconsumed byte of input_
    std::size_t available_ = 0;        // unconsumed bytes from next_
    bool fileEnd_ = false;
    std::uint64_t fileRead_ = 0;
    std::uint64_t produced_ = 0;
    std::unique_ptr<ZStream> zstream_; // set for a gzip file
    bool memberEnded_ = false;         // the last member's trailer was read; another may follow
};

} // namespace gpueff
