#pragma once
#include <cstdint>
#include <string>

namespace gpueff {

// Makes sure `needed` file descriptors can be open at once, before any work starts: raises the soft
// RLIMIT_NOFILE up to the hard limit when it is lower than `needed`; when the hard limit is lower too, throws
// gpueff::Error("<what> need about N file descriptors; the limit is L (ulimit -n) ..."). `what` says who
// needs them ("128 reports").
void ensureFileDescriptors(std::uint64_t needed, const std::string& what);

} // namespace gpueff
