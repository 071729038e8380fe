#pragma once
// The verdict of `gpueff compare` (docs/compare.md "Verdict"): for each run against the reference, whether
// it is faster or slower per unit of work and by how much, whether that is beyond the run-to-run noise, and
// the two or three parts of the POP split of the device time that explain most of the difference, with their
// evidence; then whether the runs can be compared at all. At the top of compare.md, and as "verdict" in
// compare.json.
#include "reports/CompareUnit.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gpueff::reports::compare {

struct Comparing {
    const std::vector<model::Report>& reports;
    const std::vector<RunUnit>& units; // in step with reports
    std::size_t reference;
    bool weak;
};

// Why the runs may not be comparable (different iteration markers, kernels that run in one only), one
// sentence each, for the reference against each run.
std::vector<std::string> comparability(const Comparing& c);

void verdictSection(const Comparing& c, std::string& markdown, nlohmann::json& comparison);

} // namespace gpueff::reports::compare
