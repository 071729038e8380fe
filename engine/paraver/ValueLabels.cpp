#include "engine/paraver/ValueLabels.h"

#include "engine/common/Error.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace gpueff::paraver {

namespace {
constexpr std::size_t kChunkBytes = 1 << 18;
} // namespace

ValueLabels::ValueLabels(std::initializer_list<std::pair<std::int64_t, std::string_view>> labels) {
    for (const auto& [value, text] : labels) set(value, text);
    seal();
}

ValueLabels::ValueLabels(const ValueLabels& other) {
    other.requireSealed();
    slots_.reserve(other.slots_.size());
    for (const auto& [value, text] : other) set(value, text);
}

ValueLabels& ValueLabels::operator=(const ValueLabels& other) {
    if (this != &other) *this = ValueLabels(other);
    return *this;
}

std::string_view ValueLabels::textOf(const Slot& slot) {
    std::uint32_t length;
    std::memcpy(&length, slot.text, sizeof length);
    return {slot.text + sizeof length, length};
}

// A label's length, then its text, in the current chunk, or a chunk of its own when larger than one.
const char* ValueLabels::store(std::string_view text) {
    if (text.size() > std::numeric_limits<std::uint32_t>::max())
        throw Error("an event value's label of " + std::to_string(text.size()) + " bytes (at most 4 GiB)");
    const std::size_t need = sizeof(std::uint32_t) + text.size();
    if (chunks_.empty() || chunkUsed_ + need > chunkSize_) { // (a moved-from object has no chunk)
        chunkSize_ = std::max(kChunkBytes, need);
        chunks_.push_back(std::make_unique<char[]>(chunkSize_));
        chunkUsed_ = 0;
    }
    char* at = chunks_.back().get() + chunkUsed_;
    auto length = static_cast<std::uint32_t>(text.size());
    std::memcpy(at, &length, sizeof length);
    if (!text.empty()) std::memcpy(at + sizeof length, text.data(), text.size());
    chunkUsed_ += need;
    return at;
}

void ValueLabels::set(std::int64_t value, std::string_view label) {
    if (!slots_.empty() && value <= slots_.back().value) sorted_ = false;
    slots_.push_back({value, store(label)});
}

void ValueLabels::seal() {
    if (sorted_) return;
    // Stable: of the slots of one value the last set comes last, and is the one kept. A replaced label's
    // text stays in the arena (a .pcf hardly ever labels a value twice).
    std::stable_sort(slots_.begin(), slots_.end(),
                     [](const Slot& a, const Slot& b) { return a.value < b.value; });
    std::size_t kept = 0;
    for (std::size_t i = 0; i < slots_.size(); ++i) {
        if (i + 1 < slots_.size() && slots_[i + 1].value == slots_[i].value) continue;
        slots_[kept++] = slots_[i];
    }
    slots_.resize(kept);
    slots_.shrink_to_fit();
    sorted_ = true;
}

void ValueLabels::requireSealed() const {
    if (!sorted_) throw std::logic_error("event value labels read before they were put in order (seal)");
}

std::optional<std::string_view> ValueLabels::find(std::int64_t value) const {
    requireSealed();
    auto it = std::lower_bound(slots_.begin(), slots_.end(), value,
                               [](const Slot& s, std::int64_t v) { return s.value < v; });
    if (it == slots_.end() || it->value != value) return std::nullopt;
    return textOf(*it);
}

std::string_view ValueLabels::at(std::int64_t value) const {
    auto text = find(value);
    if (!text) throw std::out_of_range("no label for event value " + std::to_string(value));
    return *text;
}

bool operator==(const ValueLabels& a, const ValueLabels& b) {
    a.requireSealed();
    b.requireSealed();
    return std::equal(a.slots_.begin(), a.slots_.end(), b.slots_.begin(), b.slots_.end(),
                      [](const auto& x, const auto& y) {
                          return x.value == y.value && ValueLabels::textOf(x) == ValueLabels::textOf(y);
                      });
}

} // namespace gpueff::paraver
