#pragma once
// What a walk over the host rows derives from an event value's name (does it match the iteration pattern,
// is it a profiler step), computed once per (type, value). The rows repeat a few thousand names millions of
// times; a std::map of them cost most of such a walk (its tree descent), a hash table one probe.
#include <cstddef>
#include <cstdint>
#include <unordered_map>

namespace gpueff::metrics {

template <class Facts>
class ValueFacts {
public:
    // The facts of (type, value), made by `make()` the first time.
    template <class Make>
    const Facts& of(std::uint32_t type, std::int64_t value, Make&& make) {
        const Key key{type, value};
        if (auto it = facts_.find(key); it != facts_.end()) return it->second;
        // Bounded: a trace that names each range its own way (PyTorch's op_ids: millions of names, each
        // seen once) would fill it with facts never asked again. Forgotten all at once when full, they are
        // made again when asked.
        if (facts_.size() >= kMaxValues) facts_.clear();
        return facts_.emplace(key, make()).first->second;
    }

private:
    static constexpr std::size_t kMaxValues = std::size_t{1} << 18; // about 12 MiB
    struct Key {
        std::uint32_t type;
        std::int64_t value;
        bool operator==(const Key&) const = default;
    };
    struct Hash {
        std::size_t operator()(const Key& k) const noexcept {
            // Values are name ids, dense from 1; the multiplier spreads a type's run over the buckets.
            return static_cast<std::size_t>(static_cast<std::uint64_t>(k.value) * 0x9E3779B97F4A7C15ull ^
                                            k.type);
        }
    };
    std::unordered_map<Key, Facts, Hash> facts_;
};

} // namespace gpueff::metrics
