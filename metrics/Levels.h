#pragma once
// Levels of detail below the analysis window (docs/report.md "Iterations and phases"): iterations marked by
// NVTX ranges (or detected from the repeating kernel sequence), phases nested in them, the device model of
// each, stragglers at collectives, and compute kernels split by whether they overlapped communication.
// What the analysis finds of them while it reads the shards (HostRange, evidence), the windows it then
// measures (LevelPlan), each device's figures per window (LevelPartial) and the reduced results.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::metrics {

inline const char* const kDefaultIterationPattern = "ProfilerStep#\\d+|iter(ation)?[-_ #]?\\d+|step \\d+ to "
                                                    "\\d+|step[-_ #]?\\d+|(global_|train_|training_)?step|"
                                                    "train(ing)?_batch|iteration";

enum class IterationSource { Markers, Gpu, Off }; // Markers falls back to Gpu when no marker matches

// An NVTX range on a host thread of task `task` (0-based), closed; for a phase, `parentBegin` is the begin
// of the iteration marker it is nested in (one level down, same thread).
struct HostRange {
    std::uint32_t task = 0;
    std::int64_t begin = 0, end = 0;
    std::string name;
    std::int64_t parentBegin = 0;
    std::uint64_t source = 0; // the thread (row) and NVTX type it was found on: row << 32 | type
    static void fields(auto& s, auto&& f) {
        f("task", s.task);
        f("begin", s.begin);
        f("end", s.end);
        f("name", s.name);
        f("parentBegin", s.parentBegin);
        f("source", s.source);
    }
};

// Where GPU work launched inside host ranges ran: per range, the earliest start and latest end of that work
// on any device (INT64_MAX / INT64_MIN when none).
struct Projection {
    std::vector<std::int64_t> begin, end;
    void resize(std::size_t n);
    static void fields(auto& s, auto&& f) {
        f("begin", s.begin);
        f("end", s.end);
    }
    void combine(const Projection& other);
};

// Iterations found in the kernel sequence of the first device: the begins of the anchor kernel's instances.
struct DetectedIterations {
    std::string anchor;
    std::vector<std::int64_t> begins;
    std::int64_t lastEnd = 0;
    std::size_t period = 0; // kernels per iteration
    static void fields(auto& s, auto&& f) {
        f("anchor", s.anchor);
        f("begins", s.begins);
        f("lastEnd", s.lastEnd);
        f("period", s.period);
    }
};

// The anchor kernel of the repeating unit of one device's kernel sequence (names in start order, with their
// begins and ends), or nothing when no unit repeats 3 times.
std::optional<DetectedIterations> detectIterations(const std::vector<std::int64_t>& names,
                                                   const std::vector<std::int64_t>& begins,
                                                   const std::vector<std::int64_t>& ends,
                                                   const std::vector<std::string>& nameOf);

// The windows the levels are measured in: iterations first, then each phase's windows, then the focus.
struct LevelPlan {
    struct Window {
        std::int64_t begin = 0, end = 0;
    };
    std::vector<Window> windows;
    std::size_t iterations = 0; // windows[0, iterations) are the iterations, in order
    struct PhaseWindows {
        std::string name;
        std::vector<std::size_t> windows; // indices into `windows`
    };
    std::vector<PhaseWindows> phases;
    std::optional<std::size_t> focus; // index of the focus window
    bool empty() const { return windows.empty(); }
};

// One device's figures in one window of the plan (compute = kernels and graph launches, not NCCL).
struct LevelPartial {
    std::int64_t useful = 0, usefulWithNccl = 0; // |compute|, |compute ∪ NCCL|
    std::int64_t commNotUseful = 0,
                 memoryNotUseful = 0; // |(NCCL ∪ memory) \ compute|, |memory \ (compute ∪ NCCL)|
    std::int64_t communication = 0, overlap = 0; // |NCCL ∪ memory|, |that ∩ compute|
    std::int64_t inFlight = 0, busy = 0;         // ∫ kernels running dt, time with >= 1 running
    std::int64_t usefulEnd = INT64_MIN;          // end of its last compute work in the window
    static void fields(auto& s, auto&& f) {
        f("useful", s.useful);
        f("usefulWithNccl", s.usefulWithNccl);
        f("commNotUseful", s.commNotUseful);
        f("memoryNotUseful", s.memoryNotUseful);
        f("communication", s.communication);
        f("overlap", s.overlap);
        f("inFlight", s.inFlight);
        f("busy", s.busy);
        f("usefulEnd", s.usefulEnd);
    }
};

struct Straggler {
    std::size_t device = 0;
    std::int64_t usefulEnd = 0, lag = 0;
};

// Where one task's part of an iteration ran: its marker's launched work on the GPU (or its host span).
struct TaskSpan {
    std::size_t task = 0;
    std::int64_t begin = 0, end = 0;
};

struct IterationLevel {
    std::size_t index = 0;
    std::string name, status; // steady, warm-up, outlier
    std::int64_t begin = 0, end = 0;
    std::vector<TaskSpan> tasks; // per task with work in it (markers only), not tiled nor clipped
};

struct IterationDetection {
    std::string source = "none", pattern, anchor, placement;         // docs/report.md
    std::vector<std::pair<std::size_t, std::size_t>> markersPerTask; // (task, markers)
    std::vector<std::string> notes;
};

// The NCCL kernels matched across devices as collectives (the k-th instance of a name on each device).
struct Collectives {
    struct Instance {
        std::string kernel;
        std::size_t sequence = 0, lastDevice = 0;
        std::int64_t firstArrival = 0, skew = 0;
    };
    struct DeviceShare {
        std::size_t device = 0;
        std::uint64_t last = 0;
        std::int64_t waitCaused = 0;
    };
    std::uint64_t matched = 0;
    std::vector<Instance> top; // by skew, largest first
    std::vector<DeviceShare> devices;
    std::vector<std::string> notes;
};

struct DurationGroup {
    std::uint64_t instances = 0;
    std::int64_t total = 0, min = 0, max = 0;
    double average = 0, median = 0;
    std::vector<std::int64_t> modes;
    std::optional<double> tensorActive; // time-weighted Tensor Active % over the instances, when sampled
};

struct KernelOverlapRow {
    std::string name;
    std::optional<DurationGroup> overlapped, alone;
};

// Of one group of durations (empty: none), with its modes.
std::optional<DurationGroup> durationGroup(std::vector<std::int64_t> durations);
// Count, total, extremes, mean and median (the mean of the middle two for an even count) of sorted, non-empty
// durations; no modes.
DurationGroup describeDurations(const std::vector<std::int64_t>& sorted);

} // namespace gpueff::metrics
