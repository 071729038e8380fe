#include "metrics/Spans.h"

#include "engine/common/SortedRuns.h"

#include <algorithm>

namespace gpueff::metrics {

Spans unite(const std::vector<const Spans*>& parts) {
    Spans all;
    for (const auto* p : parts) all.insert(all.end(), p->begin(), p->end());
    // Parts are rows or unions, in time order: merged. Equal begins in any order unite alike.
    sortByRuns(all, [](const Span& a, const Span& b) { return a.begin < b.begin; });
    Spans merged;
    for (const auto& s : all) {
        if (s.end <= s.begin) continue;
        if (!merged.empty() && s.begin <= merged.back().end)
            merged.back().end = std::max(merged.back().end, s.end);
        else
            merged.push_back({s.begin, s.end, 1});
    }
    return merged;
}

std::int64_t length(const Spans& merged) {
    std::int64_t total = 0;
    for (const auto& s : merged) total += s.end - s.begin;
    return total;
}

Spans clip(const Spans& spans, std::int64_t begin, std::int64_t end) {
    Spans out;
    for (const auto& s : spans) {
        std::int64_t b = std::max(s.begin, begin), e = std::min(s.end, end);
        if (e > b) out.push_back({b, e, s.value});
    }
    return out;
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

} // namespace gpueff::metrics
