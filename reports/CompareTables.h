#pragma once
// Kernels, GPU gaps and host figures of several reports side by side (reports/CompareTables.cpp), a part of
// gpueff compare's output: appended to its Markdown, and as "kernel_deltas", "gaps" and "host" to its JSON.
#include "reports/model/Report.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gpueff::reports::compare {

// Kernels whose total time changed the most between the first run and each other, per run.
inline constexpr std::size_t kTopKernelDeltas = 10;
// Per-task offload rows beyond this many tasks would drown the table: the mean and the lowest remain.
inline constexpr std::size_t kHostTaskRows = 16;

void compareTables(const std::vector<model::Report>& reports, const std::vector<std::string>& labels,
                   std::string& markdown, nlohmann::json& comparison);

} // namespace gpueff::reports::compare
