#include "engine/nsys/EventTypeLabels.h"

#include "engine/nsys/HostSources.h"
#include "engine/nsys/MpiNames.h"
#include "engine/paraver/EventTypes.h"

namespace gpueff::nsys {

void declareEventTypes(paraver::EventCatalog& c) {
    namespace t = paraver::types;
    c.declare(t::kCudaApi, "CUDA API call");
    c.declare(t::kMemoryOperation, "CUDA memory operation");
    c.declare(t::kMemoryBytes, "CUDA memory operation bytes");
    c.declare(t::kMemcpySrcKind, "CUDA memcpy source memory kind");
    c.declare(t::kMemcpyDstKind, "CUDA memcpy destination memory kind");
    c.declare(t::kKernel, "CUDA kernel");
    c.declare(t::kNcclKernel, "NCCL kernel");
    c.declare(t::kGraphLaunch, "CUDA graph execution");
    c.declare(t::kSynchronization, "CUDA synchronization");
    c.declare(t::kGraphId, "CUDA graph id");
    c.declare(t::kGraphExecId, "CUDA graph exec id");
    c.declare(t::kGraphNodeId, "CUDA graph node id");
    c.declare(t::kGpuMemoryUsage, "GPU memory in use (bytes)");
    c.declare(t::kGpuMemoryAllocation, "GPU Memory Allocation");
    c.declare(t::kGpuMemoryDeallocation, "GPU Memory Deallocation");
    c.declare(t::kNvtxStartEndRange, "NVTX start/end range");
    c.declare(t::kGridX, "Kernel grid size x");
    c.declare(t::kGridY, "Kernel grid size y");
    c.declare(t::kGridZ, "Kernel grid size z");
    c.declare(t::kBlockX, "Kernel block size x");
    c.declare(t::kBlockY, "Kernel block size y");
    c.declare(t::kBlockZ, "Kernel block size z");
    c.declare(t::kStaticSharedMemory, "Kernel static shared memory (bytes)");
    c.declare(t::kDynamicSharedMemory, "Kernel dynamic shared memory (bytes)");
    c.declare(t::kLocalMemory, "Kernel local memory total (bytes)");
    c.declare(t::kRegistersPerThread, "Kernel registers per thread");
    c.declare(t::kCorrelationId, "CUDA correlation id");
    c.declare(t::kNcclMessageSize, "NCCL message size (bytes)");
    c.declare(t::kNcclReduceOp, "NCCL reduction operation");
    c.declare(t::kNcclRootRank, "NCCL root rank");
    c.declare(t::kNcclPeerRank, "NCCL peer rank");
    c.declare(t::kNcclCommunicator, "NCCL communicator");
    c.declare(t::kNcclRanks, "NCCL number of ranks");
    c.declare(t::kNcclRank, "NCCL rank");
    c.declare(t::kMpiPointToPoint, "MPI Point-to-point");
    c.declare(t::kMpiCollective, "MPI Collective Comm");
    c.declare(t::kMpiOther, "MPI Other");
    c.declare(t::kMpiOneSided, "MPI One-sided");
    c.declare(t::kMpiIo, "MPI I/O");
    c.declare(t::kMpiSendSize, "MPI send size (bytes)");
    c.declare(t::kMpiRecvSize, "MPI receive size (bytes)");
    c.declare(t::kOpenAccOtherKind, "OpenACC Other Events");
    c.declare(t::kOpenAccDataKind, "OpenACC Data Events");
    c.declare(t::kOpenAccLaunchKind, "OpenACC Launch Events");
    c.declare(t::kOpenAccOtherName, "OpenACC other region source");
    c.declare(t::kOpenAccDataName, "OpenACC data region source");
    c.declare(t::kOpenAccLaunchName, "OpenACC launch region source");
    c.declare(t::kOpenAccOtherFunction, "OpenACC other function name");
    c.declare(t::kOpenAccDataFunction, "OpenACC data function name");
    c.declare(t::kOpenAccLaunchFunction, "OpenACC launch function name");
    c.declare(t::kOpenAccDataBytes, "OpenACC data bytes");
    c.declare(t::kOsRuntime, "OS runtime call");
    c.declare(t::kPthread, "pthread call");
    // Value spaces shared by types a view shows together (docs/events.md): one kernel name column per name in
    // a histogram over kernels, NCCL kernels and graph launches; one MPI call table over the five MPI types,
    // numbered after Extrae's values.
    c.shareNames({t::kKernel, t::kNcclKernel, t::kGraphLaunch});
    // Kernel names run to a thousand characters: `short [full]` in the .pcf, so that a histogram with
    // ShortHeaderLabels heads each column with the short name (engine/paraver/ShortLabels.h).
    c.labelShort(t::kKernel);
    c.shareNames({t::kPthread}, largestExtraePthreadValue() + 1);
    c.shareNames({t::kOpenAccOtherName, t::kOpenAccDataName, t::kOpenAccLaunchName});
    c.shareNames({t::kOpenAccOtherFunction, t::kOpenAccDataFunction, t::kOpenAccLaunchFunction});
    c.shareNames({t::kMpiPointToPoint, t::kMpiCollective, t::kMpiOther, t::kMpiOneSided, t::kMpiIo},
                 maxExtraeMpiValue() + 1);
}

} // namespace gpueff::nsys
