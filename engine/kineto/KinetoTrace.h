#pragma once
// Reads a Kineto trace into its tables (KinetoTables.h) in one streamed pass over the file.
#include "engine/kineto/ChromeTrace.h"
#include "engine/kineto/KinetoTables.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>

namespace gpueff::kineto {

struct KinetoTrace {
    std::shared_ptr<const KinetoTables> tables;
    TraceMetadata metadata;
};

// Throws gpueff::Error naming `input` for a file that cannot be read or is no Kineto trace. `progress` gets
// the uncompressed bytes read so far, every few megabytes.
KinetoTrace readKinetoTrace(const std::filesystem::path& input,
                            const std::function<void(std::uint64_t)>& progress = {});

} // namespace gpueff::kineto
