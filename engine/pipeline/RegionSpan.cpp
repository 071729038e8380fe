#include "engine/pipeline/RegionSpan.h"

#include "engine/common/Error.h"
#include "engine/paraver/EventTypes.h"
#include "engine/paraver/TraceLabels.h"

#include <algorithm>

namespace gpueff::pipeline {

void RegionFinder::begin(const StreamInfo& info) {
    source_ = info.source;
    open_.assign(info.rows.size(), IntervalPairing<Open>(Nesting::Stack));
}

void RegionFinder::consume(const TraceRecord& r) {
    if (r.isCommunication || r.isState) return;
    for (std::uint8_t i = 0; i < r.pairCount; ++i) {
        const auto& p = r.pairs[i];
        if (!paraver::types::isNvtxRangeType(p.type)) continue;
        if (r.row >= open_.size()) open_.resize(r.row + 1);
        open_[r.row].event(
            p.type, p.value,
            [&](const Open*) {
                return Open{p.value, r.time, ++found_[{p.type, r.row, p.value}].count};
            },
            [&](const Open& o, const Open*) {
                auto& f = found_[{p.type, r.row, o.value}];
                f.first = std::min(f.first, o.begin);
                f.last = std::max(f.last, r.time);
                if (occurrence_ && o.index == *occurrence_) {
                    f.kthBegin = o.begin;
                    f.kthEnd = r.time;
                }
            });
    }
}

void RegionFinder::end(const StreamLabels& labels) {
    // The .pcf names the values: read as a file would be, a line at a time as it is written.
    paraver::TraceLabels names;
    paraver::PcfReader reader(source_ + " (.pcf)", names);
    forEachLabelLine(labels.fullNamesPcf(), [&](std::string_view line) { reader.line(line); });
    reader.finish();
    for (const auto& [type, values] : names.eventValues)
        if (paraver::types::isNvtxRangeType(type))
            for (const auto& [value, label] : values)
                if (label == name_) wanted_.push_back({type, value});
}

std::pair<std::int64_t, std::int64_t> RegionFinder::span() const {
    const std::string what = "--region '" + name_ + "'";
    if (wanted_.empty())
        throw Error(what + ": no NVTX range of that name in the trace's .pcf (" + source_ + ")");
    std::int64_t first = INT64_MAX, last = INT64_MIN;
    std::uint64_t most = 0;
    for (const auto& [key, f] : found_) {
        auto [type, row, value] = key;
        (void)row;
        if (std::find(wanted_.begin(), wanted_.end(), std::pair{type, value}) == wanted_.end()) continue;
        most = std::max(most, f.count);
        if (occurrence_) {
            if (f.kthBegin <= f.kthEnd) first = std::min(first, f.kthBegin), last = std::max(last, f.kthEnd);
        } else if (f.first <= f.last) {
            first = std::min(first, f.first);
            last = std::max(last, f.last);
        }
    }
    if (occurrence_ && most < *occurrence_)
        throw Error(what + " --occurrence " + std::to_string(*occurrence_) + ": the range occurs " +
                    std::to_string(most) + (most == 1 ? " time" : " times") + " at most on one thread");
    if (first > last) throw Error(what + ": the range is never closed in the trace");
    return {first, last};
}

} // namespace gpueff::pipeline
