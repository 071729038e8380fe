#include "jobs/TranslateJob.h"

#include "engine/common/Error.h"
#include "engine/output/OutputFiles.h"
#include "jobs/JobInputs.h"
#include "jobs/Pipeline.h"
#include "jobs/StaleOutputs.h"
#include "jobs/TraceCfgs.h"

namespace gpueff::jobs {

namespace fs = std::filesystem;

nsys::TranslateSummary translateToPrefix(const TranslateRequest& request,
                                         const std::function<void(const std::string&)>& log) {
    if (request.prefix.empty()) throw Error("internal error: translate without an output prefix");
    // The directory of PREFIX holds every output: PREFIX.cfgs/ is created there at the commit.
    fs::path root = request.prefix.parent_path().empty() ? fs::path(".") : request.prefix.parent_path();
    std::error_code ec;
    if (!fs::is_directory(root, ec)) {
        auto prv = request.prefix;
        prv += ".prv";
        throw Error(prv.string() + ": cannot write output: directory " + root.string() + " does not exist");
    }
    output::OutputFiles files({}, root);
    TraceCfgFacts facts;
    PipelineRequest pipeline;
    pipeline.import = request.import;
    if (pipeline.import.spillDirectory.empty()) pipeline.import.spillDirectory = root;
    pipeline.chain.prefix = request.prefix;
    pipeline.chain.sinks = {&facts};
    pipeline.sidecar = true;
    const auto& inputs = request.import.inputs;
    if (request.import.images.empty() && inputKind(std::vector<std::string>(inputs.begin(), inputs.end()),
                                                   "translate") == InputKind::ParaverTrace)
        throw RequestError(
            "translate: " + request.import.inputs.front().string() +
            ": a Paraver trace is not translated (cut, filter, analyze and histogram read it)");
    auto result = runPipeline(pipeline, files, log);
    const auto& summary = result.translation;
    auto stale = addTraceCfgs(files, root, request.prefix, facts, summary.communicationsByTag);
    stale->moveAside();
    files.commit();
    stale->commit();
    return summary;
}

} // namespace gpueff::jobs
