#include "engine/common/StableValues.h"

namespace gpueff {

std::int64_t stableNameValue(std::string_view name) {
    std::uint64_t h = 1469598103934665603ULL; // FNV-1a 64: stable across platforms and releases
    for (unsigned char c : name) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    constexpr std::uint64_t range = (1ULL << 31) - 1;
    return static_cast<std::int64_t>((h ^ (h >> 31)) % range) + 1;
}

std::int64_t NameDictionary::valueOf(std::string_view name) {
    if (auto it = byName_.find(name); it != byName_.end()) return it->second;
    std::string key(name);
    std::int64_t v = stableNameValue(name);
    while (labels_.count(v) != 0) {
        ++collisions_;
        v = v % ((1LL << 31) - 1) + 1;
    }
    labels_.emplace(v, key);
    byName_.emplace(std::move(key), v);
    return v;
}

} // namespace gpueff
