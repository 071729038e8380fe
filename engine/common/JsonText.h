#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace gpueff {

// Every JSON gpueff writes: indented, newline-terminated, and never failing on a string that is not valid
// UTF-8 (a kernel or file name from an input): such bytes become U+FFFD instead of aborting the command.
inline std::string dumpJson(const nlohmann::json& j) {
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace gpueff
