#include "engine/common/SpilledText.h"

#include "engine/common/WriteThrough.h"

#include <streambuf>
#include <string>
#include <vector>

namespace gpueff {

namespace {

constexpr std::size_t kBufferBytes = 1 << 16;

// Reads a spilled text through a buffer of its own, so that several readers of one file need no shared
// offset.
class SpilledBuffer : public std::streambuf {
public:
    SpilledBuffer(const SpillStore* store, const SpillStore::Ref& text) : store_(store), text_(text) {}

protected:
    int_type underflow() override {
        if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
        if (at_ >= text_.bytes) return traits_type::eof();
        buffer_.resize(static_cast<std::size_t>(std::min<std::uint64_t>(kBufferBytes, text_.bytes - at_)));
        store_->read(text_, at_, buffer_.size(), buffer_.data()); // throws naming the temporary file
        at_ += buffer_.size();
        setg(buffer_.data(), buffer_.data(), buffer_.data() + buffer_.size());
        return traits_type::to_int_type(*gptr());
    }

private:
    const SpillStore* store_; // null for a default or moved-from text
    SpillStore::Ref text_;
    std::uint64_t at_ = 0;
    std::vector<char> buffer_;
};

class SpilledStream : public std::istream {
public:
    SpilledStream(const SpillStore* store, const SpillStore::Ref& text)
        : std::istream(nullptr), buffer_(store, text) {
        rdbuf(&buffer_);
        exceptions(std::ios::badbit); // a failed read throws its own error, naming the temporary file
    }

private:
    SpilledBuffer buffer_;
};

} // namespace

SpilledText::SpilledText(const std::filesystem::path& dir, const char* prefix,
                         const std::function<void(std::FILE*)>& write)
    : store_(std::make_unique<SpillStore>(dir, prefix)) {
    if (!write) return;
    // The store's one text: its appends follow each other from offset 0.
    std::string block;
    auto flush = [&] {
        text_.bytes += store_->append(block).bytes;
        block.clear();
    };
    writeThrough(write, [&](std::string_view bytes) {
        block.append(bytes);
        if (block.size() >= kBufferBytes) flush();
    });
    flush();
}

void SpilledText::copyTo(std::FILE* out) const {
    std::vector<char> buffer(kBufferBytes);
    for (std::uint64_t at = 0; at < text_.bytes;) {
        auto n = static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), text_.bytes - at));
        store_->read(text_, at, n, buffer.data());
        // A failed output stream is its writer's to report (ferror): no use reading the rest.
        if (std::fwrite(buffer.data(), 1, n, out) != n) return;
        at += n;
    }
}

std::unique_ptr<std::istream> SpilledText::open() const {
    return std::make_unique<SpilledStream>(store_.get(), text_);
}

} // namespace gpueff
