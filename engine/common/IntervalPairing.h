#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace gpueff {

// How the intervals of one key (an event type) on one row relate.
enum class Nesting {
    // Intervals nest: a begin opens one inside those open, an end closes the innermost (calls, kernels and
    // NVTX ranges as the translator writes them).
    Stack,
    // One value at a time, as Paraver reads one type on one row: a begin first closes the interval open.
    Replace,
};

// What one event did.
enum class Pairing { Opened, Closed, Unmatched };

// The pairing of Paraver begin/end events on one row: under one key (an event type), a value other than 0
// opens an interval and 0 closes one. The rules every reader of the trace shares, written once:
// - events are taken in the order given, so a begin and an end at equal times pair as any other (a
//   duration of 0), and an end closes whatever is innermost then;
// - an end with nothing open (0 first on a row, or after the opens ran out) pairs with nothing: it is
//   Unmatched and changes nothing (an interval begun before the trace or before its reading);
// - an interval never closed stays open; what it means (kept, counted to some time, left out) is the
//   caller's, through forEachOpen at the end.
// An interval carries `Open`, what the caller needs at its end (begin time, value, ...). The intervals of a
// key are a vector reused from one interval to the next: once the deepest nesting has been seen, pairing
// allocates nothing. Keys are few per row (the types of one row), kept sorted for forEachOpen's order.
template <class Open>
class IntervalPairing {
public:
    explicit IntervalPairing(Nesting nesting = Nesting::Stack) : nesting_(nesting) {}

    // One event of `key` with `value`. A value other than 0 opens an interval, made by
    // `open(enclosing)` (enclosing: the innermost interval open under `key`, nullptr when none); under
    // Replace the interval open is first closed (`closed(it, nullptr)`). Value 0 calls
    // `closed(innermost, enclosing)` (enclosing: the interval around it, nullptr when none), the interval
    // is then gone. `closed` may modify or move from the interval, not call back into this pairing.
    template <class MakeOpen, class OnClose>
    Pairing event(std::uint32_t key, std::int64_t value, MakeOpen&& open, OnClose&& closed) {
        auto& stack = lane(key);
        if (value != 0) {
            if (nesting_ == Nesting::Replace && !stack.empty()) {
                closed(stack.back(), static_cast<const Open*>(nullptr));
                stack.clear();
            }
            const Open* enclosing = stack.empty() ? nullptr : &stack.back();
            Open made = open(enclosing);
            stack.push_back(std::move(made));
            return Pairing::Opened;
        }
        if (stack.empty()) return Pairing::Unmatched;
        const Open* enclosing = stack.size() > 1 ? &stack[stack.size() - 2] : nullptr;
        closed(stack.back(), enclosing);
        stack.pop_back();
        return Pairing::Closed;
    }

    // The innermost interval open under `key`, nullptr when none (to add to it what comes after its begin).
    Open* innermost(std::uint32_t key) {
        auto it = find(key);
        return it == lanes_.end() || it->open.empty() ? nullptr : &it->open.back();
    }

    // Every interval still open, `f(key, interval)`: keys in increasing order, outermost first.
    template <class F>
    void forEachOpen(F&& f) {
        for (auto& l : lanes_)
            for (auto& o : l.open) f(l.key, o);
    }

    // Nothing open any more; the storage stays for the next row.
    void clear() {
        for (auto& l : lanes_) l.open.clear();
    }

private:
    struct Lane {
        std::uint32_t key;
        std::vector<Open> open; // innermost last
    };
    typename std::vector<Lane>::iterator find(std::uint32_t key) {
        auto it = std::lower_bound(lanes_.begin(), lanes_.end(), key,
                                   [](const Lane& l, std::uint32_t k) { return l.key < k; });
        return it != lanes_.end() && it->key == key ? it : lanes_.end();
    }
    std::vector<Open>& lane(std::uint32_t key) {
        // The last key asked for first: events of one type come in runs.
        if (last_ < lanes_.size() && lanes_[last_].key == key) return lanes_[last_].open;
        auto it = std::lower_bound(lanes_.begin(), lanes_.end(), key,
                                   [](const Lane& l, std::uint32_t k) { return l.key < k; });
        if (it == lanes_.end() || it->key != key) it = lanes_.insert(it, Lane{key, {}});
        last_ = static_cast<std::size_t>(it - lanes_.begin());
        return it->open;
    }

    Nesting nesting_;
    std::vector<Lane> lanes_; // by key
    std::size_t last_ = 0;
};

} // namespace gpueff
