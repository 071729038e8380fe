#include "jobs/StaleOutputs.h"

#include "engine/common/Error.h"
#include "engine/output/DirectoryLock.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace gpueff::jobs {

namespace fs = std::filesystem;

StaleOutputs::StaleOutputs(fs::path dir, const std::vector<std::string>& names,
                           const std::set<std::string>& written)
    : dir_(std::move(dir)) {
    for (const auto& name : names) {
        std::error_code ec;
        // A directory, a link or anything but a plain file under one of our names is not ours to remove.
        if (!written.count(name) && fs::is_regular_file(fs::symlink_status(dir_ / name, ec)))
            stale_.push_back(name);
    }
}

StaleOutputs::~StaleOutputs() {
    if (!committed_) restore();
}

void StaleOutputs::moveAside() {
    if (stale_.empty()) return;
    // mkdtemp: a fresh name, unique among concurrent runs, on the file system of the files (a rename).
    std::string pattern = (dir_ / (std::string(output::DirectoryLock::kStagingPrefix) +
                                   std::to_string(::getpid()) + "-stale-XXXXXX"))
                              .string();
    if (!::mkdtemp(pattern.data()))
        throw Error(dir_.string() + ": cannot set the previous outputs aside (" + std::strerror(errno) + ")");
    aside_ = pattern;
    for (std::size_t i = 0; i < stale_.size(); ++i) {
        std::error_code ec;
        // Numbered, so that plots/a.svg and other/a.svg could not collide.
        fs::rename(dir_ / stale_[i], aside_ / std::to_string(i), ec);
        if (ec) {
            restore();
            throw Error((dir_ / stale_[i]).string() +
                        ": cannot remove this output of an earlier run: " + ec.message());
        }
        moved_.push_back(stale_[i]);
    }
}

void StaleOutputs::commit() noexcept {
    committed_ = true;
    std::error_code ec;
    if (!aside_.empty()) fs::remove_all(aside_, ec);
}

void StaleOutputs::restore() noexcept {
    for (std::size_t i = 0; i < moved_.size(); ++i) {
        std::error_code ec;
        fs::rename(aside_ / std::to_string(i), dir_ / moved_[i], ec);
    }
    moved_.clear();
    std::error_code ec;
    if (!aside_.empty()) fs::remove(aside_, ec); // only when empty: a file that could not go back stays
    aside_.clear();
}

} // namespace gpueff::jobs
