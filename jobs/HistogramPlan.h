#pragma once
// How `gpueff histogram` reads a trace within a memory limit: one load when the records the cfgs can see fit
// in it, else passes over the .prv, each keeping the records of a group of rows (semantic::RowGroup).
#include "engine/common/MemorySize.h"
#include "engine/paraver/PrvReader.h"
#include "engine/semantic/Cfg.h"
#include "engine/semantic/RowGroup.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::jobs {

// Bytes the in-memory trace takes per record (columns grown by doubling, Paraver's walking order and its sort
// buffer), fitted to the peak RSS of one-thread passes over bench/'s tiled EPOCH trace (bench/README.md,
// "histogram in passes"): the estimate a plan compares with the limit.
inline constexpr std::uint64_t kBytesPerState = 80, kBytesPerEventPair = 60, kBytesPerCommunicationEnd = 190;
inline constexpr std::uint64_t kBytesPerThread = 400; // a thread's empty columns, allocated in every pass
// The in-memory bytes per byte of .prv text above which a trace is counted before it is loaded (measured:
// 2.6 to 2.8 with every record kept): a trace of at most limit / this many bytes is loaded at once without
// counting its records.
inline constexpr std::uint64_t kMemoryPerPrvByte = 4;
// deflate's largest compression ratio: a .prv.gz bounds its text by this many times its size.
inline constexpr std::uint64_t kMaxGzipRatio = 1032;

struct PassPlan {
    std::uint64_t limit = 0;                // bytes; 0: none
    std::uint64_t estimate = 0;             // bytes of the whole trace in memory (0 when not counted)
    bool counted = false;                   // whether a first pass counted the records
    std::vector<semantic::RowGroup> groups; // one (everything) for a single load
    std::vector<std::uint32_t> eventTypes;  // counted: the event types kept, sorted (LoadedTrace::load)
    semantic::Level level = semantic::Level::Thread; // groups are cut at objects of this level
    std::string wholeTraceWindow; // set when the trace exceeds the limit but a window needs every row at once
    std::uint64_t largestGroup = 0; // estimated bytes of the largest group
};

// The plan for `cfgs` on `trace` read with `options` (event types kept, lenient) within `limit` bytes (0: no
// limit). Counts the records per thread in a first pass over the file unless the file's size shows the
// trace fits.
PassPlan planPasses(const std::string& trace, const paraver::ReadOptions& options,
                    const std::vector<semantic::Cfg>& cfgs, std::uint64_t limit);

// "812 MB", "1.5 GB": for messages.
std::string memoryText(std::uint64_t bytes);

} // namespace gpueff::jobs
