#pragma once
// `gpueff analyze` as a library call: inputs -> one record pipeline -> report files. The CLI only parses
// options into an AnalyzeRequest.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::jobs {

struct AnalyzeRequest {
    std::vector<std::string> inputs; // nsys exports (.sqlite), or one Paraver trace
    std::string outDir = "gpueff-report", name, region, gemm;
    std::string iterations;                 // NVTX range names marking iterations (regex; empty: the default)
    std::string iterationsFrom = "markers"; // markers (then the GPU's kernel sequence), gpu, off
    std::optional<std::int64_t> begin, end;
    bool writeTrace = true; // false: the report only, no NAME.prv/.pcf/.row/.json beside it
    bool quiet = false, stats = false;
    unsigned jobs = 0;      // reports read in parallel (0: one worker per core)
    bool unaligned = false; // nsys::TranslateOptions::unaligned
    // Bytes of records the analysis of exports holds at a time (0: half the available memory); the rest
    // waits in a temporary file in outDir.
    std::uint64_t memoryLimit = 0;
};

class Peers;

// Translates the exports (writing the trace into outDir unless told not to) and analyzes the records in
// the same pass, or analyzes one Paraver trace; writes report.json, report.md and plots into outDir and
// returns the report. No output remains when it throws (nor the output directory, when it created it; a
// RequestError comes before the directory is created). With peers (`mpirun`, jobs/Distributed.h), every
// process of the run calls it: rank 0 writes the outputs and returns the report, the others return null.
// A pattern that is no regular expression in gpueff's dialect (metrics/NamePattern.h) or an unknown
// iterationsFrom is a RequestError thrown before any input is opened (a .nsys-rep exported).
nlohmann::json analyzeToDirectory(const AnalyzeRequest& request, Peers* peers = nullptr);

} // namespace gpueff::jobs
