#pragma once
// gpueff's event types of GPU metric samples by metric name (docs/events.md, the GPU metric catalogue): part
// of the trace's encoding, so the translator that writes them and a metric that names them share one table.
#include <cstdint>
#include <string_view>

namespace gpueff::paraver::types {

// kGpuMetricByNameBase + the index of `metricName` in a fixed catalogue of nsys metric names, so one metric
// keeps its type whatever metricId a given GPU or nsys version gave it (nsys2prv's 9400 + metricId is
// written beside it). 0 for a name not in the catalogue (the translator gives those the slots from
// kGpuMetricByNameBase + 50 in order of appearance).
std::uint32_t gpuMetricType(std::string_view metricName);

} // namespace gpueff::paraver::types
