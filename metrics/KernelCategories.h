#pragma once
// What kind of work the GPU time went to: kernel names sorted into categories by the patterns of one table
// (docs/report.md "kernel_categories"), the first matching row winning.
#include "metrics/Analysis.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpueff::metrics {

struct CategoryTime {
    std::string category;
    std::int64_t time = 0;       // kernels: sum of their durations; memory: union per device, summed
    std::uint64_t instances = 0; // kernels or memory operations
};

// The categories in table order (GEMM, attention, reduction, elementwise, NCCL, other kernels, memory),
// from the kernel summary and the devices' memory time; categories with no time are left out.
std::vector<CategoryTime> kernelCategories(const Analysis& analysis);

// The category row of one kernel name.
std::string categoryOf(const std::string& kernelName);

} // namespace gpueff::metrics
