#include "engine/common/GzipStream.h"

#include "engine/common/Error.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <zlib.h>

namespace gpueff {

namespace {
constexpr std::size_t kInputBytes = 1 << 18;
constexpr unsigned char kGzipMagic[2] = {0x1f, 0x8b};
} // namespace

struct GzipStream::ZStream {
    z_stream z{};
    ZStream() {
        // 15 + 16: a gzip wrapper (header, CRC-32 and length trailer) around a deflate stream of any window.
        if (inflateInit2(&z, 15 + 16) != Z_OK) throw Error("zlib: cannot initialize a decompressor");
    }
    ~ZStream() { inflateEnd(&z); }
    ZStream(const ZStream&) = delete;
    ZStream& operator=(const ZStream&) = delete;
};

GzipStream::GzipStream(const std::filesystem::path& path)
    : path_(path), file_(std::fopen(path.c_str(), "rb")), input_(kInputBytes) {
    if (!file_) throw Error(path_.string() + ": cannot open: " + std::strerror(errno));
    while (available_ < 2 && refill()) {
    }
    if (available_ >= 2 && input_[0] == kGzipMagic[0] && input_[1] == kGzipMagic[1])
        zstream_ = std::make_unique<ZStream>();
}

GzipStream::~GzipStream() = default;

std::size_t GzipStream::read(char* out, std::size_t size) {
    if (size == 0) return 0;
    return compressed() ? inflateInto(out, size) : readPlain(out, size);
}

// Reads more of the file behind the unconsumed bytes (moved to the front); false at the end of the file.
bool GzipStream::refill() {
    if (fileEnd_) return false;
    if (available_ == input_.size()) return true;
    if (next_ > 0) {
        std::memmove(input_.data(), input_.data() + next_, available_);
        next_ = 0;
    }
    auto n = std::fread(input_.data() + available_, 1, input_.size() - available_, file_.get());
    if (n == 0) {
        if (std::ferror(file_.get())) throw Error(path_.string() + ": cannot read: " + std::strerror(errno));
        fileEnd_ = true;
        return false;
    }
    available_ += n;
    fileRead_ += n;
    return true;
}

std::size_t GzipStream::readPlain(char* out, std::size_t size) {
    std::size_t got = 0;
    while (got < size && (available_ > 0 || refill())) {
        auto n = std::min(size - got, available_);
        std::memcpy(out + got, input_.data() + next_, n);
        next_ += n;
        available_ -= n;
        got += n;
    }
    produced_ += got;
    return got;
}

std::size_t GzipStream::inflateInto(char* out, std::size_t size) {
    z_stream& z = zstream_->z;
    z.next_out = reinterpret_cast<Bytef*>(out);
    z.avail_out = static_cast<uInt>(std::min<std::size_t>(size, UINT_MAX));
    const uInt wanted = z.avail_out;
    while (z.avail_out > 0) {
        if (memberEnded_ && !nextMember()) break;
        // inflate stops with output room left only when it needs more input: none left is a member cut short.
        if (available_ == 0 && !refill()) corrupt("the file ends inside a compressed member");
        z.next_in = input_.data() + next_;
        z.avail_in = static_cast<uInt>(available_);
        uInt before = z.avail_out;
        int rc = inflate(&z, Z_NO_FLUSH);
        std::size_t used = available_ - z.avail_in;
        next_ += used;
        available_ -= used;
        produced_ += before - z.avail_out;
        if (rc == Z_STREAM_END) {
            memberEnded_ = true;
        } else if (rc == Z_MEM_ERROR) {
            throw Error(path_.string() + ": out of memory decompressing");
        } else if (rc == Z_NEED_DICT) {
            corrupt("a member needs a preset dictionary");
        } else if (rc != Z_OK && rc != Z_BUF_ERROR) { // Z_BUF_ERROR: no progress without more input
            corrupt(z.msg ? z.msg : "zlib error " + std::to_string(rc));
        }
    }
    return wanted - z.avail_out;
}

// After a member's trailer: true when another member follows (the decompressor reset for it), false at the
// end of the file. Anything else after the last member is refused rather than silently ignored.
bool GzipStream::nextMember() {
    while (available_ < 2 && refill()) {
    }
    if (available_ == 0) return false;
    if (available_ < 2 || input_[next_] != kGzipMagic[0] || input_[next_ + 1] != kGzipMagic[1])
        corrupt("bytes that are not gzip data follow the compressed data at byte " +
                std::to_string(filePosition()) + " of the file");
    inflateReset(&zstream_->z);
    memberEnded_ = false;
    return true;
}

void GzipStream::corrupt(const std::string& why) const {
    throw Error(path_.string() + ": truncated or corrupt gzip file: " + why + " (after " +
                std::to_string(produced_) + " bytes decompressed)");
}

} // namespace gpueff
