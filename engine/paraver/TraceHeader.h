#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpueff::paraver {

enum class TimeUnit { Nanoseconds, Microseconds, Milliseconds, Seconds };

// The reader allocates per declared thread and CPU before it reads a record, so what a header declares is
// checked against these limits first: a corrupt 50-byte header must not drive gigabytes of allocation.
// Threads, tasks and CPUs are each at most kMaxObjects in all (a million threads is far beyond the largest
// traces Paraver users open; wxparaver draws one row per thread).
inline constexpr std::uint64_t kMaxObjects = 1'000'000;
// Times (the header's end time and every record time, in the trace's unit) lie in [0, kMaxTime]: 2^61, 73
// years in nanoseconds, so that the sum or difference of two trace times never overflows an int64.
inline constexpr std::int64_t kMaxTime = std::int64_t{1} << 61;

// The first line of a .prv file: "#Paraver (date):END[_unit]:RESOURCES:NAPPL:APPL1[:APPL2...][,NCOMM]",
// with the variants paramedir reads (paraver-kernel utils/traceparser): RESOURCES "0" (none), "N(c1,..,cN)"
// or "N" (N nodes of one CPU each); an application "T(th:node,...)" or "T:(...)" (nsys2prv); applications
// and the communicator count separated by ':' or ','.
struct TraceHeader {
    struct Task {
        std::uint32_t threads = 0;
        std::uint32_t node = 0; // 1-based; 0 when the trace has no resource section
    };
    std::string date;
    std::int64_t endTime = 0; // in `unit`
    TimeUnit unit = TimeUnit::Microseconds;
    // A unit suffix other than _ns, _us and _ms (e.g. "_s"): Paraver reads it as microseconds, and so does
    // gpueff, with a warning (Trace::warnings) naming the suffix.
    std::string unknownUnitSuffix;
    std::vector<std::uint32_t> cpusPerNode; // empty: resources "0"
    std::vector<std::vector<Task>> applications;
    std::uint32_t communicators = 0;

    std::uint32_t totalThreads() const;
    std::uint32_t totalCpus() const;
};

// Parses a header line; throws gpueff::Error with `where` (file name) and what is wrong. Every number is
// range-checked (no silent wrap); threads, tasks and CPUs are each at most `maxObjects` in all.
TraceHeader parseHeader(std::string_view line, const std::string& where,
                        std::uint64_t maxObjects = kMaxObjects);
const char* unitSuffix(TimeUnit unit);

// Per application, per task: the 0-based global index of its first thread (threads numbered in header
// order, Paraver's global thread order); `threads`, when given, receives the total.
std::vector<std::vector<std::uint32_t>> firstThreadOfTasks(const TraceHeader& header,
                                                           std::uint32_t* threads = nullptr);

} // namespace gpueff::paraver
