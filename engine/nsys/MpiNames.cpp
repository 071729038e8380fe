#include "engine/nsys/MpiNames.h"

#include "engine/paraver/EventTypes.h"

#include <algorithm>
#include <array>
#include <utility>

namespace gpueff::nsys {

namespace {
bool startsWith(std::string_view s, std::string_view p) {
    return s.substr(0, p.size()) == p;
}
bool contains(std::string_view s, std::string_view p) {
    return s.find(p) != std::string_view::npos;
}

constexpr std::array<std::pair<std::string_view, std::int64_t>, 34> kExtraeValues{{
    {"MPI_Send", 1},         {"MPI_Recv", 2},        {"MPI_Isend", 3},
    {"MPI_Irecv", 4},        {"MPI_Wait", 5},        {"MPI_Waitall", 6},
    {"MPI_Bcast", 7},        {"MPI_Barrier", 8},     {"MPI_Reduce", 9},
    {"MPI_Allreduce", 10},   {"MPI_Alltoall", 11},   {"MPI_Alltoallv", 12},
    {"MPI_Gather", 13},      {"MPI_Gatherv", 14},    {"MPI_Scatter", 15},
    {"MPI_Scatterv", 16},    {"MPI_Allgather", 17},  {"MPI_Allgatherv", 18},
    {"MPI_Comm_rank", 19},   {"MPI_Comm_size", 20},  {"MPI_Comm_create", 21},
    {"MPI_Comm_dup", 22},    {"MPI_Comm_split", 23}, {"MPI_Init", 31},
    {"MPI_Finalize", 32},    {"MPI_Bsend", 33},      {"MPI_Ssend", 34},
    {"MPI_Rsend", 35},       {"MPI_Sendrecv", 41},   {"MPI_Sendrecv_replace", 42},
    {"MPI_Waitany", 59},     {"MPI_Waitsome", 60},   {"MPI_Test", 61},
    {"MPI_Init_thread", 71},
}};
} // namespace

std::uint32_t mpiEventType(std::string_view f) {
    namespace types = paraver::types;
    if (startsWith(f, "MPI_File")) return types::kMpiIo;
    if (startsWith(f, "MPI_Win") || f == "MPI_Put" || f == "MPI_Get" || contains(f, "ccumulate"))
        return types::kMpiOneSided;
    static constexpr std::string_view collectives[] = {"Bcast",  "Barrier", "Reduce",  "reduce", "Alltoall",
                                                       "Gather", "gather",  "Scatter", "Scan",   "Exscan"};
    for (auto c : collectives)
        if (contains(f, c)) return types::kMpiCollective;
    static constexpr std::string_view p2p[] = {"send", "Send", "recv", "Recv",
                                               "Wait", "Test", "robe", "MPI_Start"};
    for (auto c : p2p)
        if (contains(f, c)) return types::kMpiPointToPoint;
    return types::kMpiOther;
}

std::int64_t maxExtraeMpiValue() {
    std::int64_t m = 0;
    for (const auto& [name, value] : kExtraeValues) m = std::max(m, value);
    return m;
}

std::int64_t extraeMpiValue(std::string_view f) {
    for (const auto& [name, value] : kExtraeValues)
        if (name == f) return value;
    return 0;
}

bool isMpiReceive(std::string_view f) {
    return contains(f, "recv") || contains(f, "Recv");
}

bool sendsMessage(std::string_view f) {
    static constexpr std::string_view sends[] = {
        "MPI_Send",   "MPI_Isend", "MPI_Bsend",  "MPI_Ibsend",   "MPI_Ssend",
        "MPI_Issend", "MPI_Rsend", "MPI_Irsend", "MPI_Sendrecv", "MPI_Sendrecv_replace"};
    for (auto s : sends)
        if (f == s) return true;
    return false;
}

bool receivesMessage(std::string_view f) {
    return f == "MPI_Recv" || f == "MPI_Irecv" || f == "MPI_Sendrecv" || f == "MPI_Sendrecv_replace";
}

} // namespace gpueff::nsys
