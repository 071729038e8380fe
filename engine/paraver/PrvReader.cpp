#include "engine/paraver/PrvReader.h"

#include "engine/common/Utf8.h"
#include "engine/paraver/PrvParser.h"
#include "engine/pipeline/TraceBuilder.h"

#include <string_view>

namespace gpueff::paraver {

namespace {

// readPrv is the streaming importer's parser feeding the column builder of the pipeline (one parser, one
// builder). What a file says beyond its records is kept as the reader always kept it: every communicator
// line and the first comment lines wherever they are in the body (the stream passes on only those before
// the first record), made valid UTF-8.
class ToBuilder : public PrvBodyParser::Output {
public:
    ToBuilder(pipeline::TraceBuilder& builder, pipeline::StreamInfo& info) : builder_(builder), info_(info) {}
    void record(const TraceRecord& r) override {
        if (!begun_) begin();
        builder_.consume(r);
    }
    void communicator(std::string_view line) override { communicators.emplace_back(line); }
    void comment(std::string_view line) override {
        if (comments.size() < kMaxComments) comments.push_back(repairUtf8(line.substr(0, 1024)));
    }
    void begin() {
        if (!begun_) builder_.begin(info_);
        begun_ = true;
    }
    std::vector<std::string> communicators, comments;

private:
    pipeline::TraceBuilder& builder_;
    pipeline::StreamInfo& info_;
    bool begun_ = false;
};

Trace read(ByteSource& source, const std::string& name, const ReadOptions& options) {
    LineReader in(source, name);
    pipeline::StreamInfo info;
    info.source = name;
    info.header = readHeaderLine(in, options.maxObjects);
    PrvBodyParser parser(info.header, in, options.lenient);
    info.rows = parser.addresses();
    pipeline::TraceBuilder builder(options);
    ToBuilder out(builder, info);
    std::string_view line;
    while (in.next(line)) parser.parse(line, out);
    out.begin();
    builder.end({});
    Trace trace = builder.takeTrace();
    trace.communicatorLines = std::move(out.communicators);
    trace.comments.clear();
    trace.provenance = readProvenance(out.comments, &trace.comments);
    // Counted per line by the parser (an event line split into several records is one record of the file).
    trace.recordsAfterEnd = parser.recordsAfterEnd;
    trace.lastRecordTime = parser.lastRecordTime;
    trace.skippedLines = parser.skippedLines;
    trace.firstSkipped = parser.firstSkipped;
    return trace;
}

} // namespace

Trace readPrv(const std::filesystem::path& path, const ReadOptions& options) {
    FileBytes file(path.string());
    return read(file, path.string(), options);
}

Trace readPrvText(std::string_view text, const std::string& name, const ReadOptions& options) {
    MemoryBytes memory(text);
    return read(memory, name, options);
}

} // namespace gpueff::paraver
