#pragma once
// Stages a Kineto trace into a temporary Nsight Systems-shaped export (CuptiStaging.h) in one streamed read.
#include "engine/kineto/ChromeTrace.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>

namespace gpueff::kineto {

struct StagedTrace {
    std::filesystem::path database; // the staged export; the caller removes it
    TraceMetadata metadata;
    std::map<std::string, std::uint64_t> skipped; // events left out, by reason
    std::uint64_t events = 0, gpuEvents = 0;
};

// Reads `input` into a new SQLite file under the temporary directory ($TMPDIR). Throws gpueff::Error naming
// `input` for a file that cannot be read or is no Kineto trace; the staged file is then already removed.
StagedTrace stageTrace(const std::filesystem::path& input,
                       const std::function<void(std::uint64_t)>& progress = {});

} // namespace gpueff::kineto
