#pragma once
// The options `gpueff cut` and `gpueff filter` share; the work is jobs/TraceStreamJob.h's.
#include "jobs/TraceStreamJob.h"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gpueff::cli {

// The inputs and -o PREFIX of cut and filter, into `request`.
void addStreamInputs(CLI::App* command, jobs::TraceStreamRequest& request);
// --only/--skip KINDS (record kinds of nsys exports).
void addKindOptions(CLI::App* command, std::string& only, std::string& skip);

// "1,3-4" -> inclusive ranges; `what` names the option in errors (a UsageError).
std::vector<std::pair<std::uint32_t, std::uint32_t>> parseRanges(const std::string& text,
                                                                 const std::string& what);

} // namespace gpueff::cli
