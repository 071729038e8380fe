#pragma once
// How every report names a device: "rank r / GPU g", r the 0-based task in the order of the inputs and g the
// GPU's index on its host. report.json stores it as each device's "label"; report.md, its plots and compare
// show it in place of the device id.
#include <cstdint>
#include <string>

namespace gpueff::reports {

inline std::string deviceLabel(std::int64_t task, std::int64_t gpu) {
    return "rank " + std::to_string(task) + " / GPU " + std::to_string(gpu);
}

} // namespace gpueff::reports
