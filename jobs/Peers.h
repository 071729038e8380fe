#pragma once
// The processes of a distributed run as the jobs see them: a rank among `size()`, and the few exchanges the
// distributed analysis needs, as bytes. jobs/mpi/MpiPeers.cpp implements them with MPI (`mpirun -n R gpueff
// analyze`, built with -DGPUEFF_MPI=ON); the tests also run ranks as threads of one process.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gpueff::jobs {

class Peers {
public:
    virtual ~Peers() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    // How many of the processes share this one's machine (they share its memory).
    virtual int sizeOnNode() const = 0;
    // Every process's bytes, by rank, on every process.
    virtual std::vector<std::string> allGather(std::string_view mine) = 0;
    // Every process's bytes, by rank, on rank 0; empty on the others.
    virtual std::vector<std::string> gather(std::string_view mine) = 0;
    // A stream of blocks from this process to rank 0 (an empty block ends it), received in order there.
    virtual void sendBlock(std::string_view bytes) = 0;
    virtual std::string receiveBlock(int from) = 0;
    // Ends every process of the run with `status` (an error on one process leaves the others waiting).
    [[noreturn]] virtual void abort(int status) = 0;
};

// The processes this one was launched among by `mpirun` (OpenMPI, MPICH or PMIx environment), or nullptr
// when it runs alone. Throws gpueff::Error when launched among several but built without MPI.
std::unique_ptr<Peers> launchedPeers(int& argc, char**& argv);

} // namespace gpueff::jobs
