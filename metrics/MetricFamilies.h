#pragma once
// The families of the analysis in one catalogue (DuckDB's function list is the model). A row names a family
// and gives what it computes of one device and of one task while their shard is in memory (into DevicePartial
// and TaskPartial, whose fields lists carry them between processes, jobs/PartCodec) and how the partials of
// every device and task become its figures of the whole trace (into Analysis). metrics/Analysis.cpp runs the
// rows and names no family; the report side of a family is its header in reports/model/ (struct, fields,
// schema fragment) with its builder and renderer.
#include "metrics/AnalysisParts.h"

#include <span>

namespace gpueff::metrics {

// One device, while its shard is in memory.
struct DeviceShard {
    const ShardReader& shard;
    std::size_t index; // in DeviceActivity::devices
    const Device& device;
    const DeviceUnions& unions;
    const LevelPlan& plan;
    const HtaRuleInputs& hta;
};

// What the reductions read besides the analysis they fill.
struct Reduction {
    std::vector<DevicePartial>& devices; // a reduction may take what it keeps (nsys_stats' rows)
    std::vector<TaskPartial>& tasks;
    const TraceFacts& facts;
    const ShardAnswers& answers;
    const AnalysisOptions& options;
    const LevelPlan& plan;
    const semantic::LoadedTrace& labels; // the layout and labels of the whole trace, without records
    const SpillStore& store;             // the partials' bulk (ShardReader::store)
};

struct MetricFamily {
    const char* name;                                                // as docs/report.md calls it
    void (*device)(const DeviceShard&, DevicePartial&);              // null: nothing per device
    void (*task)(const ShardReader&, const TaskInfo&, TaskPartial&); // null: nothing per task
    void (*reduce)(Analysis&, Reduction&);
};

// The plot resolution of the timeline over the window.
inline constexpr std::size_t kTimelineBins = 240;

// In the order they run, per device, per task and in the reduction: a later family may read what an earlier
// one reduced (the device model's times, the levels' plan), never the other way.
std::span<const MetricFamily> metricFamilies();

} // namespace gpueff::metrics
