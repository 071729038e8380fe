#pragma once
// The labels of one event type's values, as a .pcf's VALUES blocks give them: held by value in an array of
// 16-byte slots, their texts in chunks of one arena. A std::map<int64, std::string> took about 120 bytes a
// value beside its text, 560 MB for the 4.7 M NVTX ranges of a PyTorch run that names each by its op_id.
#include "engine/common/TextArena.h"

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace gpueff::paraver {

class ValueLabels {
    struct Slot {
        std::int64_t value;
        const char* text; // after its length, a std::uint32_t
    };

public:
    struct Label {
        std::int64_t value;
        std::string_view text;
    };
    class const_iterator {
    public:
        const_iterator(const ValueLabels* labels, std::size_t at) : labels_(labels), at_(at) {}
        Label operator*() const {
            const Slot& s = labels_->slot(at_);
            return {s.value, textOf(s)};
        }
        const_iterator& operator++() {
            ++at_;
            return *this;
        }
        bool operator==(const const_iterator&) const = default;

    private:
        const ValueLabels* labels_;
        std::size_t at_;
    };

    ValueLabels() = default;
    ValueLabels(std::initializer_list<std::pair<std::int64_t, std::string_view>> labels);
    ValueLabels(const ValueLabels& other);
    ValueLabels& operator=(const ValueLabels& other);
    ValueLabels(ValueLabels&& other) noexcept { *this = std::move(other); }
    ValueLabels& operator=(ValueLabels&& other) noexcept; // leaves `other` empty

    // Labels `value`; a value labelled again takes its latest label, as a .pcf read line by line does.
    // Values set in increasing order are appended; any other order is put in order by seal().
    void set(std::int64_t value, std::string_view label);
    // Orders the values set out of order, keeping each value's latest label. Reading unsealed labels is a
    // logic error.
    void seal();
    // Gives every label the text `relabel` makes of it (kernels' full names, ShortLabels.h). The old texts
    // stay in the arena (views of them stay valid); the types relabelled have few values.
    template <typename F>
    void relabel(F&& relabelText) {
        requireSealed();
        for (std::size_t i = 0; i < size_; ++i) slot(i).text = store(relabelText(textOf(slot(i))));
    }

    std::optional<std::string_view> find(std::int64_t value) const;
    std::string_view at(std::int64_t value) const; // throws std::out_of_range when unlabelled
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const_iterator begin() const {
        requireSealed();
        return {this, 0};
    }
    const_iterator end() const { return {this, size_}; }
    friend bool operator==(const ValueLabels& a, const ValueLabels& b);

private:
    // Slots in blocks of at most kBlockSlots, each grown as a vector: growing never copies more than one
    // block (one vector doubling held 134 MB, and 201 MB while it grew, for the 75 MB of 4.7 M values), and
    // the few values of most types take a few bytes, not a block.
    static constexpr std::size_t kBlockBits = 15, kBlockSlots = std::size_t{1} << kBlockBits;
    Slot& slot(std::size_t i) { return blocks_[i >> kBlockBits][i & (kBlockSlots - 1)]; }
    const Slot& slot(std::size_t i) const { return blocks_[i >> kBlockBits][i & (kBlockSlots - 1)]; }
    static std::string_view textOf(const Slot& slot);
    const char* store(std::string_view text);
    void requireSealed() const;

    std::vector<std::vector<Slot>> blocks_;
    std::size_t size_ = 0;
    bool sorted_ = true; // the slots in strictly increasing value order
    TextArena texts_{std::size_t{1} << 18};
};

} // namespace gpueff::paraver
