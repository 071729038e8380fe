#pragma once
// Interval arithmetic on the intervals a window's row holds with a non-zero value: the building block of
// every device metric (unions per device, clipping to the analysis window, sweeps of concurrency).
#include <cstdint>
#include <map>
#include <vector>

namespace gpueff::metrics {

struct Span {
    std::int64_t begin, end;
    std::int64_t value; // what the window said (a kernel name value, a memory operation kind, a count)
    static void fields(auto& s, auto&& f) {
        f("begin", s.begin);
        f("end", s.end);
        f("value", s.value);
    }
};
using Spans = std::vector<Span>;

// Sorted, disjoint, merged intervals (values dropped).
Spans unite(const std::vector<const Spans*>& parts);
std::int64_t length(const Spans& merged);
// In place: a union clipped is not copied.
Spans clip(Spans spans, std::int64_t begin, std::int64_t end);
// a \ b for merged a and b (merged).
Spans subtract(const Spans& a, const Spans& b);
// |[begin, end) ∩ merged| (merged sorted and disjoint).
std::int64_t overlapWith(const Spans& merged, std::int64_t begin, std::int64_t end);

// Time spent at each level of a sum of counters that change at given instants, inside [begin, end).
// Each change is (time, counter, delta); `level` maps the counters to the histogram key, or -1 to skip.
// 16 bytes: a device of 500 k kernels sweeps a million of them at once.
struct Change {
    std::int64_t time;
    std::int32_t counter;
    std::int32_t delta;
};
template <class Level>
std::map<std::int64_t, std::int64_t> timeAtLevel(std::vector<Change> changes, int counters,
                                                 std::int64_t begin, std::int64_t end, Level level);

// Changes +1/-1 at the bounds of every span of `spans` for counter `counter`.
void addSpanChanges(const Spans& spans, int counter, std::vector<Change>& out);
// The same for every span of `rows`, `out` grown once; how many spans `rows` hold.
std::size_t spansIn(const std::vector<const Spans*>& rows);
void addSpanChanges(const std::vector<const Spans*>& rows, int counter, std::vector<Change>& out);

} // namespace gpueff::metrics

#include "metrics/Spans.inl"
