#include "jobs/TranslateJob.h"

#include "engine/common/Error.h"
#include "engine/output/OutputFiles.h"
#include "jobs/StaleOutputs.h"
#include "jobs/TraceCfgs.h"

namespace gpueff::jobs {

namespace fs = std::filesystem;

nsys::TranslateSummary translateToPrefix(const nsys::TranslateOptions& options,
                                         const std::function<void(const std::string&)>& log) {
    if (options.prefix.empty()) throw Error("internal error: translate without an output prefix");
    // The directory of PREFIX holds every output: PREFIX.cfgs/ is created there at the commit.
    fs::path root = options.prefix.parent_path().empty() ? fs::path(".") : options.prefix.parent_path();
    std::error_code ec;
    if (!fs::is_directory(root, ec)) {
        auto prv = options.prefix;
        prv += ".prv";
        throw Error(prv.string() + ": cannot write output: directory " + root.string() + " does not exist");
    }
    output::OutputFiles files({}, root);
    TraceCfgFacts facts;
    auto summary = nsys::translate(options, log, files, &facts);
    auto stale = addTraceCfgs(files, root, options.prefix, facts, summary.communicationsByTag);
    stale->moveAside();
    files.commit();
    stale->commit();
    return summary;
}

} // namespace gpueff::jobs
