#pragma once
// jobs::Peers for R "processes" that are threads of the test process: the distributed analysis runs its
// whole protocol (reports dealt out, records relayed to rank 0, facts, totals, window and partials
// exchanged) without mpirun, in the sanitizer build too. An abort wakes every waiting thread with an error.
#include "jobs/Peers.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace testsupport {

class ThreadPeers : public gpueff::jobs::Peers {
public:
    struct Group {
        explicit Group(int size);
        std::mutex mutex;
        std::condition_variable changed;
        int size;
        std::vector<std::string> slots, result;
        int arrived = 0;
        std::uint64_t generation = 0;
        std::vector<std::deque<std::string>> blocks; // by sender, to rank 0
        bool aborted = false;
    };
    ThreadPeers(std::shared_ptr<Group> group, int rank) : group_(std::move(group)), rank_(rank) {}
    int rank() const override { return rank_; }
    int size() const override { return group_->size; }
    int sizeOnNode() const override { return group_->size; }
    std::vector<std::string> allGather(std::string_view mine) override;
    std::vector<std::string> gather(std::string_view mine) override;
    void sendBlock(std::string_view bytes) override;
    std::string receiveBlock(int from) override;
    [[noreturn]] void abort(int status) override;

private:
    std::shared_ptr<Group> group_;
    int rank_;
};

// Runs body(peers) on `size` threads, one per rank; an exception on one aborts the others. Returns each
// rank's error message ("" when it finished).
std::vector<std::string> runRanks(int size, const std::function<void(gpueff::jobs::Peers&)>& body);

} // namespace testsupport
