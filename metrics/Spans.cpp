#include "metrics/Spans.h"

#include "engine/common/SortedRuns.h"

#include <algorithm>

namespace gpueff::metrics {

Spans unite(const std::vector<const Spans*>& parts) {
    Spans all;
    all.reserve(spansIn(parts));
    for (const auto* p : parts) all.insert(all.end(), p->begin(), p->end());
    // Parts are rows or unions, in time order: merged. Equal begins in any order unite alike.
    sortByRuns(all, [](const Span& a, const Span& b) { return a.begin < b.begin; });
    // Merged in place: the union is never larger than its parts.
    std::size_t merged = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const auto s = all[i];
        if (s.end <= s.begin) continue;
        if (merged > 0 && s.begin <= all[merged - 1].end)
            all[merged - 1].end = std::max(all[merged - 1].end, s.end);
        else
            all[merged++] = {s.begin, s.end, 1};
    }
    all.resize(merged);
    return all;
}

std::int64_t length(const Spans& merged) {
    std::int64_t total = 0;
    for (const auto& s : merged) total += s.end - s.begin;
    return total;
}

Spans clip(Spans spans, std::int64_t begin, std::int64_t end) {
    std::size_t kept = 0;
    for (const auto& s : spans) {
        std::int64_t b = std::max(s.begin, begin), e = std::min(s.end, end);
        if (e > b) spans[kept++] = {b, e, s.value};
    }
    spans.resize(kept);
    return spans;
}

std::int64_t overlapWith(const Spans& merged, std::int64_t begin, std::int64_t end) {
    auto it = std::upper_bound(merged.begin(), merged.end(), begin,
                               [](std::int64_t t, const Span& s) { return t < s.end; });
    std::int64_t total = 0;
    for (; it != merged.end() && it->begin < end; ++it)
        total += std::min(it->end, end) - std::max(it->begin, begin);
    return total;
}

Spans subtract(const Spans& a, const Spans& b) {
    Spans out;
    auto cut = b.begin();
    for (const auto& s : a) {
        while (cut != b.end() && cut->end <= s.begin) ++cut;
        std::int64_t from = s.begin;
        for (auto c = cut; c != b.end() && c->begin < s.end; ++c) {
            if (c->begin > from) out.push_back({from, c->begin, s.value});
            from = std::max(from, c->end);
        }
        if (from < s.end) out.push_back({from, s.end, s.value});
    }
    return out;
}

void addSpanChanges(const Spans& spans, int counter, std::vector<Change>& out) {
    for (const auto& s : spans) {
        if (s.end <= s.begin) continue;
        out.push_back({s.begin, counter, 1});
        out.push_back({s.end, counter, -1});
    }
}

std::size_t spansIn(const std::vector<const Spans*>& rows) {
    std::size_t spans = 0;
    for (const auto* r : rows) spans += r->size();
    return spans;
}

void addSpanChanges(const std::vector<const Spans*>& rows, int counter, std::vector<Change>& out) {
    out.reserve(out.size() + 2 * spansIn(rows));
    for (const auto* r : rows) addSpanChanges(*r, counter, out);
}

} // namespace gpueff::metrics
