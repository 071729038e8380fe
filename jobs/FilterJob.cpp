#include "jobs/FilterJob.h"

#include "engine/paraver/PrvParser.h"
#include "engine/paraver/RowModel.h"
#include "engine/paraver/TraceHeader.h"
#include "engine/paraver/TraceLabels.h"
#include "engine/pipeline/PrvSource.h"
#include "jobs/JobInputs.h"

#include <cstdio>

namespace gpueff::jobs {

FilterResult filterTrace(const FilterRequest& request) {
    const auto& stream = request.stream;
    auto o = request.filter;
    if (o.minDuration && (*o.minDuration <= 0 || *o.minDuration > paraver::kMaxTime))
        throw RequestError("--min-duration must be in 1.." + std::to_string(paraver::kMaxTime) + ", got " +
                           std::to_string(*o.minDuration));
    bool paraver = paraverInput(stream);
    if (o.keepTypes.empty() && o.dropTypes.empty() && !o.minDuration && o.tasks.empty() &&
        o.devices.empty() && stream.only.empty() && stream.skip.empty())
        throw RequestError("filter: nothing to filter: give --types, --drop-types, --min-duration, --tasks, "
                           "--devices, --only or --skip");
    if (paraver && !o.devices.empty()) {
        // A Paraver trace says which rows are GPU rows of which device in its .row only.
        const auto& input = stream.inputs.front();
        paraver::TraceLabels labels;
        paraver::readRow(pipeline::companionFile(input, ".row"), labels, {});
        paraver::FileBytes file(input);
        paraver::LineReader in(file, input);
        o.layout = paraver::layoutFromLabels(paraver::readHeaderLine(in, paraver::kMaxObjects), labels);
    }
    FilterResult result;
    result.stream = streamTrace(stream, {[&](pipeline::RecordSink& next) {
                                    return std::make_unique<pipeline::FilterStage>(next, o, &result.counts);
                                }});
    if (!stream.quiet) {
        const auto& c = result.counts;
        std::fprintf(stderr, "gpueff: filter: %llu records kept, %llu dropped",
                     static_cast<unsigned long long>(c.recordsKept),
                     static_cast<unsigned long long>(c.recordsDropped));
        if (o.minDuration)
            std::fprintf(stderr, " (%llu intervals shorter than %lld)",
                         static_cast<unsigned long long>(c.shortIntervals),
                         static_cast<long long>(*o.minDuration));
        std::fputc('\n', stderr);
    }
    return result;
}

} // namespace gpueff::jobs
