#include "jobs/JobInputs.h"

#include "engine/import/Importers.h"

#include <algorithm>
#include <regex>

namespace gpueff::jobs {

InputKind inputKind(const std::vector<std::string>& inputs, const std::string& command) {
    if (inputs.empty()) throw RequestError(command + ": no input given");
    std::vector<char> isTrace;
    for (const auto& in : inputs)
        isTrace.push_back(import::importerOf(in).format == import::InputFormat::ParaverTrace);
    auto traces = static_cast<std::size_t>(std::count(isTrace.begin(), isTrace.end(), 1));
    if (traces == 0) return InputKind::Profiles;
    if (traces < inputs.size())
        for (std::size_t i = 0; i < inputs.size(); ++i)
            if (isTrace[i])
                throw RequestError(command + ": " + inputs[i] +
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

std::string reportLabel(const std::filesystem::path& report) {
    if (report.filename() == "report.json") {
        auto dir = std::filesystem::absolute(report).parent_path().filename().string();
        if (!dir.empty()) return dir;
    }
    return report.stem().string();
}

std::set<std::string> numberRepeatedLabels(std::vector<std::string>& labels) {
    std::set<std::string> seen;
    for (std::size_t i = 0; i < labels.size(); ++i)
        if (!seen.insert(labels[i]).second) labels[i] += " #" + std::to_string(i + 1);
    return seen;
}

} // namespace gpueff::jobs
