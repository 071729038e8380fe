#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpueff::paraver {

enum class TimeUnit { Nanoseconds, Microseconds, Milliseconds, Seconds };

// The first line of a .prv file: "#Paraver (date):END[_unit]:RESOURCES:NAPPL:APPL1[:APPL2...][,NCOMM]".
struct TraceHeader {
    struct Task {
        std::uint32_t threads = 0;
        std::uint32_t node = 0; // 1-based; 0 when the trace has no resource section
    };
    std::string date;
    std::int64_t endTime = 0; // in `unit`
    TimeUnit unit = TimeUnit::Microseconds;
    std::vector<std::uint32_t> cpusPerNode; // empty: resources "0"
    std::vector<std::vector<Task>> applications;
    std::uint32_t communicators = 0;

    std::uint32_t totalThreads() const;
    std::uint32_t totalCpus() const;
};

// Parses a header line; throws gpueff::Error with `where` (file name) and what is wrong.
TraceHeader parseHeader(std::string_view line, const std::string& where);
const char* unitSuffix(TimeUnit unit);

} // namespace gpueff::paraver
