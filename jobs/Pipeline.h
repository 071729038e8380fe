#pragma once
// The front door of every command that reads traces (translate, analyze, cut, filter): request -> importer
// (chosen by the registry, engine/import) -> stages -> Tee -> sinks -> the caller's output set. The nsys
// importer (nsys exports and Kineto traces) and the Paraver importer (a .prv of any writer, streamed) feed
// the same sink chain (engine/pipeline/SinkChain); a command only says what it wants of the stream.
#include "engine/import/Importers.h"
#include "engine/nsys/Translator.h"
#include "engine/pipeline/PrvSource.h"
#include "engine/pipeline/SinkChain.h"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace gpueff::output {
class OutputFiles;
}

namespace gpueff::jobs {

struct PipelineRequest {
    std::string command = "translate"; // starts progress lines
    // The inputs, their options as the nsys importer reads them (inputs, kinds, clocks, workers, warnings);
    // a Paraver trace is read by the Paraver importer, which takes no other option.
    nsys::TranslateOptions import;
    pipeline::ChainRequest chain;
    bool sidecar = false;      // PREFIX.json beside the trace files (translate, analyze; not cut, filter)
    bool rowOrderOnly = false; // nsys::TranslateOutputs::rowOrderOnly
    // Of the root of a distributed run writing the trace: the analysis of this process's records
    // (nsys::TranslateOutputs::localOnly); chain.sinks then holds what gets every process's records.
    pipeline::RecordSink* localOnly = nullptr;
    pipeline::RecordSink* rowOrder = nullptr; // nsys::TranslateOutputs::rowOrder
};

struct PipelineResult {
    import::InputFormat format = import::InputFormat::NsysExport; // of the first input
    nsys::TranslateSummary translation;                           // nsys exports and Kineto traces
    pipeline::PrvSourceSummary prv;                               // a Paraver trace
    std::uint64_t records = 0;                                    // records read
    std::uint64_t traceBytes = 0; // of the .prv written (0 without trace files)
};

// Runs the pipeline: the trace files (and sidecar) are added to `files`, uncommitted (the caller commits
// them with its own outputs). Throws gpueff::Error on bad input.
PipelineResult runPipeline(const PipelineRequest& request, output::OutputFiles& files,
                           const std::function<void(const std::string&)>& log);

// --stats: a line per stage, "stage=<group>.<name> wall_s=.. cpu_s=.. on_workers=0|1 peak_rss_mb=.." (the
// process's peak so far, at the stage's end; docs/limits.md).
void printStages(const std::string& group, const std::vector<StageTime>& stages);

} // namespace gpueff::jobs
