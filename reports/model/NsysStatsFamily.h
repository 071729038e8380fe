#pragma once
// report.json's nsys_stats (docs/report.md "nsys stats summaries"): the summaries `nsys stats` prints as
// nvtx_sum, cuda_api_sum, cuda_gpu_mem_time_sum and cuda_gpu_mem_size_sum, over the whole trace, rows by
// total time (bytes for sizes), largest first; times in ns, sizes in bytes (nsys prints MB = 10^6 bytes).
#include "reports/model/Fields.h"
#include "reports/model/KernelRow.h"
#include "reports/model/Schema.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::reports::model {

// An NVTX range of nvtx_sum: a duration row of its name within its domain.
struct NvtxRow : KernelRow {
    std::string domain;
    std::string style; // "PushPop" or "StartEnd" (nvtxRangeStart/End)
    static void fields(auto& s, auto&& f) {
        KernelRow::fields(s, f);
        f("domain", s.domain);
        f("style", s.style);
    }
};

// A kind of memory operation of cuda_gpu_mem_size_sum, in bytes.
struct MemorySizeRow {
    std::string name;
    std::int64_t instances = 0, totalBytes = 0;
    double avgBytes = 0, medBytes = 0;
    std::int64_t minBytes = 0, maxBytes = 0;
    double stddevBytes = 0;
    std::optional<double> bandwidthGbps; // bytes over time, both summed; null when they took no time
    static void fields(auto& s, auto&& f) {
        f("name", s.name);
        f("instances", s.instances);
        f("total_bytes", s.totalBytes);
        f("avg_bytes", s.avgBytes);
        f("med_bytes", s.medBytes);
        f("min_bytes", s.minBytes);
        f("max_bytes", s.maxBytes);
        f("stddev_bytes", s.stddevBytes);
        f("bandwidth_gbps", s.bandwidthGbps);
    }
};

// The rows a summary leaves out past its 1000 with the most time, with their instances and time.
struct RowsLeftOut {
    std::int64_t rows = 0, instances = 0, totalNs = 0;
    static void fields(auto& s, auto&& f) {
        f("rows", s.rows);
        f("instances", s.instances);
        f("total_ns", s.totalNs);
    }
};

struct NsysStats {
    // Only the summaries that were cut.
    struct LeftOut {
        Omitted<RowsLeftOut> nvtxSum, cudaApiSum;
        static void fields(auto& s, auto&& f) {
            f("nvtx_sum", s.nvtxSum);
            f("cuda_api_sum", s.cudaApiSum);
        }
    };
    std::vector<NvtxRow> nvtxSum;
    std::vector<KernelRow> cudaApiSum, gpuMemTimeSum;
    std::vector<MemorySizeRow> gpuMemSizeSum;
    Omitted<LeftOut> leftOut; // left out when no summary was cut
    static void fields(auto& s, auto&& f) {
        f("nvtx_sum", s.nvtxSum);
        f("cuda_api_sum", s.cudaApiSum);
        f("gpu_mem_time_sum", s.gpuMemTimeSum);
        f("gpu_mem_size_sum", s.gpuMemSizeSum);
        f("left_out", s.leftOut);
    }
};

// Their part of docs/report.schema.json (Schema.h): the schema of these keys in report.json, and the
// definitions only these families use.
inline constexpr SchemaFragment kNsysStatsSchema{R"json(
"nsys_stats": {
  "description": "The nsys stats summaries nvtx_sum, cuda_api_sum, cuda_gpu_mem_time_sum and cuda_gpu_mem_size_sum, whole trace; rows by total time (bytes for sizes), largest first.",
  "type": "object",
  "required": ["nvtx_sum", "cuda_api_sum", "gpu_mem_time_sum", "gpu_mem_size_sum"],
  "properties": {
    "nvtx_sum": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["name", "domain", "style", "time_percent", "total_ns", "instances", "avg_ns", "med_ns",
                     "min_ns", "max_ns", "stddev_ns"],
        "properties": {
          "name": {"type": "string"},
          "domain": {"type": "string"},
          "style": {"enum": ["PushPop", "StartEnd"]},
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
    },
    "cuda_api_sum": {"type": "array", "items": {"$ref": "#/$defs/kernelRow"}},
    "gpu_mem_time_sum": {"type": "array", "items": {"$ref": "#/$defs/kernelRow"}},
    "gpu_mem_size_sum": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["name", "instances", "total_bytes", "avg_bytes", "med_bytes", "min_bytes", "max_bytes",
                     "stddev_bytes", "bandwidth_gbps"],
        "properties": {
          "name": {"type": "string"},
          "instances": {"type": "integer", "minimum": 1},
          "total_bytes": {"$ref": "#/$defs/count"},
          "avg_bytes": {"type": "number", "minimum": 0},
          "med_bytes": {"type": "number", "minimum": 0},
          "min_bytes": {"$ref": "#/$defs/count"},
          "max_bytes": {"$ref": "#/$defs/count"},
          "stddev_bytes": {"type": "number", "minimum": 0},
          "bandwidth_gbps": {"type": ["number", "null"], "minimum": 0}
        },
        "additionalProperties": false
      }
    },
    "left_out": {
      "description": "Only when a summary lists its 1000 rows with the most time of more: the rows left out.",
      "type": "object",
      "properties": {
        "nvtx_sum": {"$ref": "#/$defs/rowsLeftOut"},
        "cuda_api_sum": {"$ref": "#/$defs/rowsLeftOut"}
      },
      "additionalProperties": false
    }
  },
  "additionalProperties": false
}
)json", R"json(
"rowsLeftOut": {
  "type": "object",
  "required": ["rows", "instances", "total_ns"],
  "properties": {
    "rows": {"type": "integer", "minimum": 1},
    "instances": {"type": "integer", "minimum": 1},
    "total_ns": {"$ref": "#/$defs/ns"}
  },
  "additionalProperties": false
}
)json"};

} // namespace gpueff::reports::model
