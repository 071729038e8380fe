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
    // Never destroyed: a static path would be destroyed before the atexit handler registered while it was
    // being made runs (handlers run in reverse order), and the directory would stay behind.
    static const std::filesystem::path* dir = [harness] {
        auto* d = new std::filesystem::path(
            std::filesystem::temp_directory_path() /
            ("gpueff-fuzz-" + std::string(harness) + "-" + std::to_string(::getpid())));
        std::filesystem::create_directories(*d);
        std::atexit([] {
            std::error_code ec;
            std::filesystem::remove_all(*dir, ec);
        });
        return d;
    }();
    return *dir;
}

} // namespace fuzzsupport
