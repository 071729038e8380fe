#pragma once
// The report as typed data (docs/report.md, docs/report.schema.json): built from an analysis
// (BuildReport.h), written to report.json and read back from it by one codec (ReportIo.h), and the only
// thing report.md, the SVG plots and compare render from.
//
// A family of metrics is one struct in one header of this folder, listing its report.json fields once and
// ending with its part of the schema (Schema.h). Adding a family: its header, a member and a fields() line
// below, its fragment in kSchemaFragments, its builder (reports/Build*.cpp) and its renderer.
#include "reports/model/ConcurrencyFamilies.h"
#include "reports/model/HtaFamily.h"
#include "reports/model/KernelFamilies.h"
#include "reports/model/LevelFamilies.h"
#include "reports/model/NsysStatsFamily.h"
#include "reports/model/RunFamilies.h"
#include "reports/model/SummaryFamily.h"

#include <optional>
#include <string>
#include <vector>

namespace gpueff::reports::model {

struct Report {
    std::string schema = "gpueff-report/1";
    Tool tool;
    Omitted<TraceFiles> trace;
    std::vector<Input> inputs;
    Window window;
    std::vector<Device> devices;
    Efficiency efficiency;
    Omitted<Host> host;
    // The concurrency families (ConcurrencyFamilies.h).
    std::vector<KernelsInFlight> kernelsInFlight;
    Omitted<std::vector<KernelsQueued>> kernelsQueued; // empty without launch lines
    std::vector<Overlap> overlap;
    Omitted<OverlapTable> overlapTable;
    Omitted<Timeline> timeline;
    Omitted<std::vector<NcclOverlap>> ncclOverlap;
    // The kernel families (KernelFamilies.h).
    TensorCore tensorCore;
    KernelSummary kernelSummary;
    Omitted<std::vector<KernelDurations>> kernelDurations;
    std::vector<DeviceGaps> gaps;
    Omitted<std::vector<KernelCategory>> kernelCategories;
    Omitted<NsysStats> nsysStats;
    Omitted<Hta> hta;
    // The levels of detail (LevelFamilies.h); left out by a gpueff from before them.
    Omitted<IterationDetection> iterationDetection;
    Omitted<std::vector<Iteration>> iterations;
    Omitted<std::optional<Focus>> focus; // null: no steady iteration
    Omitted<std::vector<Phase>> phases;
    Omitted<Collectives> collectives;
    Omitted<std::vector<KernelOverlap>> kernelOverlap;
    Omitted<Summary> summary; // not required by the schema
    std::vector<std::string> notes;

    static void fields(auto& s, auto&& f) {
        f("schema", s.schema);
        f("tool", s.tool);
        f("trace", s.trace);
        f("inputs", s.inputs);
        f("window", s.window);
        f("devices", s.devices);
        f("efficiency", s.efficiency);
        f("host", s.host);
        f("kernels_in_flight", s.kernelsInFlight);
        f("kernels_queued", s.kernelsQueued);
        f("overlap", s.overlap);
        f("overlap_table", s.overlapTable);
        f("timeline", s.timeline);
        f("nccl_overlap", s.ncclOverlap);
        f("tensor_core", s.tensorCore);
        f("kernel_summary", s.kernelSummary);
        f("kernel_durations", s.kernelDurations);
        f("gaps", s.gaps);
        f("kernel_categories", s.kernelCategories);
        f("nsys_stats", s.nsysStats);
        f("hta", s.hta);
        f("iteration_detection", s.iterationDetection);
        f("iterations", s.iterations);
        f("focus", s.focus);
        f("phases", s.phases);
        f("collectives", s.collectives);
        f("kernel_overlap", s.kernelOverlap);
        f("summary", s.summary);
        f("notes", s.notes);
    }

    // The device with report.json id `id` ("task.gpu"), or nullptr.
    const Device* device(const std::string& id) const;
    // How the report names a device to a reader: its label ("T1 GPU0") when it has one, else its id.
    std::string deviceLabel(const std::string& id) const;
};

// The parts of docs/report.schema.json, in the order it lists them.
inline constexpr SchemaFragment kSchemaFragments[] = {kRunSchema,     kConcurrencySchema, kKernelSchema,
                                                      kKernelRowSchema, kNsysStatsSchema, kHtaSchema,
                                                      kLevelSchema,   kSummarySchema,     kCommonSchema};

} // namespace gpueff::reports::model
