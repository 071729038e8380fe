#include "jobs/JobInputs.h"

#include "engine/semantic/LoadedTrace.h"

#include <regex>

namespace gpueff::jobs {

InputKind inputKind(const std::vector<std::string>& inputs, const std::string& command) {
    if (inputs.empty()) throw RequestError(command + ": no input given");
    std::size_t traces = 0;
    for (const auto& in : inputs) traces += semantic::isParaverTrace(in);
    if (traces == 0) return InputKind::NsysExports;
    if (traces < inputs.size())
        for (const auto& in : inputs)
            if (semantic::isParaverTrace(in))
                throw RequestError(command + ": " + in +
                                   ": a Paraver trace cannot be mixed with nsys exports (give one trace, or "
                                   "the exports of one run)");
    if (traces > 1)
        throw RequestError(command + " takes one Paraver trace (or several nsys exports of one run), got " +
                           std::to_string(traces) + " traces");
    return InputKind::ParaverTrace;
}

metrics::NamePattern userPattern(const std::string& option, const std::string& pattern) {
    try {
        return metrics::NamePattern(pattern);
    } catch (const std::regex_error& e) {
        throw RequestError(option + " '" + pattern + "': " + e.what() +
                           " (an ECMAScript regular expression, case-insensitive)");
    }
}

std::string inputStem(const std::filesystem::path& input) {
    std::filesystem::path name = input.filename();
    if (name.extension() == ".gz") name = name.stem();
    return name.stem().string();
}

} // namespace gpueff::jobs
