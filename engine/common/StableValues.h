#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gpueff {

// Paraver event value for a name (kernel, API call, NVTX range...). nsys2prv numbers names alphabetically per
// run, so the same kernel differs between two traces; we derive the value from the name itself so that every
// trace gpueff writes agrees. Values lie in [1, 2^31): 0 stays "end of interval" and 32-bit viewers cope.
std::int64_t stableNameValue(std::string_view name);

// The names used under one event type. A hash collision between two different names is resolved by probing
// the next free value (deterministically, in first-seen order) and counted so the sidecar can report it.
// Looked up once per NVTX record with names that are often all distinct (PyTorch ranges), so the index is an
// open-addressing table that keeps each name's hash in the slot: one cache line per lookup, no division.
class NameDictionary {
public:
    std::int64_t valueOf(std::string_view name);
    const std::map<std::int64_t, std::string>& labels() const { return labels_; }
    std::size_t collisions() const { return collisions_; }
    bool empty() const { return labels_.empty(); }

private:
    struct Slot {
        std::uint64_t hash = 0;
        std::int64_t value = 0; // 0: empty slot
        const std::string* name = nullptr;
    };
    void grow();

    std::vector<Slot> slots_ = std::vector<Slot>(64);
    std::size_t used_ = 0;
    std::map<std::int64_t, std::string> labels_; // value -> name, node-based so name pointers stay valid
    std::size_t collisions_ = 0;
};

} // namespace gpueff
