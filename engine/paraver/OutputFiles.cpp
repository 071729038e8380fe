#include "engine/paraver/OutputFiles.h"

#include "engine/common/Error.h"

#include <fstream>
#include <unistd.h>

namespace gpueff {

OutputFiles::OutputFiles(std::vector<std::filesystem::path> finals) : finals_(std::move(finals)) {
    for (const auto& f : finals_) {
        auto dir = f.parent_path().empty() ? std::filesystem::path(".") : f.parent_path();
        std::error_code ec;
        if (!std::filesystem::is_directory(dir, ec))
            throw Error(f.string() + ": cannot write output: directory " + dir.string() + " does not exist");
        auto tmp = f;
        tmp += ".tmp" + std::to_string(::getpid());
        std::ofstream probe(tmp, std::ios::binary | std::ios::trunc);
        if (!probe) {
            for (const auto& t : temps_) std::filesystem::remove(t, ec);
            throw Error(f.string() + ": cannot write output (permission denied or read-only location)");
        }
        temps_.push_back(tmp);
    }
}

OutputFiles::~OutputFiles() {
    if (committed_) return;
    std::error_code ec;
    for (const auto& t : temps_) std::filesystem::remove(t, ec);
}

void OutputFiles::commit() {
    for (std::size_t i = 0; i < temps_.size(); ++i) {
        std::error_code ec;
        std::filesystem::rename(temps_[i], finals_[i], ec);
        if (ec) throw Error(finals_[i].string() + ": cannot move output into place: " + ec.message());
    }
    committed_ = true;
}

} // namespace gpueff
