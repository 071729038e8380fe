#pragma once
// What `gpueff cut` and `gpueff filter` share: inputs (nsys exports, translated on the way, or one Paraver
// trace, streamed) -> stages -> PREFIX.prv/.pcf/.row, written as a whole or not at all.
#include "engine/pipeline/RecordSink.h"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gpueff::cli {

using StageFactory = std::function<std::unique_ptr<pipeline::RecordSink>(pipeline::RecordSink& next)>;

struct TraceStreamJob {
    std::string command; // "cut", "filter": progress lines and messages
    std::vector<std::string> inputs;
    std::string prefix;               // empty: no files (a first pass into `sink` only)
    std::set<std::string> only, skip; // record kinds of nsys exports
    bool quiet = false, stats = false;
};

// Whether the inputs are one Paraver trace (else nsys exports; a mix or several traces is an Error).
bool paraverInput(const TraceStreamJob& job);

// Streams the inputs through `stages` (first = nearest the input) into `sink` and, with a prefix, into
// PREFIX.prv/.pcf/.row, committed at the end. Returns the bytes read (of a .prv; 0 for exports).
std::uint64_t streamTrace(const TraceStreamJob& job, const std::vector<StageFactory>& stages,
                          pipeline::RecordSink* sink = nullptr);

// The inputs and -o PREFIX of cut and filter, into `job`.
void addStreamInputs(CLI::App* command, TraceStreamJob& job);
// --only/--skip KINDS (record kinds of nsys exports).
void addKindOptions(CLI::App* command, std::string& only, std::string& skip);

// "1,3-4" -> inclusive ranges; `what` names the option in errors (a UsageError).
std::vector<std::pair<std::uint32_t, std::uint32_t>> parseRanges(const std::string& text,
                                                                 const std::string& what);

} // namespace gpueff::cli
