#pragma once
#include "engine/paraver/TraceRecord.h"

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace gpueff::paraver {

// Where a row's records go in a .prv line: "cpu:appl:task:thread", all 1-based (cpu 0: none).
struct RowAddress {
    std::uint32_t cpu = 0, appl = 1, task = 1, thread = 1;
};

// The longest record line: 24 pairs of two 20-digit numbers, and the object.
inline constexpr std::size_t kMaxRecordLine = 2048;

// The .prv line of `r` (with its '\n') at `out`, which has room for kMaxRecordLine bytes; its length.
std::size_t formatRecord(const TraceRecord& r, const std::vector<RowAddress>& rows, char* out);

// Buffered .prv body writer: integers are formatted with to_chars into a large buffer, no iostreams.
class PrvWriter {
public:
    // `rows`: the address of each record row (TraceRecord::row); a record's own CPU replaces the row's.
    PrvWriter(const std::filesystem::path& path, const std::string& header, std::vector<RowAddress> rows);
    ~PrvWriter();
    PrvWriter(const PrvWriter&) = delete;
    PrvWriter& operator=(const PrvWriter&) = delete;

    void write(const TraceRecord& r);
    void writeLine(const std::string& line); // metadata comments
    void close();
    std::uint64_t bytesWritten() const { return written_ + used_; }

private:
    void put(char c) { buffer_[used_++] = c; }
    void flushIfNeeded();
    void flush();

    std::filesystem::path path_;
    std::FILE* file_ = nullptr;
    std::vector<char> buffer_;
    std::size_t used_ = 0;
    std::uint64_t written_ = 0;
    std::vector<RowAddress> rows_;
};

} // namespace gpueff::paraver
