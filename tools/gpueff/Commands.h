#pragma once
#include "engine/common/Error.h"
#include "engine/common/JsonText.h"
#include "engine/output/OutputFiles.h"
#include "jobs/JobInputs.h"
#include "jobs/Peers.h"
#include "reports/CompareGate.h"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gpueff::cli {

// A command line that cannot be run as given (an option value, or options that contradict each other): the
// CLI prints `gpueff: error: <what>` and exits 2, like CLI11's own usage errors. The same error as a job's
// request that cannot be run (jobs::RequestError: a Paraver trace among exports, no window to cut), so a
// command line is refused with one status whether the CLI or the job finds the fault.
using UsageError = jobs::RequestError;

// Checks an option naming a file inside the output directory: not empty, no '/', not "." or "..".
CLI::Validator fileNameValidator();
// Checks an option holding trace nanoseconds: a decimal integer that fits in int64 (CLI11 alone would clamp
// 99999999999999999999 to INT64_MAX and read 0x10 as 16).
CLI::Validator nanosecondsValidator();
// --memory-limit SIZE ("512M", "4G") into `bytes`; `what` is its help text.
void addMemoryLimitOption(CLI::App* command, std::uint64_t& bytes, const std::string& what);

// --labels "a,b,c" of compare and dashboard: the names in order, none empty (a UsageError naming the empty
// one); {} for "".
std::vector<std::string> labelList(const std::string& text);

// --gate EXPR... of compare and dashboard, parsed (reports/CompareGate.h) before any work: a UsageError
// names the one that does not parse.
std::vector<reports::compare::Gate> parseGates(const std::vector<std::string>& texts);

// "a,,b" -> {"a", "b"}: comma-separated names (record kinds, lists of an option).
std::set<std::string> splitList(const std::string& text);

// Each subcommand registers its options and returns the action run when it is selected.
using Action = std::function<int()>;
Action addTranslate(CLI::App& app);
Action addAnalyze(CLI::App& app, jobs::Peers* peers);
Action addHistogram(CLI::App& app);
Action addModelFactors(CLI::App& app);
Action addCompare(CLI::App& app);
Action addCut(CLI::App& app);
Action addFilter(CLI::App& app);
Action addDashboard(CLI::App& app);

// -j,--jobs N of translate and analyze: reports read by N parallel workers.
void addJobsOption(CLI::App* command, unsigned& jobs);
// --unaligned of the commands that merge exports (nsys::TranslateOptions::unaligned).
void addUnalignedOption(CLI::App* command, bool& unaligned);

using output::writeTextFile;

} // namespace gpueff::cli
