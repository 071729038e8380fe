#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

namespace gpueff {

// Every JSON gpueff writes: indented, newline-terminated, and never failing on a string that is not valid
// UTF-8 (a kernel or file name from an input): such bytes become U+FFFD instead of aborting the command.
inline std::string dumpJson(const nlohmann::json& j) {
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// The same text written to a stream as it is made: a large report (128 reports: 12 MB) is not held twice.
inline void dumpJson(const nlohmann::json& j, std::ostream& out) {
    nlohmann::detail::serializer<nlohmann::json> s(nlohmann::detail::output_adapter<char>(out), ' ',
                                                   nlohmann::json::error_handler_t::replace);
    s.dump(j, true, false, 2);
    out << '\n';
}

} // namespace gpueff
