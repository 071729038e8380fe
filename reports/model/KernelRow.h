#pragma once
// One row of a duration summary in the form of `nsys stats -r cuda_gpu_kern_sum` (report.schema.json
// $defs/kernelRow): the kernel summary and nsys_stats' cuda_api_sum and gpu_mem_time_sum rows.
#include "reports/model/Fields.h"
#include "reports/model/Schema.h"

#include <cstdint>
#include <string>

namespace gpueff::reports::model {

struct KernelRow {
    std::string name;
    double timePercent = 0; // of the summary's total time, in percent as nsys prints it
    std::int64_t totalNs = 0, instances = 0;
    double avgNs = 0, medNs = 0;
    std::int64_t minNs = 0, maxNs = 0;
    double stddevNs = 0;
    static void fields(auto& s, auto&& f) {
        f("name", s.name);
        f("time_percent", s.timePercent);
        f("total_ns", s.totalNs);
        f("instances", s.instances);
        f("avg_ns", s.avgNs);
        f("med_ns", s.medNs);
        f("min_ns", s.minNs);
        f("max_ns", s.maxNs);
        f("stddev_ns", s.stddevNs);
    }
};

// Its part of docs/report.schema.json (Schema.h): the definition of a row, shared by the families that hold
// rows.
inline constexpr SchemaFragment kKernelRowSchema{{}, R"json(
"kernelRow": {
  "type": "object",
  "required": ["name", "time_percent", "total_ns", "instances", "avg_ns", "med_ns", "min_ns", "max_ns",
               "stddev_ns"],
  "properties": {
    "name": {"type": "string"},
    "time_percent": {"type": "number", "minimum": 0, "maximum": 100},
    "total_ns": {"$ref": "#/$defs/ns"},
    "instances": {"type": "integer", "minimum": 1},
    "avg_ns": {"type": "number", "minimum": 0},
    "med_ns": {"type": "number", "minimum": 0},
    "min_ns": {"$ref": "#/$defs/ns"},
    "max_ns": {"$ref": "#/$defs/ns"},
    "stddev_ns": {"type": "number", "minimum": 0}
  },
  "additionalProperties": false
}
)json"};

} // namespace gpueff::reports::model
