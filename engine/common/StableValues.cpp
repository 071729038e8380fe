#include "engine/common/StableValues.h"

#include <algorithm>
#include <cstring>
#include <functional>

namespace gpueff {

namespace {
constexpr std::size_t kChunk = 1 << 20;
constexpr std::uint32_t kValueRange = (1U << 31) - 1;

std::uint64_t indexHash(std::string_view name) {
    return std::hash<std::string_view>{}(name);
}
std::uint32_t mixValue(std::uint32_t v) {
    return v * 2654435761U;
}
} // namespace

std::int64_t stableNameValue(std::string_view name) {
    std::uint64_t h = 1469598103934665603ULL; // FNV-1a 64: stable across platforms and releases
    for (unsigned char c : name) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    return static_cast<std::int64_t>((h ^ (h >> 31)) % kValueRange) + 1;
}

std::int64_t NameDictionary::valueOf(std::string_view name) {
    // The index hash only places names in this process's table; the value comes from stableNameValue.
    std::uint64_t h = indexHash(name);
    auto tag = static_cast<std::uint32_t>(h >> 32);
    std::size_t mask = slots_.size() - 1;
    std::size_t i = h & mask;
    for (;; i = (i + 1) & mask) {
        const Slot& s = slots_[i];
        if (s.entry == 0) break;
        if (s.tag != tag) continue;
        const Entry& e = entries_[s.entry - 1];
        // An empty name may come with a null data pointer, which memcmp must not be given even for 0 bytes.
        if (e.length == name.size() && (name.empty() || std::memcmp(e.name, name.data(), name.size()) == 0))
            return e.value;
    }
    auto v = static_cast<std::uint32_t>(stableNameValue(name));
    while (valueUsed(v)) {
        ++collisions_;
        v = v % kValueRange + 1;
    }
    markValue(v);
    std::string_view stored = store(name);
    entries_.push_back({stored.data(), static_cast<std::uint32_t>(stored.size()), v});
    slots_[i] = {static_cast<std::uint32_t>(entries_.size()), tag};
    if (2 * entries_.size() > slots_.size()) growSlots();
    return v;
}

std::string_view NameDictionary::store(std::string_view name) {
    if (chunks_.empty() || chunkUsed_ + name.size() > chunkSize_) {
        chunkSize_ = std::max(kChunk, name.size());
        chunks_.push_back(std::make_unique<char[]>(chunkSize_));
        chunkUsed_ = 0;
    }
    char* p = chunks_.back().get() + chunkUsed_;
    if (!name.empty()) std::memcpy(p, name.data(), name.size());
    chunkUsed_ += name.size();
    return {p, name.size()};
}

bool NameDictionary::valueUsed(std::uint32_t v) const {
    std::size_t mask = values_.size() - 1;
    for (std::size_t i = mixValue(v) & mask; values_[i] != 0; i = (i + 1) & mask)
        if (values_[i] == v) return true;
    return false;
}

void NameDictionary::markValue(std::uint32_t v) {
    if (2 * (entries_.size() + 1) > values_.size()) {
        std::vector<std::uint32_t> old(values_.size() * 2, 0);
        old.swap(values_);
        std::size_t mask = values_.size() - 1;
        for (auto u : old) {
            if (u == 0) continue;
            std::size_t i = mixValue(u) & mask;
            while (values_[i] != 0) i = (i + 1) & mask;
            values_[i] = u;
        }
    }
    std::size_t mask = values_.size() - 1;
    std::size_t i = mixValue(v) & mask;
    while (values_[i] != 0) i = (i + 1) & mask;
    values_[i] = v;
}

void NameDictionary::growSlots() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    std::size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
        if (s.entry == 0) continue;
        const Entry& e = entries_[s.entry - 1];
        std::size_t i = indexHash({e.name, e.length}) & mask;
        while (slots_[i].entry != 0) i = (i + 1) & mask;
        slots_[i] = s;
    }
}

std::vector<std::uint32_t> NameDictionary::orderByValue() const {
    std::vector<std::uint64_t> keyed(entries_.size()); // value in the high half: a plain integer sort
    for (std::uint32_t i = 0; i < keyed.size(); ++i) keyed[i] = (std::uint64_t{entries_[i].value} << 32) | i;
    std::sort(keyed.begin(), keyed.end());
    std::vector<std::uint32_t> order(keyed.size());
    for (std::size_t i = 0; i < keyed.size(); ++i) order[i] = static_cast<std::uint32_t>(keyed[i]);
    return order;
}

} // namespace gpueff
