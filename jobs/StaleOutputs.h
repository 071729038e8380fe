#pragma once
// Files that an earlier run of a command wrote into its output directory and this run does not (a comparison
// of fewer device counts draws no scaling plots): removed as part of the run's all-or-nothing output set
// (engine/output/OutputFiles), so that the directory holds this run's outputs alone and a failure leaves it
// as it was. Only names the command can write are candidates, and only regular files: never anything else
// a user keeps there.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace gpueff::jobs {

class StaleOutputs {
public:
    // `dir`: the output directory, locked by the caller's OutputFiles for the whole time (DirectoryLock);
    // `names`: every output, relative to dir, the command can write; `written`: those this run writes.
    StaleOutputs(std::filesystem::path dir, const std::vector<std::string>& names,
                 const std::set<std::string>& written);
    // Restores what was moved aside unless committed (the output set failed).
    ~StaleOutputs();
    StaleOutputs(const StaleOutputs&) = delete;
    StaleOutputs& operator=(const StaleOutputs&) = delete;

    // Moves the stale files into a private directory inside dir (its name begins with OutputFiles' staging
    // prefix, so that the next run removes it should this one be killed). Throws Error, with everything
    // back in place, when one cannot be moved. Call right before OutputFiles::commit().
    void moveAside();
    // After OutputFiles::commit() succeeded: the stale files are deleted.
    void commit() noexcept;
    const std::vector<std::string>& stale() const { return stale_; }

private:
    std::filesystem::path dir_, aside_;
    std::vector<std::string> stale_, moved_;
    bool committed_ = false;

    void restore() noexcept;
};

} // namespace gpueff::jobs
