#pragma once
// The devices of a trace and what ran on them, read through cfgs/model/ (device_activity, cuda_graphs,
// nccl_kernels, memory_operations): the one place that says which records are compute, NCCL and memory work.
#include "engine/semantic/LoadedTrace.h"
#include "metrics/Spans.h"

#include <array>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpueff::metrics {

enum ActivityClass { kCompute = 0, kGraph, kNccl, kMemory, kClassCount };
inline constexpr const char* kClassNames[kClassCount] = {"compute kernels", "CUDA graph launches",
                                                         "NCCL kernels", "memory operations"};

struct Device {
    std::string id;   // host:pid:gpu, or task<t>:gpu when the task label does not name them
    std::string name; // CUDA-D<gpu> <task label>
    std::string host;
    std::size_t task = 0; // 0-based
    int gpu = 0;
    std::vector<std::size_t> rows;      // global thread indices of its stream rows (and their lanes)
    std::optional<std::size_t> metrics; // its "Metrics GPU<k>" row, when the trace has GPU metrics
    // Per class, per stream row: the intervals with work (value = the name value or the copy kind).
    std::array<std::vector<Spans>, kClassCount> work;

    // The rows of these classes, for unite() or a sweep.
    std::vector<const Spans*> rowsOf(std::initializer_list<ActivityClass> classes) const {
        std::vector<const Spans*> out;
        for (auto c : classes)
            for (const auto& row : work[c]) out.push_back(&row);
        return out;
    }
};

struct TaskInfo {
    std::string label, host;
    std::int64_t pid = -1;
    std::uint32_t input = 0;             // the input it was read from (paraver::Task::input)
    std::vector<std::size_t> cpuRows;    // threads that are neither streams nor GPU-metrics rows
    std::vector<std::size_t> metricRows; // its "Metrics GPU<k>" rows
};

struct DeviceActivity {
    std::vector<Device> devices;
    std::vector<TaskInfo> tasks;
};

// The devices and tasks of a layout (rows in its order) with their rows, work not read.
DeviceActivity deviceLayout(const paraver::TraceLayout& layout);
// deviceLayout of the trace's layout with every device's work read.
DeviceActivity readDeviceActivity(const semantic::LoadedTrace& trace);

// Reads the work of one device at a time from a trace holding its rows (the cfgs of cfgs/model/).
class WorkReader {
public:
    explicit WorkReader(const semantic::LoadedTrace& trace);
    ~WorkReader();
    void read(Device& device) const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

// The parts of a trace the analysis can read one at a time, each with the records of its rows only: a task's
// host rows, and each device with its stream rows and its GPU-metrics row (devices reading one metrics row
// form one unit). Numbered alike for a layout whatever the order of its rows.
struct AnalysisUnits {
    std::vector<std::uint32_t> ofRow;              // row -> unit
    std::vector<std::vector<std::size_t>> devices; // unit -> its devices (indices of DeviceActivity::devices)
    std::vector<std::vector<std::size_t>> tasks;   // unit -> the tasks whose host rows it holds
    std::size_t size() const { return devices.size(); }
};
AnalysisUnits analysisUnits(const DeviceActivity& layout, std::size_t rows);

// Every embedded cfg the analysis evaluates (CfgRows refuses others), by its path under cfgs/.
std::span<const std::string_view> analysisCfgs();
// The event types the analysis' cfgs walk in a trace labelled `labels` (their filters name some types by
// label): semantic::eventTypesWalked of every cfg CfgRows evaluates, for the record streams of the traces
// the analysis loads; nullopt: every type.
std::optional<std::vector<std::pair<std::uint32_t, std::uint32_t>>>
eventTypesWalked(const paraver::TraceLabels& labels);

// The rows of window `window` of an embedded cfg, as spans (non-zero values only unless keepZeros). The cfg
// must hold thread-level windows.
class CfgRows {
public:
    CfgRows(const semantic::LoadedTrace& trace, const std::string& embeddedName);
    CfgRows(CfgRows&&) noexcept;
    ~CfgRows();
    std::size_t windows() const;
    bool hasEvents(std::size_t window) const; // false when the trace lacks every type the window filters on
    Spans row(std::size_t window, std::size_t thread, bool keepZeros = false) const;
    // The spans row() would hold, given to `use` one at a time in time order: a device's rows of a million
    // spans are read without holding them.
    void walk(std::size_t window, std::size_t thread, bool keepZeros,
              const std::function<void(const Span&)>& use) const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace gpueff::metrics
