#pragma once
#include <filesystem>
#include <string>

namespace gpueff::output {

// An exclusive lock on an output directory (flock on DIR/.gpueff.lock), taken without waiting: two gpueff
// runs writing into one directory would otherwise interleave their outputs, so the second one fails at once
// with an Error that names the directory and the lock file. Reentrant within one process (analyze nests the
// translation's outputs inside its own). The lock file is removed on release.
class DirectoryLock {
public:
    explicit DirectoryLock(const std::filesystem::path& dir);
    ~DirectoryLock();
    DirectoryLock(const DirectoryLock&) = delete;
    DirectoryLock& operator=(const DirectoryLock&) = delete;

    static constexpr const char* kFileName = ".gpueff.lock";
    // Prefix of the staging directories of OutputFiles; any left in a directory whose lock we just took is
    // from a run that was killed (a live one would hold the lock), so it is removed.
    static constexpr const char* kStagingPrefix = ".gpueff-staging-";

private:
    std::string key_;
};

} // namespace gpueff::output
