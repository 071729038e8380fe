#pragma once
// Memory sizes on the command line ("512M", "2G", "1.5GiB", "100000") and the machine's available memory,
// for options that bound what a command holds.
#include <cstdint>
#include <optional>
#include <string>

namespace gpueff {

// "512M", "4G", "1.5G", "1048576": bytes with an optional K, M, G or T suffix (powers of 1024, an optional
// trailing B or iB, any case). nullopt for anything else, for 0 and for more than 2^63 bytes.
std::optional<std::uint64_t> parseMemorySize(const std::string& text);

// MemAvailable of /proc/meminfo, or nullopt where the system does not say.
std::optional<std::uint64_t> availableMemory();

// The default of every --memory-limit: half of MemAvailable; 0 (no limit) when the system does not say.
std::uint64_t defaultMemoryLimit();

// The process's peak resident memory so far (VmHWM of /proc/self/status), 0 where the system does not say.
std::uint64_t peakResidentMemory();

// Gives the memory the process freed back to the system. Between two stages that each fill memory with
// their own threads: glibc keeps what one stage's threads freed in their arenas, where the next stage's
// threads may not reuse it (analyze of 8 reports with the .prv under --memory-limit 64M: 139 -> 109 MB).
void returnFreedMemory();

} // namespace gpueff
