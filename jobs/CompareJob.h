#pragma once
// `gpueff compare` as a library call: reports of `gpueff analyze` (or traces, analyzed on the way) side by
// side, with scaling against the run with the fewest devices: DIR/compare.md, DIR/compare.json and
// DIR/plots/*.svg written all or none.
#include <string>
#include <vector>

namespace gpueff::jobs {

struct CompareRequest {
    std::vector<std::string> inputs; // report.json files, directories holding one, or traces
    std::vector<std::string> labels; // one per input, or empty (directory or file names)
    std::string outDir;              // created when missing (and removed again when the run fails)
    bool weak = false, quiet = false;
};

int runCompare(const CompareRequest& request); // returns the exit status (0); throws Error otherwise

} // namespace gpueff::jobs
