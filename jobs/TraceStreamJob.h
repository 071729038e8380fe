#pragma once
// What `gpueff cut` and `gpueff filter` share, as a library call: the inputs (nsys exports, translated on the
// way, or one Paraver trace of any writer, streamed) -> stages -> PREFIX.prv/.pcf/.row, written as a whole or
// not at all. The CLI only parses options into a request (CutJob.h, FilterJob.h).
#include "engine/pipeline/SinkChain.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace gpueff::jobs {

struct TraceStreamRequest {
    std::string command = "cut"; // "cut", "filter": starts progress lines and messages
    std::vector<std::string> inputs;
    std::string prefix;               // empty: no files (a first pass into a sink only)
    std::set<std::string> only, skip; // record kinds of nsys exports (as `translate`)
    bool quiet = false, stats = false;
    bool unaligned = false; // nsys::TranslateOptions::unaligned
    // nsys exports: only these kinds' records are read, in the full translation's trace time
    // (nsys::TranslateOptions::streamedKinds).
    std::set<std::string> streamedKinds;
};

// Checks the request's inputs (inputKind) and its kinds against them (--only/--skip select kinds of nsys
// exports); returns whether the input is a Paraver trace. Throws RequestError.
bool paraverInput(const TraceStreamRequest& request);

using StageFactory = pipeline::StageFactory;

struct TraceStreamSummary {
    std::uint64_t records = 0;   // records read (of a .prv: up to where the stages were satisfied)
    std::uint64_t fileBytes = 0; // size of the .prv (0 for exports)
    std::uint64_t bytesRead = 0; // of the .prv, when its reading stopped early (else fileBytes)
    bool stoppedEarly = false;   // a .prv was not read to its end: the stages needed no more
    std::uint64_t bytesWritten = 0;
    double seconds = 0;
};

// Streams the inputs through `stages` (first = nearest the input) into `sink` and, with a prefix, into
// PREFIX.prv/.pcf/.row, committed at the end. The output has no sidecar JSON, so the reference to one in
// translate's comment line is left out of it.
TraceStreamSummary streamTrace(const TraceStreamRequest& request, const std::vector<StageFactory>& stages,
                               pipeline::RecordSink* sink = nullptr);


} // namespace gpueff::jobs
