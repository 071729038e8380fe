#include "tests/ThreadPeers.h"

#include "engine/common/Error.h"

#include <exception>
#include <thread>

namespace testsupport {

namespace {

void failIfAborted(const ThreadPeers::Group& g) {
    if (g.aborted) throw gpueff::Error("another rank aborted the run");
}

} // namespace

ThreadPeers::Group::Group(int n)
    : size(n), slots(static_cast<std::size_t>(n)), blocks(static_cast<std::size_t>(n)) {}

std::vector<std::string> ThreadPeers::allGather(std::string_view mine) {
    auto& g = *group_;
    std::unique_lock lock(g.mutex);
    failIfAborted(g);
    auto generation = g.generation;
    g.slots[static_cast<std::size_t>(rank_)] = std::string(mine);
    if (++g.arrived == g.size) {
        // The last to arrive publishes; nobody can start the next exchange before every rank read this one.
        g.result = g.slots;
        g.arrived = 0;
        ++g.generation;
        g.changed.notify_all();
        return g.result;
    }
    g.changed.wait(lock, [&] { return g.aborted || g.generation != generation; });
    failIfAborted(g);
    return g.result;
}

std::vector<std::string> ThreadPeers::gather(std::string_view mine) {
    auto all = allGather(mine);
    if (rank_ != 0) return {};
    return all;
}

void ThreadPeers::sendBlock(std::string_view bytes) {
    auto& g = *group_;
    std::lock_guard lock(g.mutex);
    failIfAborted(g);
    g.blocks[static_cast<std::size_t>(rank_)].emplace_back(bytes);
    g.changed.notify_all();
}

std::string ThreadPeers::receiveBlock(int from) {
    auto& g = *group_;
    std::unique_lock lock(g.mutex);
    auto& queue = g.blocks[static_cast<std::size_t>(from)];
    g.changed.wait(lock, [&] { return g.aborted || !queue.empty(); });
    failIfAborted(g);
    auto block = std::move(queue.front());
    queue.pop_front();
    return block;
}

void ThreadPeers::abort(int status) {
    {
        std::lock_guard lock(group_->mutex);
        group_->aborted = true;
    }
    group_->changed.notify_all();
    throw gpueff::Error("aborted with status " + std::to_string(status));
}

std::vector<std::string> runRanks(int size, const std::function<void(gpueff::jobs::Peers&)>& body) {
    auto group = std::make_shared<ThreadPeers::Group>(size);
    std::vector<std::string> errors(static_cast<std::size_t>(size));
    std::vector<std::thread> threads;
    for (int r = 0; r < size; ++r)
        threads.emplace_back([&, r] {
            ThreadPeers peers(group, r);
            try {
                body(peers);
            } catch (const std::exception& e) {
                errors[static_cast<std::size_t>(r)] = e.what();
                try {
                    peers.abort(1);
                } catch (const std::exception&) {
                }
            }
        });
    for (auto& t : threads) t.join();
    return errors;
}

} // namespace testsupport
