#include "engine/common/NameDictionary.h"

#include "engine/common/Error.h"

#include <algorithm>
#include <cstring>
#include <functional>

namespace gpueff {

namespace {
// Paraver viewers keep values in 32 bits: the last value must stay below 2^31.
constexpr std::int64_t kValueLimit = (std::int64_t{1} << 31) - 1;

std::uint64_t indexHash(std::string_view name) {
    return std::hash<std::string_view>{}(name);
}
} // namespace

// The value of `name`, or -1 with `slot` at the empty slot where it would go.
std::int64_t NameDictionary::find(std::string_view name, std::uint64_t hash, std::size_t& slot) const {
    auto tag = static_cast<std::uint32_t>(hash >> 32);
    std::size_t mask = slots_.size() - 1;
    for (slot = hash & mask;; slot = (slot + 1) & mask) {
        const Slot& s = slots_[slot];
        if (s.entry == 0) return -1;
        if (s.tag != tag) continue;
        const Entry& e = entries_[s.entry - 1];
        // An empty name may come with a null data pointer, which memcmp must not be given even for 0 bytes.
        if (e.length == name.size() && (name.empty() || std::memcmp(e.name, name.data(), name.size()) == 0))
            return e.value;
    }
}

std::int64_t NameDictionary::valueOf(std::string_view name) {
    // The hash only places names in this process's table; values come from the names' sorted order.
    std::uint64_t h = indexHash(name);
    std::size_t i = 0;
    if (assigned_) {
        auto v = find(name, h, i);
        if (v < 0)
            throw Error("internal error: the name '" + std::string(name) +
                        "' was not collected before event values were assigned");
        return v;
    }
    std::lock_guard lock(collecting_);
    if (auto v = find(name, h, i); v >= 0) return v;
    if (entries_.size() >= static_cast<std::size_t>(kValueLimit - 1))
        throw Error("more than 2^31 distinct names under one event type: Paraver values cannot number them");
    std::string_view stored = names_.copy(name);
    auto provisional = static_cast<std::uint32_t>(entries_.size() + 1);
    entries_.push_back({stored.data(), static_cast<std::uint32_t>(stored.size()), provisional});
    slots_[i] = {static_cast<std::uint32_t>(entries_.size()), static_cast<std::uint32_t>(h >> 32)};
    // Grown at three quarters full: doubling at half full held 16 Mi slots (128 MB, 192 MB while growing) for
    // 4.7 M names; the tags keep the longer probes cheap.
    if (4 * entries_.size() > 3 * slots_.size()) growSlots();
    return provisional;
}

void NameDictionary::assignValues(std::int64_t first) {
    if (first < 1 || first > kValueLimit - static_cast<std::int64_t>(entries_.size()))
        throw Error("internal error: event values from " + std::to_string(first) + " for " +
                    std::to_string(entries_.size()) + " names leave the 32-bit range");
    auto order = sortedOrder();
    for (std::size_t rank = 0; rank < order.size(); ++rank)
        entries_[order[rank]].value = static_cast<std::uint32_t>(first + static_cast<std::int64_t>(rank));
    first_ = first;
    assigned_ = true;
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

// Byte order of the names (unsigned bytes, shorter prefix first): the order of UTF-8 code points.
std::vector<std::uint32_t> NameDictionary::sortedOrder() const {
    std::vector<std::uint32_t> order(entries_.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [this](std::uint32_t a, std::uint32_t b) {
        const Entry &x = entries_[a], &y = entries_[b];
        std::size_t n = std::min(x.length, y.length);
        int c = n == 0 ? 0 : std::memcmp(x.name, y.name, n);
        return c != 0 ? c < 0 : x.length < y.length;
    });
    return order;
}

std::vector<std::uint32_t> NameDictionary::valueOrder() const {
    if (!assigned_) return sortedOrder();
    std::vector<std::uint32_t> order(entries_.size());
    for (std::uint32_t i = 0; i < order.size(); ++i)
        order.at(static_cast<std::size_t>(entries_[i].value - first_)) = i;
    return order;
}

} // namespace gpueff
