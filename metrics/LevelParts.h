#pragma once
// The parts of the levels of detail, run by metrics/Analysis.cpp as the other parts of AnalysisParts.h:
// metrics/Levels.cpp finds them, LevelPlan.cpp plans their windows, LevelFigures.cpp measures them.
#include "metrics/AnalysisParts.h"

namespace gpueff::metrics {

// The iteration markers (outermost NVTX ranges whose whole name the pattern matches) and their phases on the
// host rows, task by task: task t's walker reads its host events and appends its ranges to
// out.markers/out.phases. `trace` names the values.
TaskWalkers iterationMarkers(const semantic::LoadedTrace& trace, const NamePattern& pattern,
                             WindowEvidence& out);
// Ranges in the one order every process and shard agrees on (task, begin, end, name).
void sortRanges(std::vector<HostRange>& ranges);
// Where the work that device `d` ran was launched from inside evidence's (sorted) markers and phases,
// combined into markerWork/phaseWork (sized alike). False when the device has no launch lines.
bool projectWork(const semantic::LoadedTrace& trace, const Device& d, const WindowEvidence& evidence,
                 Projection& markerWork, Projection& phaseWork);
// detectIterations over the kernels (compute and NCCL) of one device.
std::optional<DetectedIterations> detectOnDevice(const semantic::LoadedTrace& trace, const Device& d);

// The windows of the levels, from the evidence of the whole trace, inside the analysis window; fills
// a.iterationDetection and a.iterations (without figures). `placedOnGpu`: some device had launch lines.
LevelPlan planLevels(Analysis& a, const WindowEvidence& evidence, const AnalysisOptions& options,
                     bool placedOnGpu);

// One device's figures in every window of the plan, its NCCL arrivals and its kernels split by overlap.
void levelsOf(const LevelPlan& plan, const ShardReader& shard, const Device& d, const DeviceUnions& u,
              DevicePartial& out);
void reduceLevels(Analysis& a, const LevelPlan& plan, const std::vector<DevicePartial>& partials,
                  unsigned jobs, const SpillStore& store);

// The POP factors of devices' split of a window of T ns (PopFactors.h).
Efficiency efficiencyOf(std::vector<Efficiency::PerDevice> devices, std::int64_t T);

} // namespace gpueff::metrics
