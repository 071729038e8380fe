// metrics/Spans: the interval arithmetic under every device metric (unions, differences, clipping, overlap,
// time at each concurrency level), on intervals small enough to check by eye.
#include "metrics/Spans.h"

#include <doctest/doctest.h>

using gpueff::metrics::Change;
using gpueff::metrics::Span;
using gpueff::metrics::Spans;
namespace m = gpueff::metrics;

namespace {

using Bounds = std::vector<std::pair<std::int64_t, std::int64_t>>;

Bounds bounds(const Spans& s) {
    Bounds out;
    for (const auto& x : s) out.emplace_back(x.begin, x.end);
    return out;
}

} // namespace

TEST_CASE("spans: union merges overlapping and touching intervals, drops empty ones") {
    Spans a{{10, 20, 1}, {40, 50, 2}, {60, 60, 3}};
    Spans b{{15, 30, 4}, {30, 35, 5}, {70, 80, 6}};
    auto u = m::unite({&a, &b});
    CHECK(bounds(u) == Bounds{{10, 35}, {40, 50}, {70, 80}});
    CHECK(m::length(u) == 25 + 10 + 10);
    CHECK(m::unite({}).empty());
}

TEST_CASE("spans: difference, clipping and overlap") {
    Spans a{{0, 100, 7}};
    Spans b{{10, 20, 1}, {50, 60, 1}, {90, 120, 1}};
    auto d = m::subtract(a, b);
    CHECK(bounds(d) == Bounds{{0, 10}, {20, 50}, {60, 90}});
    CHECK(d[1].value == 7); // the values of `a` stay
    CHECK(m::length(d) == 70);
    CHECK(bounds(m::subtract(b, a)) == Bounds{{100, 120}});
    CHECK(bounds(m::clip(b, 15, 95)) == Bounds{{15, 20}, {50, 60}, {90, 95}});
    CHECK(m::clip(b, 20, 50).empty());
    CHECK(m::overlapWith(b, 0, 100) == 10 + 10 + 10);
    CHECK(m::overlapWith(b, 55, 95) == 5 + 5);
    CHECK(m::overlapWith(b, 20, 50) == 0);
}

TEST_CASE("spans: time at each level of a sum of counters") {
    // Counter 0: [0,30) and [10,20); counter 1: [25,40).
    std::vector<Change> changes;
    m::addSpanChanges(Spans{{0, 30, 1}, {10, 20, 1}}, 0, changes);
    m::addSpanChanges(Spans{{25, 40, 1}}, 1, changes);
    auto total = [](const std::vector<std::int64_t>& n) { return n[0] + n[1]; };
    // Over [0,50): 1 in [0,10) [20,25) [30,40); 2 in [10,20) [25,30); 0 in [40,50).
    CHECK(m::timeAtLevel(changes, 2, 0, 50, total) ==
          std::map<std::int64_t, std::int64_t>{{0, 10}, {1, 25}, {2, 15}});
    // A window opening inside: changes before it set the state it starts with. [15,28): 2 in [15,20)
    // [25,28), 1 in [20,25).
    CHECK(m::timeAtLevel(changes, 2, 15, 28, total) == std::map<std::int64_t, std::int64_t>{{1, 5}, {2, 8}});
    // Counter 1 only while counter 0 runs (-1 skips): [25,30) at 2.
    auto overlap = [](const std::vector<std::int64_t>& n) { return n[0] > 0 && n[1] > 0 ? n[0] + n[1] : -1; };
    CHECK(m::timeAtLevel(changes, 2, 0, 50, overlap) == std::map<std::int64_t, std::int64_t>{{2, 5}});
    // An empty window holds no time.
    CHECK(m::timeAtLevel(changes, 2, 30, 30, total).empty());
}
