// jobs::Peers over MPI (built with -DGPUEFF_MPI=ON): the processes `mpirun` started, MPI_COMM_WORLD.
#include "engine/common/Error.h"
#include "jobs/Peers.h"

#include <cstdlib>
#include <mpi.h>

namespace gpueff::jobs {

namespace {

constexpr int kBlockTag = 1;

bool launchedByMpirun() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
        if (std::getenv(v)) return true;
    return false;
}

void check(int status, const char* call) {
    if (status != MPI_SUCCESS)
        throw Error(std::string("MPI: ") + call + " failed (error " + std::to_string(status) + ")");
}

class MpiPeers : public Peers {
public:
    MpiPeers(int& argc, char**& argv) {
        // Only the main thread calls MPI; the report workers never do.
        int provided = 0;
        check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
        MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
        MPI_Comm_size(MPI_COMM_WORLD, &size_);
        MPI_Comm node;
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
        MPI_Comm_size(node, &sizeOnNode_);
        MPI_Comm_free(&node);
    }
    ~MpiPeers() override { MPI_Finalize(); }
    int rank() const override { return rank_; }
    int size() const override { return size_; }
    int sizeOnNode() const override { return sizeOnNode_; }

    std::vector<std::string> allGather(std::string_view mine) override {
        auto sizes = allSizes(mine.size(), true);
        std::vector<int> displs;
        std::string all(offsets(sizes, displs), '\0');
        check(MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), MPI_BYTE, all.data(), sizes.data(),
                             displs.data(), MPI_BYTE, MPI_COMM_WORLD),
              "MPI_Allgatherv");
        return split(all, sizes, displs);
    }

    std::vector<std::string> gather(std::string_view mine) override {
        auto sizes = allSizes(mine.size(), false);
        std::vector<int> displs;
        std::string all(rank_ == 0 ? offsets(sizes, displs) : 0, '\0');
        check(MPI_Gatherv(mine.data(), static_cast<int>(mine.size()), MPI_BYTE, all.data(), sizes.data(),
                          displs.data(), MPI_BYTE, 0, MPI_COMM_WORLD),
              "MPI_Gatherv");
        if (rank_ != 0) return {};
        return split(all, sizes, displs);
    }

    void sendBlock(std::string_view bytes) override {
        check(MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, 0, kBlockTag, MPI_COMM_WORLD),
              "MPI_Send");
    }

    std::string receiveBlock(int from) override {
        MPI_Status status;
        check(MPI_Probe(from, kBlockTag, MPI_COMM_WORLD, &status), "MPI_Probe");
        int count = 0;
        MPI_Get_count(&status, MPI_BYTE, &count);
        std::string bytes(static_cast<std::size_t>(count), '\0');
        check(MPI_Recv(bytes.data(), count, MPI_BYTE, from, kBlockTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
              "MPI_Recv");
        return bytes;
    }

    [[noreturn]] void abort(int status) override {
        MPI_Abort(MPI_COMM_WORLD, status);
        std::_Exit(status);
    }

private:
    // Every process's byte count (on every process, or on rank 0 only).
    std::vector<int> allSizes(std::size_t mine, bool everywhere) {
        if (mine > static_cast<std::size_t>(INT32_MAX)) throw Error("MPI: a message over 2 GiB");
        int n = static_cast<int>(mine);
        std::vector<int> sizes(static_cast<std::size_t>(size_));
        if (everywhere)
            check(MPI_Allgather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Allgather");
        else
            check(MPI_Gather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Gather");
        return sizes;
    }
    static std::size_t offsets(const std::vector<int>& sizes, std::vector<int>& displs) {
        std::size_t total = 0;
        for (auto s : sizes) {
            if (total + static_cast<std::size_t>(s) > static_cast<std::size_t>(INT32_MAX))
                throw Error("MPI: gathered messages over 2 GiB");
            displs.push_back(static_cast<int>(total));
            total += static_cast<std::size_t>(s);
        }
        return total;
    }
    static std::vector<std::string> split(const std::string& all, const std::vector<int>& sizes,
                                          const std::vector<int>& displs) {
        std::vector<std::string> out;
        for (std::size_t r = 0; r < sizes.size(); ++r)
            out.push_back(
                all.substr(static_cast<std::size_t>(displs[r]), static_cast<std::size_t>(sizes[r])));
        return out;
    }

    int rank_ = 0, size_ = 1, sizeOnNode_ = 1;
};

} // namespace

std::unique_ptr<Peers> launchedPeers(int& argc, char**& argv) {
    if (!launchedByMpirun()) return nullptr;
    return std::make_unique<MpiPeers>(argc, argv);
}

} // namespace gpueff::jobs
