#include "engine/common/SpillStore.h"

#include "engine/common/Error.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace gpueff {

std::string temporaryFileError(const std::filesystem::path& dir, const char* what) {
    return dir.string() + ": cannot " + what + " the analysis' temporary file: " + std::strerror(errno);
}

int unlinkedTemporaryFile(const std::filesystem::path& dir, const char* prefix) {
    auto pattern = (dir / (std::string(prefix) + "-XXXXXX")).string();
    int fd = ::mkstemp(pattern.data());
    if (fd < 0) throw Error(temporaryFileError(dir, "create"));
    ::unlink(pattern.c_str());
    return fd;
}

SpillStore::SpillStore() = default;

SpillStore::SpillStore(const std::filesystem::path& dir, const char* prefix)
    : dir_(dir), fd_(unlinkedTemporaryFile(dir, prefix)) {}

SpillStore::~SpillStore() {
    if (fd_ >= 0) ::close(fd_);
}

SpillStore::Ref SpillStore::append(std::string_view bytes) {
    if (bytes.empty()) return {size_, 0};
    if (fd_ < 0) {
        std::lock_guard lock(memoryMutex_);
        Ref ref{memory_.size(), bytes.size()};
        memory_.append(bytes);
        size_ = memory_.size();
        return ref;
    }
    // Each writer reserves its stretch of the file, then writes it without a lock.
    Ref ref{size_.fetch_add(bytes.size()), bytes.size()};
    for (std::size_t put = 0; put < bytes.size();) {
        auto n = ::pwrite(fd_, bytes.data() + put, bytes.size() - put, static_cast<off_t>(ref.offset + put));
        if (n <= 0) throw Error(temporaryFileError(dir_, "write"));
        put += static_cast<std::size_t>(n);
    }
    return ref;
}

void SpillStore::read(const Ref& ref, std::uint64_t at, std::size_t n, char* out) const {
    if (at + n > ref.bytes) throw Error("internal error: a read past the end of a spilled partial");
    if (n == 0) return; // `out` may be null (an empty vector's data())
    if (fd_ < 0) {
        std::lock_guard lock(memoryMutex_);
        std::memcpy(out, memory_.data() + ref.offset + at, n);
        return;
    }
    for (std::size_t got = 0; got < n;) {
        auto r = ::pread(fd_, out + got, n - got, static_cast<off_t>(ref.offset + at + got));
        if (r == 0) errno = EIO; // shorter than written: no errno of its own
        if (r <= 0) throw Error(temporaryFileError(dir_, "read"));
        got += static_cast<std::size_t>(r);
    }
}

SpillStore::Ref SpillStore::appendValues(std::span<const std::int64_t> values) {
    return append({reinterpret_cast<const char*>(values.data()), values.size_bytes()});
}

std::vector<std::int64_t> SpillStore::loadValues(const Ref& ref) const {
    if (ref.bytes % sizeof(std::int64_t) != 0) throw Error("internal error: a spilled partial of odd size");
    std::vector<std::int64_t> values(ref.bytes / sizeof(std::int64_t));
    read(ref, 0, ref.bytes, reinterpret_cast<char*>(values.data()));
    return values;
}

SpillStore::Cursor::Cursor(const SpillStore& store, const Ref& ref, std::uint64_t at, std::uint64_t bytes,
                           std::size_t bufferBytes)
    : store_(&store), ref_(ref), position_(at), end_(at + bytes),
      capacity_(std::max<std::size_t>(1, bufferBytes / sizeof(std::int64_t))) {}

void SpillStore::Cursor::fill() {
    auto left = (end_ - position_) / sizeof(std::int64_t);
    if (left == 0) throw Error("internal error: a read past the end of a spilled partial");
    buffer_.resize(std::min<std::uint64_t>(left, capacity_));
    store_->read(ref_, position_, buffer_.size() * sizeof(std::int64_t),
                 reinterpret_cast<char*>(buffer_.data()));
    position_ += buffer_.size() * sizeof(std::int64_t);
    index_ = 0;
}

std::int64_t SpillStore::Cursor::next() {
    if (index_ == buffer_.size()) fill();
    return buffer_[index_++];
}

} // namespace gpueff
