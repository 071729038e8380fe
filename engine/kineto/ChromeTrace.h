#pragma once
// A PyTorch profiler (Kineto) trace as it is read: Chrome-trace JSON, one event at a time. The reader keeps
// only the fields gpueff translates and hands each event to a consumer, so nothing proportional to the file
// is held (the event's strings are reused from one event to the next).
#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpueff::kineto {

// An integer field of the JSON that may be absent.
struct Field {
    std::int64_t value = 0;
    bool present = false;
    void set(std::int64_t v) { value = v, present = true; }
};

// One element of `traceEvents`. Times are nanoseconds, converted from Kineto's decimal microseconds exactly.
struct ChromeEvent {
    char ph = 0; // 'X' complete, 'M' metadata, 's'/'f' flow, 'i' instant, ...
    std::string
        cat; // kernel, gpu_memcpy, gpu_memset, cuda_runtime, cuda_driver, cpu_op, user_annotation, ...
    std::string name; // the event's name (for 'M': process_name, thread_name, ...)
    Field pid, tid;   // absent when the JSON holds a string ("Spans", "Traces")
    Field ts, dur;    // ns
    // args
    Field device, stream, correlation, bytes, registers, sharedMemory, groupSize, inElements, outElements;
    std::array<std::int64_t, 3> grid{}, block{};
    std::string syncKind;     // cuda_sync: "Stream Sync", "Context Sync", ...
    std::string collective;   // NCCL kernels: "Collective name"
    std::string dtype;        // NCCL kernels: element type ("Float", "Long", ...)
    std::string groupName;    // "Process Group Name"
    std::string groupRanks;   // "Process Group Ranks", as written ("[0, 1]")
    std::string metadataName; // 'M' events: args.name (process or thread name) or args.labels
    std::string badNumber;    // a field whose number could not be read (named in the skip reason)
    void clear();
};

// The top-level fields other than `traceEvents`.
struct TraceMetadata {
    std::optional<std::int64_t> baseTimeNs; // baseTimeNanoseconds: UTC of Kineto's time 0
    std::optional<std::int64_t> rank, worldSize;
    std::string hostName;
    std::map<std::int64_t, std::string> deviceNames; // deviceProperties: id -> name
    std::string schemaVersion;
    bool sawTraceEvents = false;
};

// Parses `path` (.json, or gzip-compressed: detected from its first bytes, not its name), calling `onEvent`
// for every element of traceEvents in file order. Throws gpueff::Error naming the file and the byte offset
// at fault for truncated or invalid JSON, a truncated or corrupt gzip file (GzipStream), or a file that is
// not a Chrome trace. `progress` (may be empty) gets the uncompressed bytes read so far, every few megabytes.
TraceMetadata readChromeTrace(const std::filesystem::path& path,
                              const std::function<void(const ChromeEvent&)>& onEvent,
                              const std::function<void(std::uint64_t)>& progress = {});

// The same from a stream (the fuzz harness); `name` stands for the file in messages.
TraceMetadata readChromeTrace(const std::filesystem::path& name, std::istream& in,
                              const std::function<void(const ChromeEvent&)>& onEvent);

// Kineto's decimal microseconds ("4458676522690.655", "1695835542514261", "1.5e3") as nanoseconds, rounded
// half away from zero; nullopt when the text is no number or the result leaves int64. Exact for every
// digit count: a double would lose nanoseconds beyond 2^53 (epoch microseconds with 3 decimals).
std::optional<std::int64_t> microsecondsTextToNs(std::string_view text);

} // namespace gpueff::kineto
