#pragma once
// The streaming Paraver importer: a .prv or .prv.gz of any writer, read line by line into a sink, in file
// order (a .prv is written in time order), in memory bounded by one line buffer whatever the trace's size.
#include "engine/pipeline/RecordSink.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gpueff::pipeline {

struct PrvSourceOptions {
    bool lenient = false; // as paraver::ReadOptions::lenient: malformed lines skipped and counted
    std::uint64_t maxObjects = paraver::kMaxObjects;
    // Called now and then with the bytes of the file read so far (compressed bytes for a .gz) and its size.
    std::function<void(std::uint64_t done, std::uint64_t total)> progress;
};

struct PrvSourceSummary {
    std::uint64_t records = 0, lines = 0;
    std::uint64_t skippedLines = 0;    // lenient mode
    std::string firstSkipped;          // "FILE:LINE: why" of the first skipped line
    std::uint64_t recordsAfterEnd = 0; // records after the header's end time
    std::int64_t lastRecordTime = 0;
    paraver::TraceHeader header;
    // The sink needed no more records before the end of the file: the counts above are of the lines read.
    bool stoppedEarly = false;
    std::uint64_t bytesRead = 0; // of the file (compressed bytes for a .gz)
};

// Streams `path` into `sink`: begin() with the header, the communicator lines and the comments before the
// first record (a comment after it is not passed on), the row of each global thread in header order, and
// whether the trace is in time order (writtenInTimeOrder); the records as the lines come, until the end of
// the file or the sink is satisfied (stoppedEarly); end() with labels that copy the trace's .pcf and .row
// verbatim (none when absent). The checks are readPrv's (one parser, paraver/PrvParser.h): errors
// "FILE:LINE: ...".
PrvSourceSummary streamPrv(const std::filesystem::path& path, RecordSink& sink,
                           const PrvSourceOptions& options = {});

// The same from text in memory (`name` stands for the file in messages; no labels). For tests and fuzzing.
PrvSourceSummary streamPrvText(std::string_view text, const std::string& name, RecordSink& sink,
                               const PrvSourceOptions& options = {});

// NAME.pcf / NAME.row beside NAME.prv[.gz].
std::filesystem::path companionFile(const std::filesystem::path& prv, const char* extension);

} // namespace gpueff::pipeline
