#include "engine/paraver/ValueLabels.h"

#include "engine/common/Error.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace gpueff::paraver {

ValueLabels::ValueLabels(std::initializer_list<std::pair<std::int64_t, std::string_view>> labels) {
    for (const auto& [value, text] : labels) set(value, text);
    seal();
}

ValueLabels::ValueLabels(const ValueLabels& other) {
    for (const auto& [value, text] : other) set(value, text);
}

ValueLabels& ValueLabels::operator=(const ValueLabels& other) {
    if (this != &other) *this = ValueLabels(other);
    return *this;
}

ValueLabels& ValueLabels::operator=(ValueLabels&& other) noexcept {
    if (this == &other) return *this;
    blocks_ = std::exchange(other.blocks_, {});
    size_ = std::exchange(other.size_, 0);
    sorted_ = std::exchange(other.sorted_, true);
    texts_ = std::move(other.texts_);
    return *this;
}

std::string_view ValueLabels::textOf(const Slot& slot) {
    std::uint32_t length;
    std::memcpy(&length, slot.text, sizeof length);
    return {slot.text + sizeof length, length};
}

// A label's length, then its text.
const char* ValueLabels::store(std::string_view text) {
    if (text.size() > std::numeric_limits<std::uint32_t>::max())
        throw Error("an event value's label of " + std::to_string(text.size()) + " bytes (at most 4 GiB)");
    const std::size_t need = sizeof(std::uint32_t) + text.size();
    char* at = texts_.allocate(need);
    auto length = static_cast<std::uint32_t>(text.size());
    std::memcpy(at, &length, sizeof length);
    if (!text.empty()) std::memcpy(at + sizeof length, text.data(), text.size());
    return at;
}

void ValueLabels::set(std::int64_t value, std::string_view label) {
    if (size_ > 0 && value <= slot(size_ - 1).value) sorted_ = false;
    const char* text = store(label);
    if (blocks_.empty() || blocks_.back().size() == kBlockSlots) blocks_.emplace_back();
    blocks_.back().push_back({value, text});
    ++size_;
}

void ValueLabels::seal() {
    if (sorted_) return;
    // Stable: of the slots of one value the last set comes last, and is the one kept. A replaced label's
    // text stays in the arena (a .pcf hardly ever labels a value twice).
    std::vector<Slot> all(size_);
    for (std::size_t i = 0; i < size_; ++i) all[i] = slot(i);
    std::stable_sort(all.begin(), all.end(), [](const Slot& a, const Slot& b) { return a.value < b.value; });
    std::size_t kept = 0;
    for (std::size_t i = 0; i < all.size(); ++i)
        if (i + 1 == all.size() || all[i + 1].value != all[i].value) slot(kept++) = all[i];
    size_ = kept;
    blocks_.resize((size_ + kBlockSlots - 1) / kBlockSlots);
    if (!blocks_.empty()) blocks_.back().resize(size_ - (blocks_.size() - 1) * kBlockSlots);
    sorted_ = true;
}

void ValueLabels::requireSealed() const {
    if (!sorted_) throw std::logic_error("event value labels read before they were put in order (seal)");
}

std::optional<std::string_view> ValueLabels::find(std::int64_t value) const {
    requireSealed();
    std::size_t low = 0, high = size_; // the first slot not below `value` lies in [low, high]
    while (low < high) {
        std::size_t mid = low + (high - low) / 2;
        if (slot(mid).value < value)
            low = mid + 1;
        else
            high = mid;
    }
    if (low == size_ || slot(low).value != value) return std::nullopt;
    return textOf(slot(low));
}

std::string_view ValueLabels::at(std::int64_t value) const {
    auto text = find(value);
    if (!text) throw std::out_of_range("no label for event value " + std::to_string(value));
    return *text;
}

bool operator==(const ValueLabels& a, const ValueLabels& b) {
    a.requireSealed();
    b.requireSealed();
    if (a.size_ != b.size_) return false;
    for (std::size_t i = 0; i < a.size_; ++i) {
        const auto &x = a.slot(i), &y = b.slot(i);
        if (x.value != y.value || ValueLabels::textOf(x) != ValueLabels::textOf(y)) return false;
    }
    return true;
}

} // namespace gpueff::paraver
