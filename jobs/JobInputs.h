#pragma once
// What analyze, cut and filter check of a request before any work: what kind of run the inputs are, the
// patterns of names it gives.
#include "engine/common/Error.h"
#include "metrics/NamePattern.h"

#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace gpueff::jobs {

// A request that cannot be run as given: options that contradict each other or the kind of the inputs (a
// Paraver trace among nsys exports), as opposed to a file whose content is bad (gpueff::Error). The CLI
// prints it like a bad option and exits 2 (usage); a library caller can tell the two apart.
class RequestError : public Error {
public:
    using Error::Error;
};

// Profiles: nsys exports (.sqlite, or .nsys-rep exported on the way) and Kineto traces, translated into one
// stream; or one Paraver trace of any writer, read as it is.
enum class InputKind { Profiles, ParaverTrace };

// The inputs of translate, analyze, cut and filter: one Paraver trace, or one or more profiles of one run;
// never a trace among profiles, nor several traces. Each input recognised by the importers' registry
// (engine/import: its first bytes, or its name when they say nothing), before any export or record is read.
// `command` starts the messages. Throws RequestError, or gpueff::Error for an input of no known format.
InputKind inputKind(const std::vector<std::string>& inputs, const std::string& command);

// A pattern of names the user gave in `option` (--gemm-pattern, --iterations), compiled in gpueff's one
// dialect (metrics/NamePattern.h); when it is not one, a RequestError "--gemm-pattern '(': <why>", so that a
// bad pattern is refused before any input is opened, not after the translation.
metrics::NamePattern userPattern(const std::string& option, const std::string& pattern);

// The name of an input without its format's extensions: run.sqlite, run.json and run.json.gz -> run.
std::string inputStem(const std::filesystem::path& input);

// How compare and dashboard name a run by its report: the directory of DIR/report.json (what `analyze -o
// DIR` names), else the file name without .json.
std::string reportLabel(const std::filesystem::path& report);
// Labels that repeat one before them get " #i" (i: 1-based position), so that every run has its own name.
// Returns the distinct labels as given.
std::set<std::string> numberRepeatedLabels(std::vector<std::string>& labels);

} // namespace gpueff::jobs
