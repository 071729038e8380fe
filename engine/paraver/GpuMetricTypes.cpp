#include "engine/paraver/GpuMetricTypes.h"

#include "engine/paraver/EventTypes.h"

#include <array>

namespace gpueff::paraver::types {

namespace {

// The order is the encoding: a name's index is its type's offset (append only).
constexpr std::array<std::string_view, 34> kKnownMetrics{
    "GPC Clock Frequency [MHz]",
    "SYS Clock Frequency [MHz]",
    "GR Active [Throughput %]",
    "Sync Compute In Flight [Throughput %]",
    "Async Compute In Flight [Throughput %]",
    "SMs Active [Throughput %]",
    "SM Issue [Throughput %]",
    "Tensor Active [Throughput %]",
    "Compute Warps in Flight [Throughput %]",
    "Vertex/Tess/Geometry Warps in Flight [Throughput %]",
    "Pixel Warps in Flight [Throughput %]",
    "Unallocated Warps in Active SMs [Throughput %]",
    "DRAM Read Bandwidth [Throughput %]",
    "DRAM Write Bandwidth [Throughput %]",
    "PCIe RX Throughput [Throughput %]",
    "PCIe TX Throughput [Throughput %]",
    "PCIe Read Requests to BAR1 [Requests]",
    "PCIe Write Requests to BAR1 [Requests]",
    "NVLink RX Throughput [Throughput %]",
    "NVLink TX Throughput [Throughput %]",
    "NVLink RX Responses User Data [Throughput %]",
    "NVLink TX Requests User Data [Throughput %]",
    "Compute Warps in Flight",
    "Tensor Active",
    "SMs Active",
    "SM Issue",
    "DRAM Read Bandwidth",
    "DRAM Write Bandwidth",
    "C2C RX Throughput [Throughput %]",
    "C2C TX Throughput [Throughput %]",
    "Graphics Warps in Flight [Throughput %]",
    "Tensor Pipe Active [Throughput %]",
    "FP64 Active [Throughput %]",
    "Video Decoder Active [Throughput %]",
};
// Offsets from 50 are the translator's, for names not in the catalogue.
static_assert(kKnownMetrics.size() <= 50);

} // namespace

std::uint32_t gpuMetricType(std::string_view metricName) {
    for (std::size_t i = 0; i < kKnownMetrics.size(); ++i)
        if (kKnownMetrics[i] == metricName) return kGpuMetricByNameBase + static_cast<std::uint32_t>(i);
    return 0;
}

} // namespace gpueff::paraver::types
