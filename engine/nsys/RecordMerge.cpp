#include "engine/nsys/RecordMerge.h"

#include "engine/common/Error.h"

#include <algorithm>
#include <cstdio>

namespace gpueff::nsys {

void mergeSources(std::vector<std::unique_ptr<RecordSource>>& sources, pipeline::RecordSink& sink,
                  paraver::EventCatalog& catalog, TranslateSummary& summary, bool progress,
                  const MergeTaps& taps) {
    std::vector<std::size_t> heap;
    for (std::size_t i = 0; i < sources.size(); ++i) {
        sources[i]->advance();
        if (sources[i]->peek()) heap.push_back(i);
    }
    auto later = [&](std::size_t a, std::size_t b) { return headBefore(*sources[b], *sources[a]); };
    std::make_heap(heap.begin(), heap.end(), later);
    std::vector<std::uint64_t> countBySource(sources.size(), 0);
    std::uint64_t nextProgress = 1 << 20;
    std::int64_t lastTime = INT64_MIN;
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), later);
        RecordSource* s = sources[heap.back()].get();
        const TraceRecord& r = *s->peek();
        if (r.time < lastTime) throw Error("internal error: source '" + s->name() + "' is not time-ordered");
        lastTime = r.time;
        sink.consume(r);
        if (taps.all) taps.all->consume(r);
        if (heap.back() == taps.laneSource) taps.lane->consume(r);
        if (heap.back() < taps.localSources) {
            if (taps.local) taps.local->consume(r);
            if (taps.relay) taps.relay->relay(r, s->sequence(), s->origin());
        }
        ++summary.records;
        if (r.isCommunication) {
            ++summary.communicationsByTag[r.comm.tag];
        } else if (r.pairCount > 0) {
            if (r.pairs[0].value != 0) ++summary.beginsByType[r.pairs[0].type];
            for (std::uint8_t i = 0; i < r.pairCount; ++i) catalog.markUsed(r.pairs[i].type);
        }
        ++countBySource[heap.back()];
        s->advance();
        if (s->peek()) {
            std::push_heap(heap.begin(), heap.end(), later);
        } else {
            heap.pop_back();
        }
        if (progress && summary.records >= nextProgress) {
            nextProgress += 1 << 20;
            std::fprintf(stderr, "\rtranslate: %llu records, %.0f%% of the trace time\x1b[K",
                         static_cast<unsigned long long>(summary.records),
                         summary.durationNs > 0
                             ? 100.0 * static_cast<double>(lastTime) / static_cast<double>(summary.durationNs)
                             : 100.0);
        }
    }
    if (progress) std::fprintf(stderr, "\r\x1b[K");
    for (std::size_t i = 0; i < sources.size(); ++i)
        sources[i]->count(countBySource[i], summary.recordsByKind);
}

void addCounts(TranslateSummary& summary, const TranslateSummary& part) {
    summary.records += part.records;
    for (const auto& [tag, n] : part.communicationsByTag) summary.communicationsByTag[tag] += n;
    for (const auto& [type, n] : part.beginsByType) summary.beginsByType[type] += n;
    for (const auto& [kind, n] : part.recordsByKind) summary.recordsByKind[kind] += n;
}

} // namespace gpueff::nsys
