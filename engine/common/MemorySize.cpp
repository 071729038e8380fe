#include "engine/common/MemorySize.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <malloc.h>
#include <sstream>

namespace gpueff {

std::optional<std::uint64_t> parseMemorySize(const std::string& text) {
    std::size_t pos = 0;
    while (pos < text.size() && (std::isdigit(static_cast<unsigned char>(text[pos])) || text[pos] == '.'))
        ++pos;
    std::string number = text.substr(0, pos), suffix = text.substr(pos);
    if (number.empty() || number.front() == '.' || number.back() == '.' ||
        std::count(number.begin(), number.end(), '.') > 1)
        return std::nullopt;
    for (auto& c : suffix) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    double scale = 1;
    static const std::pair<const char*, double> units[] = {{"", 1},
                                                           {"B", 1},
                                                           {"K", 1024.0},
                                                           {"KB", 1024.0},
                                                           {"KIB", 1024.0},
                                                           {"M", 1048576.0},
                                                           {"MB", 1048576.0},
                                                           {"MIB", 1048576.0},
                                                           {"G", 1073741824.0},
                                                           {"GB", 1073741824.0},
                                                           {"GIB", 1073741824.0},
                                                           {"T", 1099511627776.0},
                                                           {"TB", 1099511627776.0},
                                                           {"TIB", 1099511627776.0}};
    bool known = false;
    for (const auto& [name, factor] : units)
        if (suffix == name) {
            scale = factor;
            known = true;
        }
    if (!known) return std::nullopt;
    double bytes = std::strtod(number.c_str(), nullptr) * scale;
    // Checked before converting: 2^63 and above (and nan, which the grammar cannot give) are refused.
    if (!std::isfinite(bytes) || bytes < 1 || bytes >= 9223372036854775808.0) return std::nullopt;
    return static_cast<std::uint64_t>(bytes);
}

std::optional<std::uint64_t> availableMemory() {
    std::ifstream in("/proc/meminfo");
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string key, unit;
        std::uint64_t kib = 0;
        if (fields >> key >> kib >> unit && key == "MemAvailable:" && unit == "kB" &&
            kib < (1ULL << 53) / 1024)
            return kib * 1024;
    }
    return std::nullopt;
}

std::uint64_t peakResidentMemory() {
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) return 0;
    char line[256];
    unsigned long long kib = 0;
    while (std::fgets(line, sizeof line, f))
        if (std::sscanf(line, "VmHWM: %llu kB", &kib) == 1) break;
    std::fclose(f);
    return static_cast<std::uint64_t>(kib) * 1024;
}

std::uint64_t defaultMemoryLimit() {
    return availableMemory().value_or(0) / 2;
}

void returnFreedMemory() {
    ::malloc_trim(0);
}

} // namespace gpueff
