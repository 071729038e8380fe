#include "jobs/ModelFactorsJob.h"

#include "engine/common/Error.h"
#include "engine/common/JsonText.h"
#include "engine/output/OutputFiles.h"
#include "engine/semantic/LoadedTrace.h"
#include "metrics/ModelFactors.h"
#include "reports/ModelFactorsReport.h"

#include <cstdio>
#include <fstream>

namespace gpueff::jobs {

int runModelFactors(const ModelFactorsRequest& a) {
    std::vector<metrics::RunMeasures> runs;
    for (const auto& t : a.traces) {
        if (!a.quiet) std::fprintf(stderr, "measuring %s\n", t.c_str());
        auto loaded = semantic::LoadedTrace::load(t);
        for (const auto& w : loaded->trace().warnings())
            std::fprintf(stderr, "gpueff: warning: %s\n", w.c_str());
        runs.push_back(metrics::measureRun(*loaded));
    }
    auto factors = metrics::computeModelFactors(std::move(runs));
    auto csv = reports::modelFactorsCsv(factors);
    std::vector<std::filesystem::path> finals;
    std::vector<std::string> texts;
    if (!a.csv.empty()) {
        finals.emplace_back(a.csv);
        texts.push_back(csv);
    }
    if (!a.json.empty()) {
        finals.emplace_back(a.json);
        texts.push_back(dumpJson(reports::modelFactorsJson(factors)));
    }
    if (!a.md.empty()) {
        finals.emplace_back(a.md);
        texts.push_back(reports::modelFactorsMarkdown(factors));
    }
    output::OutputFiles outputs(finals);
    for (std::size_t i = 0; i < finals.size(); ++i) {
        std::ofstream out(outputs.temporary(i));
        out << texts[i];
        out.close();
        if (!out) throw Error(finals[i].string() + ": cannot write");
    }
    outputs.commit();
    if (finals.empty()) std::fputs(csv.c_str(), stdout);
    return 0;
}

} // namespace gpueff::jobs
