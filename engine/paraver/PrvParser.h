#pragma once
// The .prv body grammar and its checks, in one place: the in-memory reader (readPrv) and the streaming
// importer (pipeline::PrvSource) both run this parser and differ only in what they do with its records.
#include "engine/common/GzipStream.h"
#include "engine/paraver/PrvWriter.h"
#include "engine/paraver/TraceHeader.h"
#include "engine/paraver/TraceRecord.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpueff::paraver {

// Where the bytes of a trace come from: a file (plain or gzip-compressed, read by GzipStream), or memory.
class ByteSource {
public:
    virtual ~ByteSource() = default;
    // Up to `size` bytes into `out`; 0 at the end. Throws gpueff::Error on a read error or a truncated or
    // corrupt compressed file.
    virtual std::size_t read(char* out, std::size_t size) = 0;
    // Bytes of the file consumed so far (compressed bytes for a .gz), for progress lines.
    virtual std::uint64_t position() const { return 0; }
};

class FileBytes : public ByteSource {
public:
    explicit FileBytes(const std::string& path) : file_(path) {}
    std::size_t read(char* out, std::size_t size) override { return file_.read(out, size); }
    std::uint64_t position() const override { return file_.filePosition(); }

private:
    GzipStream file_;
};

class MemoryBytes : public ByteSource {
public:
    explicit MemoryBytes(std::string_view text) : text_(text) {}
    std::size_t read(char* out, std::size_t size) override;

private:
    std::string_view text_;
};

// Lines of a trace, read in large blocks; a line longer than kMaxLineBytes is refused.
class LineReader {
public:
    LineReader(ByteSource& source, std::string path);
    bool next(std::string_view& line);
    std::uint64_t lineNumber() const { return lineNumber_; }
    const std::string& path() const { return path_; }
    // "PATH:LINE" of the line last returned.
    std::string where() const { return path_ + ":" + std::to_string(lineNumber_); }

private:
    void fill();

    ByteSource& source_;
    std::string path_;
    std::vector<char> buffer_;
    std::size_t begin_ = 0, end_ = 0;
    bool eof_ = false;
    std::uint64_t lineNumber_ = 0;
};

// Reads the first line: the header (a "new format" trace and an empty file are refused, naming the file).
TraceHeader readHeaderLine(LineReader& in, std::uint64_t maxObjects);

// Parses body lines of a trace with `header`. What it refuses is documented at readPrv (PrvReader.h); in
// lenient mode those lines are skipped and counted instead. A record is emitted as a TraceRecord whose row is
// the global thread index (header order) and whose cpu is the line's; an event line with more pairs than
// TraceRecord::kMaxPairs becomes several records of the same time (Paraver reads them alike), an event line
// without pairs none.
class PrvBodyParser {
public:
    class Output {
    public:
        virtual ~Output() = default;
        virtual void record(const TraceRecord& r) = 0;
        virtual void communicator(std::string_view line) = 0;
        virtual void comment(std::string_view line) = 0;
    };

    PrvBodyParser(const TraceHeader& header, const LineReader& in, bool lenient);
    void parse(std::string_view line, Output& out);

    // Global thread index of 1-based (application, task, thread), or -1 when the header has none.
    std::int64_t threadIndex(std::uint32_t appl, std::uint32_t task, std::uint32_t thread) const;
    // The address of each global thread (cpu 0: records carry their own).
    std::vector<RowAddress> addresses() const;

    std::uint64_t skippedLines = 0;    // lenient mode: malformed lines skipped
    std::string firstSkipped;          // why the first was, "FILE:LINE: ..."
    std::uint64_t recordsAfterEnd = 0; // records after the header's end time
    std::int64_t lastRecordTime = 0;   // the latest time of any record

private:
    void malformed(std::string_view line, const std::string& why);
    bool object(std::string_view line, std::size_t& pos, std::uint32_t& cpu, std::uint32_t& thread);
    bool validTime(std::int64_t time, const char* what, std::string_view line);
    void seen(std::int64_t time);
    void state(std::string_view line, Output& out);
    void event(std::string_view line, Output& out);
    void communication(std::string_view line, Output& out);

    const TraceHeader& header_;
    const LineReader& in_;
    bool lenient_;
    std::vector<std::vector<std::uint32_t>> firstThreadOfTask_;
    std::vector<std::uint32_t> cpuNode_;    // global CPU (1-based; 0 unknown) -> node (1-based)
    std::vector<std::uint32_t> threadNode_; // global thread index -> node of its task (0: no resources)
    std::vector<EventPair> pairs_;          // the pairs of the event line being read
    TraceRecord record_;
};

} // namespace gpueff::paraver
