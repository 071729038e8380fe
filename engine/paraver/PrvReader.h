#pragma once
#include "engine/paraver/Trace.h"

#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpueff::paraver {

// Whether `type` lies in one of the inclusive `ranges`.
inline bool inTypeRanges(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& ranges,
                         std::uint32_t type) {
    for (const auto& [lo, hi] : ranges)
        if (lo <= type && type <= hi) return true;
    return false;
}

struct ReadOptions {
    // Count malformed lines and records outside the header's objects or times (Trace::skippedLines) and
    // skip them, instead of failing on the first.
    bool lenient = false;
    // Threads, tasks and CPUs the header may declare (each, in all); see kMaxObjects.
    std::uint64_t maxObjects = kMaxObjects;
    // Inclusive ranges of event types to keep (empty: all). A consumer that needs a few types of a multi-GB
    // trace keeps memory to what it reads; an event record left without pairs is dropped, not malformed.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> eventTypes;
    bool keeps(std::uint32_t type) const { return eventTypes.empty() || inTypeRanges(eventTypes, type); }
    // Threads whose records to keep, [firstThread, endThread) of the global thread index (header order),
    // with every communication that has an end among them (default: all). A consumer evaluating some rows
    // of a trace larger than memory keeps only theirs (gpueff histogram's passes); the header, the end time
    // and the counts of the whole file are read as always.
    std::uint32_t firstThread = 0, endThread = std::numeric_limits<std::uint32_t>::max();
    bool keepsThread(std::uint32_t thread) const { return firstThread <= thread && thread < endThread; }
};

// Reads NAME.prv or NAME.prv.gz (GzipStream reads both) into columns. Errors name the file and line; a
// truncated or corrupt .gz is refused as GzipStream says.
//
// What the reader refuses (gpueff::Error "FILE:LINE: ..."; with `lenient`, skipped and counted): a line
// that is not a record, a record of a thread or CPU the header does not declare or of a CPU on another node
// than its thread's (paramedir drops those records), a number that does not fit
// its field, a negative time or one above kMaxTime, a state that ends before it begins, a line longer than
// kMaxLineBytes. A record after the header's end time is kept and moves the trace's end (Trace::endTime),
// as Paraver does; Trace::warnings() says so. Accepted as paramedir accepts them: communicator lines
// 'c'/'C', internal lines 'i'/'I' and global communications '4' (ignored), an event record without pairs (it
// adds nothing), a ':' after a record's last field, CPU 0 in any record (the only CPU of a trace without
// resources). Refused with its own message: a "new format" trace (paraver-kernel's TraceBodyIO_v2, another
// record syntax).
Trace readPrv(const std::filesystem::path& path, const ReadOptions& options = {});
// The same from text in memory (`name` stands for the file in messages).
Trace readPrvText(std::string_view text, const std::string& name, const ReadOptions& options = {});

// Lines are short in Paraver traces (a header with a million tasks is about 8 MB); a longer one is refused
// instead of growing the line buffer without bound (a corrupt or decompression-bomb file).
inline constexpr std::size_t kMaxLineBytes = std::size_t{64} << 20;

} // namespace gpueff::paraver
