#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace gpueff {

// A set of output files written under temporary names and renamed into place together by commit(); if the
// writer fails or throws first, the destructor removes them, so a failed run leaves no half-written output.
class OutputFiles {
public:
    explicit OutputFiles(std::vector<std::filesystem::path> finals);
    ~OutputFiles();
    OutputFiles(const OutputFiles&) = delete;
    OutputFiles& operator=(const OutputFiles&) = delete;

    const std::filesystem::path& temporary(std::size_t i) const { return temps_.at(i); }
    const std::filesystem::path& final(std::size_t i) const { return finals_.at(i); }
    void commit();

private:
    std::vector<std::filesystem::path> finals_, temps_;
    bool committed_ = false;
};

} // namespace gpueff
