#pragma once
#include "engine/common/TextArena.h"

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace gpueff {

// The names used under one event type (or one family of types sharing a value space), and their Paraver
// values. Values are dense and follow the names' byte order: the translator first collects every name the
// trace will use (collecting phase), then assignValues() numbers them first, first + 1, ... in sorted order,
// so the same set of names always gets the same values and the .pcf lists them in order. After that, valueOf
// only looks names up: a name that was not collected is a bug of the translator, not of the input.
// NVTX names are often all distinct (PyTorch ranges carry sequence numbers), so this is the translator's one
// structure that grows with the trace: names live packed in an arena, the index is an open-addressing table
// of 8-byte slots, and a name costs its length plus about 40 bytes.
// Thread safety: reports are read by parallel workers, so collecting takes a lock (names arrive from several
// threads; values are only provisional then, and the final numbering does not depend on arrival order).
// assignValues() is called by one thread while no worker runs, after which valueOf only reads: no lock.
class NameDictionary {
public:
    // Collecting: records the name and returns a provisional value (not final). Assigned: its value.
    std::int64_t valueOf(std::string_view name);
    // Numbers the names first, first + 1, ... in byte order; first >= 1 (0 ends an event).
    void assignValues(std::int64_t first = 1);
    bool assigned() const { return assigned_; }
    // Calls f(value, name) for every name, by value.
    template <typename F>
    void forEachByValue(F&& f) const {
        for (auto i : valueOrder())
            f(static_cast<std::int64_t>(entries_[i].value),
              std::string_view(entries_[i].name, entries_[i].length));
    }
    std::size_t size() const { return entries_.size(); }
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
    std::int64_t find(std::string_view name, std::uint64_t hash, std::size_t& slot) const;
    std::vector<std::uint32_t> sortedOrder() const;
    // Entry indices by value: once assigned, placed by value (no sort: 4.7 M names took seconds per .pcf
    // written); before, the names' order, which their values will follow.
    std::vector<std::uint32_t> valueOrder() const;
    void growSlots();

    std::vector<Slot> slots_ = std::vector<Slot>(64);
    std::deque<Entry> entries_; // chunked: growing never copies millions of entries
    TextArena names_;
    bool assigned_ = false;
    std::int64_t first_ = 1; // the first value assigned
    std::mutex collecting_;
};

} // namespace gpueff
