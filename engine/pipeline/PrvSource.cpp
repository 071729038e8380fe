#include "engine/pipeline/PrvSource.h"

#include "engine/common/Error.h"
#include "engine/paraver/PrvParser.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>

namespace gpueff::pipeline {

namespace {

// Until the first record: comments and communicator lines are collected for the stream's description.
// From it on: records go to the sink.
class StreamOutput : public paraver::PrvBodyParser::Output {
public:
    StreamOutput(RecordSink& sink, StreamInfo& info) : sink_(sink), info_(info) {}
    void record(const TraceRecord& r) override {
        if (!begun_) start();
        ++records;
        sink_.consume(r);
        satisfied = sink_.satisfied();
    }
    void communicator(std::string_view line) override {
        if (!begun_) info_.communicatorLines.emplace_back(line);
    }
    void comment(std::string_view line) override {
        if (!begun_) info_.comments.emplace_back(line);
    }
    void finish() {
        if (!begun_) start();
    }
    std::uint64_t records = 0;
    bool satisfied = false;

private:
    void start() {
        std::vector<std::string> others;
        info_.provenance = paraver::readProvenance(info_.comments, &others);
        info_.comments = std::move(others);
        // gpueff's translation merges every row in one time order; cut and filter keep it. Other writers'
        // traces may be in time order per row only (nsys2prv writes thread after thread, Extrae places some
        // communication lines after later records), so nothing is assumed of them.
        info_.timeOrdered = info_.provenance.translation.has_value();
        sink_.begin(info_);
        begun_ = true;
    }
    RecordSink& sink_;
    StreamInfo& info_;
    bool begun_ = false;
};

// Copies a label file verbatim into the output (nothing when the trace has none).
std::function<void(std::FILE*)> copier(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return {};
    return [path](std::FILE* out) {
        std::FILE* in = std::fopen(path.c_str(), "rb");
        if (!in) throw Error(path.string() + ": cannot open: " + std::strerror(errno));
        char buffer[1 << 16];
        std::size_t n = 0;
        while ((n = std::fread(buffer, 1, sizeof buffer, in)) > 0)
            if (std::fwrite(buffer, 1, n, out) != n) {
                std::fclose(in);
                throw Error("write failed while copying " + path.string());
            }
        bool failed = std::ferror(in) != 0;
        std::fclose(in);
        if (failed) throw Error(path.string() + ": read failed");
    };
}

} // namespace

std::filesystem::path companionFile(const std::filesystem::path& prv, const char* extension) {
    auto s = prv.string();
    for (const char* suffix : {".gz", ".prv"})
        if (s.size() >= std::strlen(suffix) &&
            s.compare(s.size() - std::strlen(suffix), std::string::npos, suffix) == 0)
            s.resize(s.size() - std::strlen(suffix));
    return s + extension;
}

namespace {

PrvSourceSummary stream(paraver::ByteSource& bytes, const std::string& name, std::uint64_t size,
                        RecordSink& sink, const PrvSourceOptions& options, StreamLabels labels) {
    paraver::LineReader in(bytes, name);
    PrvSourceSummary summary;
    summary.header = paraver::readHeaderLine(in, options.maxObjects);
    paraver::PrvBodyParser parser(summary.header, in, options.lenient);
    StreamInfo info;
    info.source = name;
    info.header = summary.header;
    info.rows = parser.addresses();
    StreamOutput out(sink, info);
    std::string_view line;
    std::uint64_t lines = 1;
    while (!out.satisfied && in.next(line)) {
        parser.parse(line, out);
        if ((++lines & 0xFFFFF) == 0 && options.progress) options.progress(bytes.position(), size);
    }
    summary.stoppedEarly = out.satisfied;
    summary.bytesRead = bytes.position();
    out.finish();
    summary.lines = lines;
    summary.records = out.records;
    summary.skippedLines = parser.skippedLines;
    summary.firstSkipped = parser.firstSkipped;
    summary.recordsAfterEnd = parser.recordsAfterEnd;
    summary.lastRecordTime = parser.lastRecordTime;
    sink.end(labels);
    return summary;
}

} // namespace

PrvSourceSummary streamPrv(const std::filesystem::path& path, RecordSink& sink,
                           const PrvSourceOptions& options) {
    paraver::FileBytes file(path.string());
    std::error_code ec;
    auto size = std::filesystem::file_size(path, ec);
    StreamLabels labels;
    labels.writePcf = copier(companionFile(path, ".pcf"));
    labels.writeRow = copier(companionFile(path, ".row"));
    return stream(file, path.string(), ec ? 0 : size, sink, options, labels);
}

PrvSourceSummary streamPrvText(std::string_view text, const std::string& name, RecordSink& sink,
                               const PrvSourceOptions& options) {
    paraver::MemoryBytes bytes(text);
    return stream(bytes, name, text.size(), sink, options, {});
}

} // namespace gpueff::pipeline
