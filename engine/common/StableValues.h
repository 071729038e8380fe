#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>

namespace gpueff {

// Paraver event value for a name (kernel, API call, NVTX range...). nsys2prv numbers names alphabetically per
// run, so the same kernel differs between two traces; we derive the value from the name itself so that every
// trace gpueff writes agrees. Values lie in [1, 2^31): 0 stays "end of interval" and 32-bit viewers cope.
std::int64_t stableNameValue(std::string_view name);

// The names used under one event type. A hash collision between two different names is resolved by probing
// the next free value (deterministically, in first-seen order) and counted so the sidecar can report it.
class NameDictionary {
public:
    std::int64_t valueOf(std::string_view name);
    const std::map<std::int64_t, std::string>& labels() const { return labels_; }
    std::size_t collisions() const { return collisions_; }
    bool empty() const { return labels_.empty(); }

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, std::int64_t, Hash, std::equal_to<>> byName_;
    std::map<std::int64_t, std::string> labels_;
    std::size_t collisions_ = 0;
};

} // namespace gpueff
