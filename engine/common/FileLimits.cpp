#include "engine/common/FileLimits.h"

#include "engine/common/Error.h"

#include <sys/resource.h>

namespace gpueff {

void ensureFileDescriptors(std::uint64_t needed, const std::string& what) {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return; // unknown: let the opens themselves tell
    if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= needed) return;
    if (limit.rlim_max == RLIM_INFINITY || limit.rlim_max >= needed) {
        rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max == RLIM_INFINITY ? needed : limit.rlim_max;
        if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) return;
    }
    throw Error(what + " need about " + std::to_string(needed) + " file descriptors; the limit is " +
                std::to_string(limit.rlim_max == RLIM_INFINITY ? limit.rlim_cur : limit.rlim_max) +
                " (ulimit -n): raise it with `ulimit -n " + std::to_string(needed) + "`");
}

} // namespace gpueff
