#pragma once
// `gpueff translate` as a library call: the trace PREFIX.prv/.pcf/.row, its sidecar PREFIX.json and the cfgs
// that apply to it in PREFIX.cfgs/ (jobs/TraceCfgs.h), written as one all-or-nothing output set.
#include "engine/nsys/Translator.h"

namespace gpueff::jobs {

struct TranslateRequest {
    nsys::TranslateOptions import; // the inputs and how they are read
    std::filesystem::path prefix;  // PREFIX.prv/.pcf/.row/.json and PREFIX.cfgs/
};

// Throws gpueff::Error on bad input; nothing is written then, and the previous outputs stay as they were.
nsys::TranslateSummary translateToPrefix(const TranslateRequest& request,
                                         const std::function<void(const std::string&)>& log);

} // namespace gpueff::jobs
