#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpueff {

// Paraver event value for a name (kernel, API call, NVTX range...). nsys2prv numbers names alphabetically per
// run, so the same kernel differs between two traces; we derive the value from the name itself so that every
// trace gpueff writes agrees. Values lie in [1, 2^31): 0 stays "end of interval" and 32-bit viewers cope.
std::int64_t stableNameValue(std::string_view name);

// The names used under one event type. A hash collision between two different names is resolved by probing
// the next free value (deterministically, in first-seen order) and counted so the sidecar can report it.
// NVTX names are often all distinct (PyTorch ranges carry sequence numbers), so this is the translator's one
// structure that grows with the trace: names live packed in an arena, the index is an open-addressing table
// of 8-byte slots, and a name costs its length plus about 40 bytes.
class NameDictionary {
public:
    std::int64_t valueOf(std::string_view name);
    // Calls f(value, name) for every name, by value (sorting 4-byte indices: millions of names fit).
    template <typename F>
    void forEachByValue(F&& f) const {
        for (auto i : orderByValue())
            f(static_cast<std::int64_t>(entries_[i].value),
              std::string_view(entries_[i].name, entries_[i].length));
    }
    std::size_t size() const { return entries_.size(); }
    std::size_t collisions() const { return collisions_; }
    bool empty() const { return entries_.empty(); }

private:
    struct Entry {
        const char* name;
        std::uint32_t length;
        std::uint32_t value;
    };
    struct Slot {
        std::uint32_t entry = 0; // index + 1; 0: empty
        std::uint32_t tag = 0;   // high bits of the name's hash, checked before the name itself
    };
    std::vector<std::uint32_t> orderByValue() const;
    std::string_view store(std::string_view name);
    bool valueUsed(std::uint32_t v) const;
    void markValue(std::uint32_t v);
    void growSlots();

    std::vector<Slot> slots_ = std::vector<Slot>(64);
    std::vector<std::uint32_t> values_ = std::vector<std::uint32_t>(64); // open-addressing set; 0: empty
    std::deque<Entry> entries_; // chunked: growing never copies millions of entries
    std::vector<std::unique_ptr<char[]>> chunks_;
    std::size_t chunkUsed_ = 0, chunkSize_ = 0;
    std::size_t collisions_ = 0;
};

} // namespace gpueff
