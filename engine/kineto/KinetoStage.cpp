#include "engine/kineto/KinetoStage.h"

#include "engine/common/Error.h"
#include "engine/kineto/CuptiStaging.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <utility>

namespace gpueff::kineto {

namespace {

// A fresh file name under $TMPDIR (mkstemp), removed unless release()d.
class ScratchFile {
public:
    ScratchFile() {
        std::error_code ec;
        auto base = std::filesystem::temp_directory_path(ec);
        if (ec) throw Error("no temporary directory for staging a Kineto trace: " + ec.message());
        std::string pattern = (base / "gpueff-kineto-XXXXXX").string();
        int fd = ::mkstemp(pattern.data());
        if (fd < 0) throw Error(pattern + ": cannot create a temporary file: " + std::strerror(errno));
        ::close(fd);
        path_ = pattern;
    }
    ~ScratchFile() {
        if (!path_.empty()) {
            std::error_code ec;
            std::filesystem::remove(path_, ec);
        }
    }
    ScratchFile(const ScratchFile&) = delete;
    ScratchFile& operator=(const ScratchFile&) = delete;
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path release() { return std::exchange(path_, {}); }

private:
    std::filesystem::path path_;
};

} // namespace

StagedTrace stageTrace(const std::filesystem::path& input,
                       const std::function<void(std::uint64_t)>& progress) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(input, ec)) throw Error(input.string() + ": no such file");
    ScratchFile scratch;
    StagedTrace staged;
    {
        CuptiStaging staging(scratch.path());
        staged.metadata = readChromeTrace(
            input,
            [&](const ChromeEvent& e) {
                ++staged.events;
                staging.add(e);
            },
            progress);
        staging.finish(staged.metadata, input);
        staged.skipped = staging.skipped();
        staged.gpuEvents = staging.gpuEvents();
    }
    staged.database = scratch.release();
    return staged;
}

} // namespace gpueff::kineto
