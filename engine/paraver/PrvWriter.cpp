#include "engine/paraver/PrvWriter.h"

#include "engine/common/Error.h"

#include <charconv>
#include <cstring>

namespace gpueff::paraver {

namespace {
constexpr std::size_t kBufferSize = 1 << 20;
constexpr std::size_t kMaxLine = 2048; // a record line never exceeds this (24 pairs of two 20-digit numbers)
} // namespace

PrvWriter::PrvWriter(const std::filesystem::path& path, const std::string& header,
                     std::vector<RowAddress> rows)
    : path_(path), buffer_(kBufferSize + kMaxLine), rows_(std::move(rows)) {
    file_ = std::fopen(path.c_str(), "wb");
    if (!file_) throw Error(path.string() + ": cannot open for writing: " + std::strerror(errno));
    writeLine(header);
}

PrvWriter::~PrvWriter() {
    if (file_) std::fclose(file_);
}

void PrvWriter::number(std::int64_t v) {
    auto res = std::to_chars(buffer_.data() + used_, buffer_.data() + buffer_.size(), v);
    used_ = static_cast<std::size_t>(res.ptr - buffer_.data());
}

void PrvWriter::object(std::uint32_t row, std::uint32_t cpu) {
    const auto& a = rows_[row];
    number(cpu == kRowCpu ? a.cpu : cpu);
    put(':');
    number(a.appl);
    put(':');
    number(a.task);
    put(':');
    number(a.thread);
    put(':');
}

void PrvWriter::write(const TraceRecord& r) {
    if (r.isCommunication) {
        const auto& c = r.comm;
        put('3');
        put(':');
        object(c.sendRow, c.sendCpu);
        number(c.logicalSend);
        put(':');
        number(c.physicalSend);
        put(':');
        object(c.recvRow, c.recvCpu);
        number(c.logicalRecv);
        put(':');
        number(c.physicalRecv);
        put(':');
        number(c.size);
        put(':');
        number(c.tag);
    } else if (r.isState) {
        put('1');
        put(':');
        object(r.row, r.cpu);
        number(r.time);
        put(':');
        number(r.state.end);
        put(':');
        number(r.state.value);
    } else {
        put('2');
        put(':');
        object(r.row, r.cpu);
        number(r.time);
        for (std::uint8_t i = 0; i < r.pairCount; ++i) {
            put(':');
            number(r.pairs[i].type);
            put(':');
            number(r.pairs[i].value);
        }
    }
    put('\n');
    flushIfNeeded();
}

void PrvWriter::writeLine(const std::string& line) {
    if (used_ + line.size() + 1 > buffer_.size()) flush();
    if (line.size() + 1 > buffer_.size()) buffer_.resize(line.size() + 1);
    std::memcpy(buffer_.data() + used_, line.data(), line.size());
    used_ += line.size();
    put('\n');
    flushIfNeeded();
}

void PrvWriter::flushIfNeeded() {
    if (used_ >= kBufferSize) flush();
}

void PrvWriter::flush() {
    if (used_ == 0) return;
    if (std::fwrite(buffer_.data(), 1, used_, file_) != used_)
        throw Error(path_.string() + ": write failed: " + std::strerror(errno));
    written_ += used_;
    used_ = 0;
}

void PrvWriter::close() {
    flush();
    if (std::fclose(file_) != 0) {
        file_ = nullptr;
        throw Error(path_.string() + ": write failed on close: " + std::strerror(errno));
    }
    file_ = nullptr;
}

} // namespace gpueff::paraver
