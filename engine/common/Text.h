#pragma once
#include <string>
#include <string_view>

namespace gpueff {

// `s` without leading and trailing blanks (spaces, tabs, and the '\r' of files written on Windows).
inline std::string trim(std::string_view s) {
    auto b = s.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) return "";
    auto e = s.find_last_not_of(" \t\r");
    return std::string(s.substr(b, e - b + 1));
}

} // namespace gpueff
