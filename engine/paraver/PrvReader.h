#pragma once
#include "engine/paraver/Trace.h"

#include <cstdint>
#include <filesystem>
#include <utility>
#include <vector>

namespace gpueff::paraver {

struct ReadOptions {
    bool lenient = false; // count malformed lines (Trace::skippedLines) instead of failing on the first
    // Inclusive ranges of event types to keep (empty: all). A consumer that needs a few types of a multi-GB
    // trace keeps memory to what it reads; an event record left without pairs is dropped, not malformed.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> eventTypes;
    bool keeps(std::uint32_t type) const {
        if (eventTypes.empty()) return true;
        for (const auto& [lo, hi] : eventTypes)
            if (lo <= type && type <= hi) return true;
        return false;
    }
};

// Reads NAME.prv or NAME.prv.gz (zlib reads both) into columns. Errors name the file and line.
Trace readPrv(const std::filesystem::path& path, const ReadOptions& options = {});

} // namespace gpueff::paraver
