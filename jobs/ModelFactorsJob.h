#pragma once
// `gpueff modelfactors` as a library call: Paraver traces of one application at several process counts ->
// the POP CPU model factors as csv (stdout when no file is asked for), JSON and Markdown, all or none.
#include <string>
#include <vector>

namespace gpueff::jobs {

struct ModelFactorsRequest {
    std::vector<std::string> traces;
    std::string csv, json, md;
    bool quiet = false;
};

int runModelFactors(const ModelFactorsRequest& request); // returns the exit status (0)

} // namespace gpueff::jobs
