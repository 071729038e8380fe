#include "engine/output/OutputFiles.h"

#include "engine/common/Error.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <unistd.h>

namespace gpueff::output {

namespace {

namespace fs = std::filesystem;

std::string errorText(int err) {
    return std::strerror(err);
}

// The directories from `base` (exclusive) down to `dir` (inclusive), outermost first.
std::vector<fs::path> chainBelow(const fs::path& base, const fs::path& relativeDir) {
    std::vector<fs::path> out;
    fs::path at = base;
    for (const auto& part : relativeDir) {
        at /= part;
        out.push_back(at);
    }
    return out;
}

} // namespace

OutputFiles::OutputFiles(const std::vector<fs::path>& finals, const fs::path& root) : root_(root) {
    move_ = [](const fs::path& from, const fs::path& to, std::error_code& ec) { fs::rename(from, to, ec); };
    if (!root_.empty()) {
        std::error_code ec;
        if (!fs::is_directory(root_, ec))
            throw Error(root_.string() + ": cannot write output: not a directory");
        stageFor(root_, root_);
    }
    for (const auto& f : finals) add(f);
}

OutputFiles::~OutputFiles() {
    removeStaging();
}

std::size_t OutputFiles::stageFor(const fs::path& dir, const fs::path& final) {
    for (std::size_t i = 0; i < stages_.size(); ++i)
        if (stages_[i].dir == dir) return i;
    Stage stage;
    stage.dir = dir;
    stage.lock = std::make_unique<DirectoryLock>(dir);
    // mkdtemp: a fresh name, unique among concurrent runs and created atomically.
    std::string pattern =
        (dir / (std::string(DirectoryLock::kStagingPrefix) + std::to_string(::getpid()) + "-XXXXXX"))
            .string();
    if (!::mkdtemp(pattern.data()))
        throw Error(final.string() + ": cannot write output in " + dir.string() + " (" + errorText(errno) +
                    ")");
    stage.staging = pattern;
    stages_.push_back(std::move(stage));
    return stages_.size() - 1;
}

std::size_t OutputFiles::add(const fs::path& final) {
    if (committed_) throw Error(final.string() + ": output added after the set was committed");
    if (final.filename().empty() || final.filename() == "." || final.filename() == "..")
        throw Error("'" + final.string() + "': not a file name for an output");
    for (const auto& o : outputs_)
        if (o.final.lexically_normal() == final.lexically_normal())
            throw Error(final.string() + ": two outputs of this run would be written to this same file");
    Output out;
    out.final = final;
    if (!root_.empty()) {
        out.relative = final.lexically_normal().lexically_relative(root_.lexically_normal());
        if (out.relative.empty() || *out.relative.begin() == "..")
            throw Error(final.string() + ": output outside the output directory " + root_.string());
        out.stage = 0;
    } else {
        fs::path dir = final.parent_path().empty() ? fs::path(".") : final.parent_path();
        std::error_code ec;
        if (!fs::is_directory(dir, ec))
            throw Error(final.string() + ": cannot write output: directory " + dir.string() +
                        " does not exist");
        out.stage = stageFor(dir, final);
        out.relative = final.filename();
    }
    out.temporary = stages_[out.stage].staging / out.relative;
    out.backup = stages_[out.stage].staging / ".previous" / out.relative;
    std::error_code ec;
    fs::create_directories(out.temporary.parent_path(), ec);
    int fd = ::open(out.temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) throw Error(final.string() + ": cannot write output (" + errorText(errno) + ")");
    ::close(fd);
    outputs_.push_back(std::move(out));
    return outputs_.size() - 1;
}

void OutputFiles::checkTargets() const {
    for (const auto& o : outputs_) {
        std::error_code ec;
        for (const auto& dir : chainBelow(stages_[o.stage].dir, o.relative.parent_path())) {
            auto s = fs::status(dir, ec);
            if (fs::exists(s) && !fs::is_directory(s))
                throw Error(dir.string() + ": not a directory, so it cannot hold the output " +
                            o.final.string());
        }
        if (fs::is_directory(fs::symlink_status(o.final, ec)))
            throw Error(o.final.string() +
                        ": a directory is in the way of this output file (nothing was written)");
    }
}

void OutputFiles::commit() {
    if (committed_) return;
    checkTargets();
    try {
        for (const auto& o : outputs_)
            for (const auto& dir : chainBelow(stages_[o.stage].dir, o.relative.parent_path())) {
                std::error_code ec;
                if (fs::exists(fs::symlink_status(dir, ec))) continue;
                if (!fs::create_directory(dir, ec) || ec)
                    throw Error(dir.string() + ": cannot create the output directory: " + ec.message());
                createdDirectories_.push_back(dir);
            }
        // The previous files are kept (hard links, or moved aside where links are not supported) until
        // every new file is in place.
        for (auto& o : outputs_) {
            std::error_code ec;
            if (!fs::exists(fs::symlink_status(o.final, ec))) continue;
            fs::create_directories(o.backup.parent_path(), ec);
            if (::link(o.final.c_str(), o.backup.c_str()) == 0) {
                o.backedUp = true;
                continue;
            }
            fs::rename(o.final, o.backup, ec);
            if (ec)
                throw Error(o.final.string() +
                            ": cannot keep the previous file while replacing it: " + ec.message());
            o.backedUp = o.movedAside = true;
        }
        for (auto& o : outputs_) {
            std::error_code ec;
            move_(o.temporary, o.final, ec);
            if (ec) throw Error(o.final.string() + ": cannot move the output into place: " + ec.message());
            o.movedIn = true;
        }
    } catch (...) {
        rollBack();
        throw;
    }
    committed_ = true;
    removeStaging();
}

void OutputFiles::rollBack() {
    for (auto it = outputs_.rbegin(); it != outputs_.rend(); ++it) {
        std::error_code ec;
        if (it->backedUp && (it->movedIn || it->movedAside))
            fs::rename(it->backup, it->final, ec);
        else if (it->movedIn)
            fs::remove(it->final, ec);
        it->movedIn = it->movedAside = it->backedUp = false;
    }
    for (auto it = createdDirectories_.rbegin(); it != createdDirectories_.rend(); ++it) {
        std::error_code ec;
        fs::remove(*it, ec); // only when empty: never what another program put there meanwhile
    }
    createdDirectories_.clear();
}

void OutputFiles::removeStaging() noexcept {
    for (const auto& s : stages_) {
        std::error_code ec;
        fs::remove_all(s.staging, ec);
    }
}

void writeTextFile(const std::filesystem::path& temporary, const std::filesystem::path& final,
                   const std::string& text) {
    writeTextFile(temporary, final, [&](std::ostream& out) { out << text; });
}

void writeTextFile(const std::filesystem::path& temporary, const std::filesystem::path& final,
                   const std::function<void(std::ostream&)>& write) {
    std::ofstream out(temporary, std::ios::binary);
    write(out);
    out.close();
    if (!out) throw Error(final.string() + ": write failed (disk full?)");
}

} // namespace gpueff::output
