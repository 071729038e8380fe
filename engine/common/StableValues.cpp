#include "engine/common/StableValues.h"

#include <functional>

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
    // The slot hash only indexes this process's table; the value itself comes from stableNameValue.
    std::uint64_t h = std::hash<std::string_view>{}(name);
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
        Slot& s = slots_[i];
        if (s.value == 0) break;
        if (s.hash == h && *s.name == name) return s.value;
    }
    std::int64_t v = stableNameValue(name);
    while (labels_.count(v) != 0) {
        ++collisions_;
        v = v % ((1LL << 31) - 1) + 1;
    }
    const std::string* stored = &labels_.emplace(v, std::string(name)).first->second;
    if (2 * (used_ + 1) > slots_.size()) {
        grow();
        mask = slots_.size() - 1;
    }
    std::size_t i = h & mask;
    while (slots_[i].value != 0) i = (i + 1) & mask;
    slots_[i] = {h, v, stored};
    ++used_;
    return v;
}

void NameDictionary::grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    std::size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
        if (s.value == 0) continue;
        std::size_t i = s.hash & mask;
        while (slots_[i].value != 0) i = (i + 1) & mask;
        slots_[i] = s;
    }
}

} // namespace gpueff
