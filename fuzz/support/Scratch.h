#pragma once
// One scratch directory per fuzzing process, removed at exit: every input of a harness overwrites the same
// files in it.
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <unistd.h>

namespace fuzzsupport {

inline const std::filesystem::path& scratch(const char* harness) {
    static const std::filesystem::path dir = [harness] {
        auto d = std::filesystem::temp_directory_path() /
                 ("gpueff-fuzz-" + std::string(harness) + "-" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        return d;
    }();
    static const bool cleanup = [] {
        std::atexit([] {
            std::error_code ec;
            std::filesystem::remove_all(dir, ec);
        });
        return true;
    }();
    (void)cleanup;
    return dir;
}

} // namespace fuzzsupport
