// IntervalPairing (engine/common/IntervalPairing.h), the one pairing of Paraver begin/end events that the
// filter's minimum duration, the region span of `cut` and `analyze`, the iteration markers and the nsys
// stats use. Each sequence is small and its pairs are worked out by hand in the comments.
#include "engine/common/IntervalPairing.h"

#include <doctest/doctest.h>
#include <string>
#include <vector>

using namespace gpueff;

namespace {

struct Open {
    std::int64_t value, begin;
    std::int64_t around; // value of the interval enclosing it when it began, 0 none
};

// One interval as the test sees it: key, value, begin, end (-1 while open), and the value of the interval
// around it when it closed (0 none).
struct Seen {
    std::uint32_t key;
    std::int64_t value, begin, end, around;
    bool operator==(const Seen&) const = default;
};

struct Event {
    std::uint32_t key;
    std::int64_t time, value;
};

struct Outcome {
    std::vector<Pairing> what;               // per event
    std::vector<Seen> closed;                // in the order closed
    std::vector<Seen> open;                  // at the end, by forEachOpen
    std::vector<std::int64_t> aroundAtBegin; // per begin, the enclosing value (0 none)
};

Outcome pairAll(Nesting nesting, const std::vector<Event>& events) {
    IntervalPairing<Open> pairing(nesting);
    Outcome out;
    for (const auto& e : events) {
        out.what.push_back(pairing.event(
            e.key, e.value,
            [&](const Open* enclosing) {
                auto around = enclosing ? enclosing->value : 0;
                out.aroundAtBegin.push_back(around);
                return Open{e.value, e.time, around};
            },
            [&](const Open& o, const Open* enclosing) {
                out.closed.push_back({e.key, o.value, o.begin, e.time, enclosing ? enclosing->value : 0});
            }));
    }
    pairing.forEachOpen([&](std::uint32_t key, const Open& o) {
        out.open.push_back({key, o.value, o.begin, -1, o.around});
    });
    return out;
}

constexpr auto O = Pairing::Opened, C = Pairing::Closed, U = Pairing::Unmatched;

} // namespace

TEST_CASE("nested begins close innermost first, each end knowing the interval around it") {
    // Key 5: 1 opens at 10, 2 at 20 inside it, 3 at 30 inside 2; the ends at 40, 50, 60 close 3, then 2,
    // then 1. So the intervals are 3 = [30, 40] inside 2, 2 = [20, 50] inside 1, 1 = [10, 60] inside none;
    // at their begins, 1 had nothing around it, 2 had 1, 3 had 2.
    auto r =
        pairAll(Nesting::Stack, {{5, 10, 1}, {5, 20, 2}, {5, 30, 3}, {5, 40, 0}, {5, 50, 0}, {5, 60, 0}});
    CHECK(r.what == std::vector<Pairing>{O, O, O, C, C, C});
    CHECK(r.closed == std::vector<Seen>{{5, 3, 30, 40, 2}, {5, 2, 20, 50, 1}, {5, 1, 10, 60, 0}});
    CHECK(r.aroundAtBegin == std::vector<std::int64_t>{0, 1, 2});
    CHECK(r.open.empty());
}

TEST_CASE("keys pair apart: an end closes the innermost interval of its own key only") {
    // 1 opens under key 7 at 0, 2 under key 8 at 5; key 7's end at 10 closes 1 = [0, 10] although 2 began
    // later, key 8's end at 15 closes 2 = [5, 15]. Neither has anything around it (other keys do not nest).
    auto r = pairAll(Nesting::Stack, {{7, 0, 1}, {8, 5, 2}, {7, 10, 0}, {8, 15, 0}});
    CHECK(r.what == std::vector<Pairing>{O, O, C, C});
    CHECK(r.closed == std::vector<Seen>{{7, 1, 0, 10, 0}, {8, 2, 5, 15, 0}});
    CHECK(r.aroundAtBegin == std::vector<std::int64_t>{0, 0});
}

