#pragma once
// Comparison of gpueff histogram's files with paramedir -npr's outputs of the same trace and cfg.
#include <filesystem>
#include <string>
#include <vector>

namespace testsupport {

std::vector<std::string> fileLines(const std::filesystem::path& p);
std::vector<std::string> tabFields(const std::string& line);

// A histogram text (.txt): labels exactly; numbers exactly when `relative` is 0, else within `relative` of
// paramedir's; StDev judged against the column's Average (paramedir computes it as sqrt(E[x^2] - E[x]^2) and
// prints noise) and, with `stdevFromRows`, checked against a deviation computed here from the printed rows
// (which cannot tell an empty cell from a 0: only for tables whose zeros are all empty cells).
void compareHistogram(const std::filesystem::path& ours, const std::filesystem::path& expected,
                      double relative = 0.0, bool stdevFromRows = true);

// A timeline dump (.csv against paramedir's .txt.csv): the same rows, labels and times exactly, values
// within `relative`.
void compareTimeline(const std::filesystem::path& ours, const std::filesystem::path& expected,
                     double relative = 0.0);

} // namespace testsupport
