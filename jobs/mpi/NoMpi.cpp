// jobs::launchedPeers of a gpueff built without MPI (-DGPUEFF_MPI=OFF): it always runs alone, and says so
// when `mpirun` started several copies of it, which would otherwise each analyse everything.
#include "engine/common/Error.h"
#include "jobs/Peers.h"

#include <cstdlib>
#include <string>

namespace gpueff::jobs {

std::unique_ptr<Peers> launchedPeers(int&, char**&) {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
        if (const char* n = std::getenv(v); n && std::string(n) != "1")
            throw Error(
                "started by mpirun as " + std::string(n) +
                " processes, but this gpueff was built without MPI (cmake -DGPUEFF_MPI=ON): run it as "
                "one process");
    return nullptr;
}

} // namespace gpueff::jobs
