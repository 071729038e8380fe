#include "jobs/CutJob.h"

#include "engine/common/Error.h"
#include "engine/pipeline/RegionSpan.h"
#include "jobs/JobInputs.h"

#include <chrono>
#include <cstdio>

namespace gpueff::jobs {

namespace {

void checkWindow(const CutRequest& request) {
    const auto& r = request;
    if (r.occurrence && r.region.empty()) throw RequestError("cut: --occurrence needs --region");
    if (r.occurrence && *r.occurrence == 0) throw RequestError("cut: --occurrence counts from 1");
    if (!r.region.empty() && (r.begin || r.end))
        throw RequestError("cut: the window is --region or --begin/--end, not both");
    if (r.region.empty() && !r.begin && !r.end)
        throw RequestError("cut: give the window: --begin/--end or --region");
    if (r.begin && r.end && *r.begin >= *r.end)
        throw RequestError("cut: --begin " + std::to_string(*r.begin) + " must be before --end " +
                           std::to_string(*r.end));
    if (r.begin && *r.begin < 0) throw RequestError("cut: --begin must be >= 0");
    if (r.end && *r.end <= 0) throw RequestError("cut: --end must be > 0");
}

// The span of the region, in the trace time of the cut's own pass. For nsys exports only the NVTX records
// are read, in the full translation's trace time: time 0 is the first record of any selected kind, which
// the translation's pre-pass finds without reading the others.
std::pair<std::int64_t, std::int64_t> regionSpan(const CutRequest& request, bool paraver) {
    auto first = request.stream;
    first.prefix.clear();
    first.quiet = true;
    if (!paraver) {
        bool nvtx = (first.only.empty() || first.only.count("nvtx")) && !first.skip.count("nvtx");
        if (!nvtx)
            throw RequestError("cut: --region '" + request.region +
                               "' needs the NVTX ranges, which --only/--skip leave out");
        first.streamedKinds = {"nvtx"};
    }
    pipeline::RegionFinder finder(request.region, request.occurrence);
    streamTrace(first, {}, &finder);
    auto span = finder.span();
    if (span.first >= span.second)
        throw Error("--region '" + request.region + "': the span has no length (" +
                    std::to_string(span.first) + ")");
    return span;
}

} // namespace

CutResult cutTrace(const CutRequest& request) {
    checkWindow(request);
    const auto& stream = request.stream;
    bool paraver = paraverInput(stream); // before any work
    CutResult result;
    result.begin = request.begin.value_or(0);
    result.end = request.end;
    std::string description =
        stream.inputs.size() == 1 ? stream.inputs.front() : std::to_string(stream.inputs.size()) + " reports";
    if (!request.region.empty()) {
        auto t0 = std::chrono::steady_clock::now();
        std::tie(result.begin, result.end) = regionSpan(request, paraver);
        result.regionSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!stream.quiet)
            std::fprintf(
                stderr, "gpueff: region '%s'%s: %lld .. %lld (found in %.2f s)\n", request.region.c_str(),
                request.occurrence ? (" occurrence " + std::to_string(*request.occurrence)).c_str() : "",
                static_cast<long long>(result.begin), static_cast<long long>(*result.end),
                result.regionSeconds);
        description += " (NVTX region \"" + request.region + "\"" +
                       (request.occurrence ? ", occurrence " + std::to_string(*request.occurrence) : "") +
                       ")";
    }
    result.stream = streamTrace(stream, {[&](pipeline::RecordSink& next) {
                                    return std::make_unique<pipeline::CutStage>(
                                        next, result.begin, result.end, description, &result.counts);
                                }});
    if (!stream.quiet) {
        const auto& c = result.counts;
        std::fprintf(stderr, "gpueff: cut: %llu records kept\n",
                     static_cast<unsigned long long>(c.recordsKept));
        if (result.stream.stoppedEarly)
            std::fprintf(stderr,
                         "gpueff: cut: read %.1f of %.1f MB: the trace is in time order and the rest lies "
                         "after the window\n",
                         static_cast<double>(result.stream.bytesRead) / 1e6,
                         static_cast<double>(result.stream.fileBytes) / 1e6);
        if (c.communicationsCut)
            std::fprintf(stderr, "gpueff: cut: %llu communications crossing the window's bounds left out\n",
                         static_cast<unsigned long long>(c.communicationsCut));
        if (c.lateRecords)
            std::fprintf(
                stderr,
                "gpueff: cut: %llu events before the window came after their thread's first record "
                "inside it (the input is not in time order per thread): the values they leave at the "
                "window's begin are written at time 0\n",
                static_cast<unsigned long long>(c.lateRecords));
    }
    return result;
}

} // namespace gpueff::jobs
