#pragma once
// The events of a task's host rows that only the host families read: the NVTX ranges (with their payloads
// and the start/end type) and the CUDA API calls. A PyTorch job writes millions of them per process (mfu
// x250: 3.3 M per task), more than the rest of its host rows together, and each family reads them once, in
// order, row by row. So a sharded trace under a memory limit keeps them out of the shards it loads and
// streams them to the families instead (ShardedTrace::walkHostEvents), and they never stand in memory at
// once.
#include "metrics/DeviceActivity.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gpueff::semantic {
class LoadedTrace;
}

namespace gpueff::metrics {

// The event types walked apart (inclusive ranges), and whether a type is one of them.
std::vector<std::pair<std::uint32_t, std::uint32_t>> hostEventTypes();
bool isHostEventType(std::uint32_t type);

struct HostEvent {
    std::int64_t time;
    std::uint32_t type;
    std::int64_t value;
};

// A reader of a task's host events. Each row's events come in its order (the columns' order), a group of
// events of equal time at a time, as a record's begin may be told by what follows it at its time; the rows
// may come interleaved. rowEnd(row) follows a row's last event, rows in the task's order; end() the last
// rowEnd.
class HostEventWalker {
public:
    virtual ~HostEventWalker() = default;
    virtual void events(std::uint32_t row, std::span<const HostEvent> sameTime) = 0;
    virtual void rowEnd(std::uint32_t) {}
    virtual void end() {}
};

// Several walkers over one walk of a task's events (one replay of them from the file, not one each).
class HostEventFanOut : public HostEventWalker {
public:
    void add(std::unique_ptr<HostEventWalker> walker) { walkers_.push_back(std::move(walker)); }
    void events(std::uint32_t row, std::span<const HostEvent> sameTime) override {
        for (auto& w : walkers_) w->events(row, sameTime);
    }
    void rowEnd(std::uint32_t row) override {
        for (auto& w : walkers_) w->rowEnd(row);
    }
    void end() override {
        for (auto& w : walkers_) w->end();
    }

private:
    std::vector<std::unique_ptr<HostEventWalker>> walkers_;
};

// A walker of one task's events for a family whose walkers share, over the tasks of a look, what names say
// (`Names`, a cache) and the evidence they fill (`Out`).
template <class Names, class Out>
class TaskEventWalker : public HostEventWalker {
public:
    TaskEventWalker(Names& names, std::uint32_t task, Out& out) : names_(names), task_(task), out_(out) {}

protected:
    Names& names_;
    std::uint32_t task_;
    Out& out_;
};

// A family's walkers over the tasks of a look: the walker of task t, its walkers sharing what the family
// caches of names and the evidence they fill.
using TaskWalkers = std::function<std::unique_ptr<HostEventWalker>(std::uint32_t task)>;

// Where the host families find a task's host events while its shard is visited.
using HostEventSource = std::function<void(const TaskInfo&, HostEventWalker&)>;

// The host events of a loaded trace's `rows` from its columns, row after row; of a task's host rows.
void walkColumns(const semantic::LoadedTrace& trace, std::span<const std::size_t> rows,
                 HostEventWalker& walker);
void walkHostColumns(const semantic::LoadedTrace& trace, const TaskInfo& task, HostEventWalker& walker);

// Turns a stream of host events (each row's in its order, rows interleaved) into a walker's groups: a
// row's events wait until one of another time comes, or until end().
class HostEventGroups {
public:
    explicit HostEventGroups(HostEventWalker& walker) : walker_(walker) {}
    void add(std::uint32_t row, const HostEvent& event);
    // The groups still waiting, then rowEnd for each of `rows`, then the walker's end.
    void end(const std::vector<std::size_t>& rows);

private:
    HostEventWalker& walker_;
    std::unordered_map<std::uint32_t, std::vector<HostEvent>> waiting_; // row -> its group
};

// Per-row state of a walker (the rows of one task are few; a lookup per group).
template <class State>
class RowStates {
public:
    State& of(std::uint32_t row) {
        if (row != lastRow_ || !last_) {
            last_ = &states_[row];
            lastRow_ = row;
        }
        return *last_;
    }
    // The row's state, then forgotten (nullptr when the row had no event).
    template <class F>
    void end(std::uint32_t row, F&& f) {
        auto it = states_.find(row);
        if (it == states_.end()) return;
        f(it->second);
        states_.erase(it);
        last_ = nullptr;
    }

private:
    std::unordered_map<std::uint32_t, State> states_;
    State* last_ = nullptr;
    std::uint32_t lastRow_ = 0;
};

} // namespace gpueff::metrics
