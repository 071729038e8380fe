#pragma once
#include "engine/paraver/TraceRecord.h"

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace gpueff::paraver {

// Buffered .prv body writer: integers are formatted with to_chars into a large buffer, no iostreams.
class PrvWriter {
public:
    PrvWriter(const std::filesystem::path& path, const std::string& header,
              std::vector<std::uint32_t> cpuOfRow, std::vector<std::uint32_t> taskOfRow,
              std::vector<std::uint32_t> localOfRow);
    ~PrvWriter();
    PrvWriter(const PrvWriter&) = delete;
    PrvWriter& operator=(const PrvWriter&) = delete;

    void write(const TraceRecord& r);
    void writeLine(const std::string& line); // metadata comments
    void close();
    std::uint64_t bytesWritten() const { return written_ + used_; }

private:
    void object(std::uint32_t row);
    void number(std::int64_t v);
    void put(char c) { buffer_[used_++] = c; }
    void flushIfNeeded();
    void flush();

    std::filesystem::path path_;
    std::FILE* file_ = nullptr;
    std::vector<char> buffer_;
    std::size_t used_ = 0;
    std::uint64_t written_ = 0;
    std::vector<std::uint32_t> cpu_, task_, local_;
};

} // namespace gpueff::paraver
