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
                     std::vector<std::uint32_t> cpuOfRow, std::vector<std::uint32_t> taskOfRow,
                     std::vector<std::uint32_t> localOfRow)
    : path_(path), buffer_(kBufferSize + kMaxLine), cpu_(std::move(cpuOfRow)), task_(std::move(taskOfRow)),
      local_(std::move(localOfRow)) {
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

void PrvWriter::object(std::uint32_t row) {
    number(cpu_[row]);
    put(':');
    put('1');
    put(':');
    number(task_[row] + 1);
    put(':');
    number(local_[row] + 1);
    put(':');
}

void PrvWriter::write(const TraceRecord& r) {
    if (r.isCommunication) {
        const auto& c = r.comm;
        put('3');
        put(':');
        object(c.sendRow);
        number(c.logicalSend);
        put(':');
        number(c.physicalSend);
        put(':');
        object(c.recvRow);
        number(c.logicalRecv);
        put(':');
        number(c.physicalRecv);
        put(':');
        number(c.size);
        put(':');
        number(c.tag);
    } else {
        put('2');
        put(':');
        object(r.row);
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
