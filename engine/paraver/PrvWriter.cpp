#include "engine/paraver/PrvWriter.h"

#include "engine/common/Error.h"

#include <charconv>
#include <cstring>

namespace gpueff::paraver {

namespace {
constexpr std::size_t kBufferSize = 1 << 20;

// Appends to a line being formatted, within kMaxRecordLine.
struct LineFormat {
    char* at;
    void put(char c) { *at++ = c; }
    void number(std::int64_t v) { at = std::to_chars(at, at + 20, v).ptr; }
    void object(const RowAddress& a, std::uint32_t cpu) {
        number(cpu == kRowCpu ? a.cpu : cpu);
        put(':');
        number(a.appl);
        put(':');
        number(a.task);
        put(':');
        number(a.thread);
        put(':');
    }
};
} // namespace

std::size_t formatRecord(const TraceRecord& r, const std::vector<RowAddress>& rows, char* out) {
    LineFormat f{out};
    if (r.isCommunication) {
        const auto& c = r.comm;
        f.put('3');
        f.put(':');
        f.object(rows[c.sendRow], c.sendCpu);
        f.number(c.logicalSend);
        f.put(':');
        f.number(c.physicalSend);
        f.put(':');
        f.object(rows[c.recvRow], c.recvCpu);
        f.number(c.logicalRecv);
        f.put(':');
        f.number(c.physicalRecv);
        f.put(':');
        f.number(c.size);
        f.put(':');
        f.number(c.tag);
    } else if (r.isState) {
        f.put('1');
        f.put(':');
        f.object(rows[r.row], r.cpu);
        f.number(r.time);
        f.put(':');
        f.number(r.state.end);
        f.put(':');
        f.number(r.state.value);
    } else {
        f.put('2');
        f.put(':');
        f.object(rows[r.row], r.cpu);
        f.number(r.time);
        for (std::uint8_t i = 0; i < r.pairCount; ++i) {
            f.put(':');
            f.number(r.pairs[i].type);
            f.put(':');
            f.number(r.pairs[i].value);
        }
    }
    f.put('\n');
    return static_cast<std::size_t>(f.at - out);
}

PrvWriter::PrvWriter(const std::filesystem::path& path, const std::string& header,
                     std::vector<RowAddress> rows)
    : path_(path), buffer_(kBufferSize + kMaxRecordLine), rows_(std::move(rows)) {
    file_ = std::fopen(path.c_str(), "wb");
    if (!file_) throw Error(path.string() + ": cannot open for writing: " + std::strerror(errno));
    writeLine(header);
}

PrvWriter::~PrvWriter() {
    if (file_) std::fclose(file_);
}

void PrvWriter::write(const TraceRecord& r) {
    if (!r.formatted.empty()) {
        std::memcpy(buffer_.data() + used_, r.formatted.data(), r.formatted.size());
        used_ += r.formatted.size();
    } else {
        used_ += formatRecord(r, rows_, buffer_.data() + used_);
    }
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
