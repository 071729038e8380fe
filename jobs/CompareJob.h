#pragma once
// `gpueff compare` as a library call: reports of `gpueff analyze` (or traces, analyzed on the way) side by
// side, with scaling against the run with the fewest devices: DIR/compare.md, DIR/compare.json and
// DIR/plots/*.svg written all or none.
#include "reports/CompareGate.h"

#include <string>
#include <vector>

namespace gpueff::jobs {

struct CompareRequest {
    std::vector<std::string> inputs; // report.json files, directories holding one, or traces
    std::vector<std::string> labels; // one per input, or empty (directory or file names)
    std::string outDir;              // created when missing (and removed again when the run fails)
    bool weak = false, quiet = false;
    std::string reference;                     // --ref LABEL, or empty
    std::vector<reports::compare::Gate> gates; // --gate, parsed when the options were read
    std::string junit;                         // --junit FILE, or empty: the gates as JUnit XML
};

// Exit status of a comparison in which a gate failed (the outputs are written all the same).
inline constexpr int kGateFailed = 4;

// Returns the exit status: 0, or kGateFailed; throws Error otherwise.
int runCompare(const CompareRequest& request);

} // namespace gpueff::jobs
