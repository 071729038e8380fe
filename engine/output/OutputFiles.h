#pragma once
#include "engine/common/Error.h"
#include "engine/output/DirectoryLock.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

namespace gpueff::output {

// The output set of one command, written as a whole or not at all.
//
// Each output is first written to a temporary in a private staging directory (DIR/.gpueff-staging-*) inside
// the directory it goes to, so temporaries of concurrent runs never share a name and the final moves are
// renames within one file system. The directory is locked (DirectoryLock) from the first temporary to the
// end of commit(). commit() checks every target first (a directory in the way is an Error naming it, before
// anything moves), keeps the previous files as backups, moves the new ones in, and on any failure restores
// the backups and removes what it moved; backups are deleted only once every move succeeded. If the writer
// throws before commit(), the destructor removes the staging directories: the previous outputs stay as
// they were and nothing temporary is left.
class OutputFiles {
public:
    // Outputs go to the directories they name (which must exist). With `root`, outputs may also lie in
    // subdirectories of root that do not exist yet (created at commit, removed again on failure), and root
    // is locked even before the first output is added.
    explicit OutputFiles(const std::vector<std::filesystem::path>& finals = {},
                         const std::filesystem::path& root = {});
    ~OutputFiles();
    OutputFiles(const OutputFiles&) = delete;
    OutputFiles& operator=(const OutputFiles&) = delete;

    // Adds an output and returns its index; its temporary exists (empty) on return.
    std::size_t add(const std::filesystem::path& final);
    std::size_t size() const { return outputs_.size(); }
    const std::filesystem::path& temporary(std::size_t i) const { return outputs_.at(i).temporary; }
    const std::filesystem::path& final(std::size_t i) const { return outputs_.at(i).final; }
    void commit();

    // Tests replace the rename of the temporaries into place to make one fail part-way.
    using Move = std::function<void(const std::filesystem::path& from, const std::filesystem::path& to,
                                    std::error_code& ec)>;
    void setMoveForTesting(Move move) { move_ = std::move(move); }

private:
    struct Stage {
        std::filesystem::path dir, staging;
        std::unique_ptr<DirectoryLock> lock;
    };
    struct Output {
        std::filesystem::path final, temporary, backup, relative;
        std::size_t stage = 0;
        bool backedUp = false, movedAside = false, movedIn = false;
    };
    std::filesystem::path root_;
    std::vector<Stage> stages_;
    std::vector<Output> outputs_;
    std::vector<std::filesystem::path> createdDirectories_;
    Move move_;
    bool committed_ = false;

    std::size_t stageFor(const std::filesystem::path& dir, const std::filesystem::path& final);
    void checkTargets() const;
    void rollBack();
    void removeStaging() noexcept;
};

// Runs `write` (which writes the outputs of a command into `dir`) with `dir` created first, parents included,
// when missing. When `write` throws, a directory this call created is removed again, only when empty (never
// what another run put there meanwhile: OutputFiles has already removed its own staging), so that a failure
// leaves nothing behind; the exception goes on.
template <class Write>
decltype(auto) inOutputDirectory(const std::filesystem::path& dir, Write&& write) {
    std::error_code ec;
    bool created = !std::filesystem::exists(dir, ec);
    std::filesystem::create_directories(dir, ec);
    if (ec) throw Error(dir.string() + ": cannot create the output directory: " + ec.message());
    try {
        return write();
    } catch (...) {
        if (created) std::filesystem::remove(dir, ec);
        throw;
    }
}

// Writes `text` to `temporary` (renamed to `final` later by OutputFiles); errors name the final file.
void writeTextFile(const std::filesystem::path& temporary, const std::filesystem::path& final,
                   const std::string& text);
// The same with the text written by `write` as it is made.
void writeTextFile(const std::filesystem::path& temporary, const std::filesystem::path& final,
                   const std::function<void(std::ostream&)>& write);

} // namespace gpueff::output
