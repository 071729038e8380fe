// libFuzzer harness: report.json text as `gpueff compare` reads it. Parsed, checked and decoded by the
// product code (reports::parseReport, checkReportSchema, model::readReport: the schema, then the strict
// decoding), then, when it reads, compared with a valid base report and rendered (the comparison's Markdown,
// JSON and plots, and the report's own Markdown). gpueff::Error is a clean refusal; any other exception is a
// finding.
#include "engine/common/Error.h"
#include "engine/common/JsonText.h"
#include "reports/Compare.h"
#include "reports/ReportMarkdown.h"
#include "reports/ReportSchema.h"
#include "reports/model/ReportIo.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

// A small report valid against docs/report.schema.json: one device, one kernel.
const json& baseReport() {
    static const json base = json::parse(R"({
  "schema": "gpueff-report/1",
  "tool": {"name": "gpueff", "version": "0.1.0"},
  "trace": {"prv": "base.prv", "tasks": 1, "threads": 2},
  "inputs": [{"path": "base.sqlite", "nsys_version": null, "host": null, "offset_ns": 0}],
  "window": {"begin_ns": 100, "end_ns": 1100, "duration_ns": 1000, "source": "gpu-activity"},
  "devices": [{"id": "host:1:0", "task": 1, "gpu": 0, "name": "GPU", "rows": 1, "useful_ns": 800,
               "communication_ns": 100, "idle_ns": 100, "compute_ns": 800, "nccl_ns": 100, "memory_ns": 0,
               "kernels": 3, "memory_operations": 0}],
  "efficiency": {
    "nccl_as_communication": {"parallel_efficiency": 0.8, "load_balance": 1.0, "communication_efficiency": 0.888,
      "orchestration_efficiency": 0.9, "useful_sum_ns": 800, "useful_max_ns": 800, "active_max_ns": 900,
      "devices": [{"id": "host:1:0", "useful_ns": 800, "communication_ns": 100, "idle_ns": 100}]},
    "nccl_as_useful": {"parallel_efficiency": 0.9, "load_balance": 1.0, "communication_efficiency": 1.0,
      "orchestration_efficiency": 0.9, "useful_sum_ns": 900, "useful_max_ns": 900, "active_max_ns": 900,
      "devices": [{"id": "host:1:0", "useful_ns": 900, "communication_ns": 0, "idle_ns": 100}]}},
  "kernels_in_flight": [], "overlap": [], "gaps": [], "notes": [],
  "kernel_summary": {"overall": [{"name": "gemm", "time_percent": 100, "total_ns": 800, "instances": 3,
    "avg_ns": 266.7, "med_ns": 300, "min_ns": 200, "max_ns": 300, "stddev_ns": 50}], "devices": []},
  "tensor_core": {"available": false, "reason": "no GPU metrics"}
})");
    return base;
}

void exercise(const std::string& text) {
    json report = gpueff::reports::parseReport(text, "fuzz.json");
    std::optional<gpueff::reports::model::Report> model;
    try {
        gpueff::reports::checkReportSchema(report, "fuzz.json");
        model = gpueff::reports::model::readReport(report, "fuzz.json");
    } catch (const gpueff::Error&) {
    }
    if (model) {
        auto rendered = gpueff::reports::renderMarkdownReport(*model);
        (void)rendered;
    }
    for (bool weak : {false, true}) {
        gpueff::reports::CompareOptions options;
        options.weak = weak;
        // Every figure the gates name, each way round, with the fuzzed run as the reference once.
        for (const char* gate :
             {"iteration_time<=+3%", "speedup>=0.9", "parallel_efficiency>=-2pp",
              "computational_efficiency@nccl_as_useful>=0.97", "global_efficiency<1", "iteration_time>-1ms"})
            options.gates.push_back(gpueff::reports::compare::parseGate(gate));
        if (weak) options.reference = "fuzzed";
        if (!model) break;
        auto base = gpueff::reports::model::readReport(baseReport(), "base.json");
        auto comparison = gpueff::reports::compareReports({base, *model}, {"base", "fuzzed"}, options);
        (void)gpueff::dumpJson(comparison.json);
        (void)gpueff::reports::compare::gatesJunit(comparison.gates);
        // Against itself: per steady iteration when the fuzzed report has some (the base has none).
        auto self = gpueff::reports::compareReports({*model, *model}, {"fuzzed", "again"}, options);
        (void)gpueff::dumpJson(self.json);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        exercise(std::string(reinterpret_cast<const char*>(data), size));
    } catch (const gpueff::Error&) {
        // a clean refusal
    } catch (const std::exception& e) {
        std::fprintf(stderr, "compare_report: unexpected exception: %s\n", e.what());
        std::abort();
    }
    return 0;
}
