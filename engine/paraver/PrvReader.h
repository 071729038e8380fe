#pragma once
#include "engine/paraver/Trace.h"

#include <filesystem>

namespace gpueff::paraver {

struct ReadOptions {
    bool lenient = false; // count malformed lines (Trace::skippedLines) instead of failing on the first
};

// Reads NAME.prv or NAME.prv.gz (zlib reads both) into columns. Errors name the file and line.
Trace readPrv(const std::filesystem::path& path, const ReadOptions& options = {});

} // namespace gpueff::paraver
