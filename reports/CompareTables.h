#pragma once
// Kernels, GPU gaps and host figures of several reports side by side (reports/CompareTables.cpp), a part of
// gpueff compare's output: appended to its Markdown, and as "kernel_deltas", "gaps" and "host" to its JSON.
#include "reports/CompareUnit.h"
#include "reports/model/Report.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gpueff::reports::compare {

// Kernels whose time per unit changed the most between the reference and each other run, per run.
inline constexpr std::size_t kTopKernelDeltas = 10;
// Per-task offload rows beyond this many tasks would drown the table: the mean and the lowest remain.
inline constexpr std::size_t kHostTaskRows = 16;

// The kernels whose time per unit changed most ("kernel_deltas"), below the time split.
void kernelDeltas(const std::vector<model::Report>& reports, const std::vector<std::string>& labels,
                  const std::vector<RunUnit>& units, std::size_t reference, std::string& markdown,
                  nlohmann::json& comparison);
// GPU gaps and host figures over the windows ("gaps", "host").
void compareTables(const std::vector<model::Report>& reports, const std::vector<std::string>& labels,
                   std::string& markdown, nlohmann::json& comparison);

} // namespace gpueff::reports::compare
