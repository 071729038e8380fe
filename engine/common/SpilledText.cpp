#include "engine/common/SpilledText.h"

#include "engine/common/Error.h"
#include "engine/common/SpillStore.h"

#include <cerrno>
#include <streambuf>
#include <unistd.h>
#include <utility>
#include <vector>

namespace gpueff {

namespace {

constexpr std::size_t kBufferBytes = 1 << 16;

// Reads [0, size) of a file descriptor with pread, so that several readers of one file need no shared offset.
class PreadBuffer : public std::streambuf {
public:
    PreadBuffer(int fd, std::uint64_t size, const std::filesystem::path& dir)
        : fd_(fd), size_(size), dir_(dir), buffer_(kBufferBytes) {}

protected:
    int_type underflow() override {
        if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
        if (at_ >= size_) return traits_type::eof();
        std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(buffer_.size(), size_ - at_));
        auto got = ::pread(fd_, buffer_.data(), want, static_cast<off_t>(at_));
        if (got == 0) errno = EIO; // shorter than written: no errno of its own
        if (got <= 0) throw Error(temporaryFileError(dir_, "read"));
        at_ += static_cast<std::uint64_t>(got);
        setg(buffer_.data(), buffer_.data(), buffer_.data() + got);
        return traits_type::to_int_type(*gptr());
    }

private:
    int fd_;
    std::uint64_t size_, at_ = 0;
    std::filesystem::path dir_;
    std::vector<char> buffer_;
};

class PreadStream : public std::istream {
public:
    PreadStream(int fd, std::uint64_t size, const std::filesystem::path& dir)
        : std::istream(nullptr), buffer_(fd, size, dir) {
        rdbuf(&buffer_);
        exceptions(std::ios::badbit); // a failed read throws its own error, naming the temporary file
    }

private:
    PreadBuffer buffer_;
};

} // namespace

SpilledText::SpilledText(const std::filesystem::path& dir, const char* prefix,
                         const std::function<void(std::FILE*)>& write)
    : dir_(dir), fd_(unlinkedTemporaryFile(dir, prefix)) {
    try {
        size_ = writeAll(write);
    } catch (...) {
        ::close(fd_); // the destructor does not run: the file and its blocks would stay until exit
        throw;
    }
}

std::uint64_t SpilledText::writeAll(const std::function<void(std::FILE*)>& write) {
    if (!write) return 0;
    int writing = ::dup(fd_);
    std::FILE* f = writing >= 0 ? ::fdopen(writing, "w") : nullptr;
    if (!f) {
        if (writing >= 0) ::close(writing);
        throw Error(temporaryFileError(dir_, "write"));
    }
    try {
        write(f);
    } catch (...) {
        std::fclose(f);
        throw;
    }
    bool failed = std::fflush(f) != 0 || std::ferror(f);
    auto end = std::ftell(f);
    if (std::fclose(f) != 0 || failed || end < 0) throw Error(temporaryFileError(dir_, "write"));
    return static_cast<std::uint64_t>(end);
}

SpilledText::~SpilledText() {
    if (fd_ >= 0) ::close(fd_);
}

SpilledText::SpilledText(SpilledText&& other) noexcept
    : dir_(std::move(other.dir_)), fd_(std::exchange(other.fd_, -1)), size_(std::exchange(other.size_, 0)) {}

SpilledText& SpilledText::operator=(SpilledText&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        dir_ = std::move(other.dir_);
        fd_ = std::exchange(other.fd_, -1);
        size_ = std::exchange(other.size_, 0);
    }
    return *this;
}

void SpilledText::copyTo(std::FILE* out) const {
    std::vector<char> buffer(kBufferBytes);
    for (std::uint64_t at = 0; at < size_;) {
        std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), size_ - at));
        auto got = ::pread(fd_, buffer.data(), want, static_cast<off_t>(at));
        if (got == 0) errno = EIO;
        if (got <= 0) throw Error(temporaryFileError(dir_, "read"));
        // A failed output stream is its writer's to report (ferror): no use reading the rest.
        if (std::fwrite(buffer.data(), 1, static_cast<std::size_t>(got), out) !=
            static_cast<std::size_t>(got))
            return;
        at += static_cast<std::uint64_t>(got);
    }
}

std::unique_ptr<std::istream> SpilledText::open() const {
    return std::make_unique<PreadStream>(fd_, size_, dir_);
}

} // namespace gpueff
