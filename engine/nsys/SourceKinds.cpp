#include "engine/nsys/DeviceSources.h"
#include "engine/nsys/GpuActivitySources.h"
#include "engine/nsys/HostSources.h"
#include "engine/nsys/LaunchSources.h"
#include "engine/nsys/NvtxSources.h"
#include "engine/nsys/ReportContext.h"

namespace gpueff::nsys {

// Order matters for discovery only: GPU metrics rows are given to processes found by the GPU kinds before.
const std::vector<SourceKind>& sourceKinds() {
    static const std::vector<SourceKind> kinds = {
        {"kernels", "CUDA kernels with launch configuration (CUPTI_ACTIVITY_KIND_KERNEL)", discoverKernels,
         openKernels, true},
        {"memory", "memcpy and memset operations", discoverMemory, openMemory, false},
        {"graphs", "CUDA graph launches (CUPTI_ACTIVITY_KIND_GRAPH_TRACE)", discoverGraphs, openGraphs, true},
        {"api", "CUDA runtime and driver API calls", discoverApi, openApi, true},
        {"launches", "communication lines from launching API calls to GPU work (tags 55001/55002)",
         discoverLaunches, openLaunches, false},
        {"sync", "CUDA synchronization events", discoverSync, openSync, false},
        {"nvtx", "NVTX ranges, marks and payloads (also the MPI and NCCL domains)", discoverNvtx, openNvtx,
         true},
        {"osrt", "OS runtime and pthread calls (OSRT_API)", discoverOsrt, openOsrt, true},
        {"mpi", "MPI calls from the MPI_* tables, and MPI messages between ranks", discoverMpi, openMpi,
         true},
        {"openacc", "OpenACC data, launch and other events", discoverOpenAcc, openOpenAcc, true},
        {"gpumem", "GPU memory in use per device (CUDA_GPU_MEMORY_USAGE_EVENTS)", discoverGpuMemory,
         openGpuMemory, false},
        {"metrics", "GPU metrics samples (GPU_METRICS)", discoverGpuMetrics, openGpuMetrics, false},
    };
    return kinds;
}

} // namespace gpueff::nsys
