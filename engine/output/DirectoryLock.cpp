#include "engine/output/DirectoryLock.h"

#include "engine/common/Error.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gpueff::output {

namespace {

namespace fs = std::filesystem;

struct Held {
    int fd = -1;
    fs::path file;
    int count = 0;
};

std::mutex& registryMutex() {
    static std::mutex m;
    return m;
}
std::map<std::string, Held>& registry() {
    static std::map<std::string, Held> held;
    return held;
}

void removeStaleStaging(const fs::path& dir) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().filename().string().rfind(DirectoryLock::kStagingPrefix, 0) == 0) {
            std::error_code ignored;
            fs::remove_all(it->path(), ignored);
        }
}

// Opens and locks DIR/.gpueff.lock. The holder removes the file when it is done, so a file we locked may
// already be unlinked; then the path names another file (or none) and we try again on the new one.
int lockFile(const fs::path& dir, const fs::path& file) {
    for (int attempt = 0; attempt < 100; ++attempt) {
        int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        if (fd < 0) throw Error(dir.string() + ": cannot write output here (" + std::strerror(errno) + ")");
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int err = errno;
            ::close(fd);
            if (err == EWOULDBLOCK)
                throw Error(dir.string() + ": another gpueff run is writing here (lock " + file.string() +
                            " held)");
            throw Error(dir.string() + ": cannot lock " + file.string() + " (" + std::strerror(err) + ")");
        }
        struct stat opened {
        }, named{};
        if (::fstat(fd, &opened) == 0 && ::stat(file.c_str(), &named) == 0 && opened.st_dev == named.st_dev &&
            opened.st_ino == named.st_ino)
            return fd;
        ::close(fd);
    }
    throw Error(dir.string() + ": cannot lock " + file.string() + " (it keeps being replaced)");
}

} // namespace

DirectoryLock::DirectoryLock(const fs::path& dir) {
    fs::path where = dir.empty() ? fs::path(".") : dir;
    std::error_code ec;
    auto canonical = fs::weakly_canonical(where, ec);
    key_ = (ec ? fs::absolute(where) : canonical).string();
    std::lock_guard guard(registryMutex());
    auto& held = registry()[key_];
    if (held.count == 0) {
        held.file = where / kFileName;
        try {
            held.fd = lockFile(where, held.file);
        } catch (...) {
            registry().erase(key_);
            throw;
        }
        removeStaleStaging(where);
    }
    ++held.count;
}

DirectoryLock::~DirectoryLock() {
    std::lock_guard guard(registryMutex());
    auto it = registry().find(key_);
    if (it == registry().end() || --it->second.count > 0) return;
    // Unlink before unlocking: a run that opened the file meanwhile sees it gone and opens a fresh one.
    ::unlink(it->second.file.c_str());
    ::close(it->second.fd);
    registry().erase(it);
}

} // namespace gpueff::output