TEST_CASE("an end with nothing open pairs with nothing and changes nothing") {
    // The 0 at 5 comes first on the row (an interval begun before the trace): Unmatched. Then 7 = [10, 20];
    // the second 0 at 30 finds nothing open again: Unmatched, and no interval closes.
    auto r = pairAll(Nesting::Stack, {{3, 5, 0}, {3, 10, 7}, {3, 20, 0}, {3, 30, 0}});
    CHECK(r.what == std::vector<Pairing>{U, O, C, U});
    CHECK(r.closed == std::vector<Seen>{{3, 7, 10, 20, 0}});
    CHECK(r.open.empty());
}

TEST_CASE("begins never closed stay open, listed by key and outermost first") {
    // Key 5: 1 at 10, 2 at 20, 3 at 25; the one end at 30 closes 3 = [25, 30] (inside 2). Key 3: 9 at 15,
    // never closed. Left open: key 3's 9 (begun at 15, nothing around), then key 5's 1 (at 10, nothing
    // around) and 2 (at 20, around it 1): keys in increasing order although key 5 was met first.
    auto r = pairAll(Nesting::Stack, {{5, 10, 1}, {3, 15, 9}, {5, 20, 2}, {5, 25, 3}, {5, 30, 0}});
    CHECK(r.what == std::vector<Pairing>{O, O, O, O, C});
    CHECK(r.closed == std::vector<Seen>{{5, 3, 25, 30, 2}});
    CHECK(r.open == std::vector<Seen>{{3, 9, 15, -1, 0}, {5, 1, 10, -1, 0}, {5, 2, 20, -1, 1}});
}

TEST_CASE("a begin and an end at equal times pair in the order given") {
    // 4 opens at 100 and the end at 100 closes it: [100, 100], a duration of 0. Then 1 = [10, 20] and a 2
    // begun at 20, the time 1 ended, closed at 20 too: [20, 20]. Times are not compared, only order counts:
    // the end at 20 before the begin at 20 closes 1, not 2.
    auto r =
        pairAll(Nesting::Stack, {{1, 100, 4}, {1, 100, 0}, {2, 10, 1}, {2, 20, 0}, {2, 20, 2}, {2, 20, 0}});
    CHECK(r.what == std::vector<Pairing>{O, C, O, C, O, C});
    CHECK(r.closed == std::vector<Seen>{{1, 4, 100, 100, 0}, {2, 1, 10, 20, 0}, {2, 2, 20, 20, 0}});
}

TEST_CASE("negative values open intervals as any value other than 0 does") {
    // -3 at 1 opens, the 0 at 4 closes it: [1, 4].
    auto r = pairAll(Nesting::Stack, {{1, 1, -3}, {1, 4, 0}});
    CHECK(r.closed == std::vector<Seen>{{1, -3, 1, 4, 0}});
}

TEST_CASE("one value at a time: a begin closes the interval open, as Paraver reads a type on a row") {
    // 1 at 0; 2 at 10 closes 1 = [0, 10] (the closing is the begin's own event: its time, nothing around)
    // and opens 2, which has nothing around it either; the 0 at 20 closes 2 = [10, 20]; the 0 at 30 finds
    // nothing: Unmatched; 3 at 40 is never closed.
    auto r = pairAll(Nesting::Replace, {{9, 0, 1}, {9, 10, 2}, {9, 20, 0}, {9, 30, 0}, {9, 40, 3}});
    CHECK(r.what == std::vector<Pairing>{O, O, C, U, O});
    CHECK(r.closed == std::vector<Seen>{{9, 1, 0, 10, 0}, {9, 2, 10, 20, 0}});
    CHECK(r.aroundAtBegin == std::vector<std::int64_t>{0, 0, 0});
    CHECK(r.open == std::vector<Seen>{{9, 3, 40, -1, 0}});
}

TEST_CASE("clear forgets what is open, so a next row starts with nothing") {
    IntervalPairing<Open> pairing;
    auto begin = [](const Open*) { return Open{1, 0, 0}; };
    int closes = 0;
    auto closed = [&](const Open&, const Open*) { ++closes; };
    CHECK(pairing.event(2, 1, begin, closed) == O);
    CHECK(pairing.innermost(2) != nullptr);
    pairing.clear();
    // The end on the next row has no begin on that row.
    CHECK(pairing.innermost(2) == nullptr);
    CHECK(pairing.event(2, 0, begin, closed) == U);
    CHECK(closes == 0);
    int open = 0;
    pairing.forEachOpen([&](std::uint32_t, const Open&) { ++open; });
    CHECK(open == 0);
}
