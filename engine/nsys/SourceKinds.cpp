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
         openKernels},
        {"memory", "memcpy and memset operations", discoverMemory, openMemory},
        {"graphs", "CUDA graph launches (CUPTI_ACTIVITY_KIND_GRAPH_TRACE)", discoverGraphs, openGraphs},
        {"api", "CUDA runtime and driver API calls", discoverApi, openApi},
        {"launches", "communication lines from launching API calls to GPU work (tags 55001/55002)",
         discoverLaunches, openLaunches},
        {"sync", "CUDA synchronization events", discoverSync, openSync},
        {"nvtx", "NVTX ranges, marks and payloads (also the MPI and NCCL domains)", discoverNvtx, openNvtx},
        {"osrt", "OS runtime and pthread calls (OSRT_API)", discoverOsrt, openOsrt},
        {"mpi", "MPI calls from the MPI_* tables, and MPI messages between ranks", discoverMpi, openMpi},
        {"openacc", "OpenACC data, launch and other events", discoverOpenAcc, openOpenAcc},
        {"gpumem", "GPU memory in use per device (CUDA_GPU_MEMORY_USAGE_EVENTS)", discoverGpuMemory,
         openGpuMemory},
        {"metrics", "GPU metrics samples (GPU_METRICS)", discoverGpuMetrics, openGpuMetrics},
    };
    return kinds;
}

} // namespace gpueff::nsys
