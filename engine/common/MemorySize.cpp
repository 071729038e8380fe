#include "engine/common/MemorySize.h"

#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>

namespace gpueff {

std::optional<std::uint64_t> parseMemorySize(const std::string& text) {
    std::size_t used = 0;
    double number = 0;
    try {
        number = std::stod(text, &used);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    if (!std::isfinite(number) || number < 0 || !std::isdigit(static_cast<unsigned char>(text[0])))
        return std::nullopt;
    std::string suffix = text.substr(used);
    for (auto& c : suffix) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    double scale = 1;
    if (!suffix.empty()) {
        static const std::string units = "KMGT";
        auto k = units.find(suffix[0]);
        if (k == std::string::npos) return std::nullopt;
        auto rest = suffix.substr(1);
        if (!rest.empty() && rest != "B" && rest != "IB") return std::nullopt;
        scale = std::pow(1024.0, static_cast<double>(k + 1));
    }
    double bytes = std::floor(number * scale);
    if (bytes >= 9.2e18) return std::nullopt;
    return static_cast<std::uint64_t>(bytes);
}

std::optional<std::uint64_t> availableMemory() {
    std::ifstream in("/proc/meminfo");
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string key, unit;
        std::uint64_t kib = 0;
        if (fields >> key >> kib >> unit && key == "MemAvailable:" && unit == "kB") return kib * 1024;
    }
    return std::nullopt;
}

} // namespace gpueff
