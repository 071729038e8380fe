#pragma once
#include <string>
#include <string_view>

namespace gpueff {

// `s` without leading and trailing blanks (spaces, tabs, and the '\r' of files written on Windows).
inline std::string trim(std::string_view s) {
    auto b = s.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) return "";
    auto e = s.find_last_not_of(" \t\r");
    return std::string(s.substr(b, e - b + 1));
}

// Whether `name` contains `word` (lower case ASCII) in any case.
inline bool containsIgnoringCase(std::string_view name, std::string_view word) {
    for (std::size_t i = 0; i + word.size() <= name.size(); ++i) {
        std::size_t k = 0;
        while (k < word.size() && (name[i + k] | 0x20) == word[k]) ++k;
        if (k == word.size()) return true;
    }
    return false;
}

// A collective-communication kernel: NCCL's (`ncclKernel_*`, `ncclDevKernel_*`) or ROCm's RCCL (`rccl*`),
// by name in any case. (`| 0x20` lowers letters only; the words have no other characters.)
inline bool isCollectiveKernel(std::string_view name) {
    return containsIgnoringCase(name, "nccl") || containsIgnoringCase(name, "rccl");
}

} // namespace gpueff
