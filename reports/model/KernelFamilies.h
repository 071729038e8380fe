#pragma once
// The kernel families of the report model (docs/report.md): tensor-core use per GEMM kernel, the kernel
// summary in the form of `nsys stats`, the kernels' duration distributions, the devices' idle gaps and the
// GPU time by kind of work. Each struct lists its report.json fields once (Fields.h).
#include "reports/model/Fields.h"
#include "reports/model/KernelRow.h"
#include "reports/model/Schema.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::reports::model {

// One task's time-weighted mean of the tensor-active metric during each GEMM kernel (null: no sample).
struct TensorTask {
    std::int64_t task = 0; // 1-based
    std::string device;
    std::map<std::string, std::optional<double>> tensorActivePercent; // by kernel name
    static void fields(auto& s, auto&& f) {
        f("task", s.task);
        f("device", s.device);
        f("tensor_active_percent", s.tensorActivePercent);
    }
};

// The statistics of each kernel's percentages over the tasks that ran it, by kernel name (null: not finite).
struct TensorStats {
    using ByKernel = std::map<std::string, std::optional<double>>;
    ByKernel average, maximum, minimum, stddev, avgMax;
    static void fields(auto& s, auto&& f) {
        f("Average", s.average);
        f("Maximum", s.maximum);
        f("Minimum", s.minimum);
        f("StDev", s.stddev);
        f("Avg/Max", s.avgMax);
    }
};

// tensor_core: when no GPU metric was sampled, `available` is false with a `reason` and nothing else.
struct TensorCore {
    bool available = false;
    Omitted<std::string> reason, metric;
    Omitted<std::vector<std::string>> kernels; // the GEMM kernels, in the order of the tables
    Omitted<std::vector<TensorTask>> tasks;
    Omitted<TensorStats> rows;
    static void fields(auto& s, auto&& f) {
        f("available", s.available);
        f("reason", s.reason);
        f("metric", s.metric);
        f("kernels", s.kernels);
        f("tasks", s.tasks);
        f("rows", s.rows);
    }
};

struct DeviceKernelRows {
    std::string device;
    std::vector<KernelRow> rows;
    static void fields(auto& s, auto&& f) {
        f("device", s.device);
        f("rows", s.rows);
    }
};

// kernel_summary: as `nsys stats -r cuda_gpu_kern_sum`, over the whole trace and per device.
struct KernelSummary {
    std::vector<KernelRow> overall;
    std::vector<DeviceKernelRows> devices;
    static void fields(auto& s, auto&& f) {
        f("overall", s.overall);
        f("devices", s.devices);
    }
};

struct DurationBin {
    std::int64_t lowerNs = 0, upperNs = 0, count = 0; // [lower, upper) ns
    static void fields(auto& s, auto&& f) {
        f("lower_ns", s.lowerNs);
        f("upper_ns", s.upperNs);
        f("count", s.count);
    }
};

// One kernel's distribution of durations, with its modes (metrics/DurationModes.h).
struct KernelDurations {
    std::string name;
    std::int64_t instances = 0;
    std::vector<DurationBin> bins;
    std::vector<std::int64_t> modesNs;
    static void fields(auto& s, auto&& f) {
        f("name", s.name);
        f("instances", s.instances);
        f("bins", s.bins);
        f("modes_ns", s.modesNs);
    }
};

// Gaps of one duration range: [lower, upper) ns, the last range open (upper null).
struct GapBin {
    std::int64_t lowerNs = 0;
    std::optional<std::int64_t> upperNs;
    std::int64_t count = 0, timeNs = 0;
    static void fields(auto& s, auto&& f) {
        f("lower_ns", s.lowerNs);
        f("upper_ns", s.upperNs);
        f("count", s.count);
        f("time_ns", s.timeNs);
    }
};

// One device's idle gaps and their causes (host-wait: launched after the gap began; kernel-wait: in time).
struct DeviceGaps {
    std::string device;
    std::int64_t count = 0, totalNs = 0, hostWaitCount = 0, hostWaitNs = 0, kernelWaitCount = 0,
                 kernelWaitNs = 0;
    Omitted<std::vector<GapBin>> byDuration;
    static void fields(auto& s, auto&& f) {
        f("device", s.device);
        f("count", s.count);
        f("total_ns", s.totalNs);
        f("host_wait_count", s.hostWaitCount);
        f("host_wait_ns", s.hostWaitNs);
        f("kernel_wait_count", s.kernelWaitCount);
        f("kernel_wait_ns", s.kernelWaitNs);
        f("by_duration", s.byDuration);
    }
};

// The GPU time of one kind of work (metrics/KernelCategories.h).
struct KernelCategory {
    std::string category;
    std::int64_t timeNs = 0, instances = 0;
    static void fields(auto& s, auto&& f) {
        f("category", s.category);
        f("time_ns", s.timeNs);
        f("instances", s.instances);
    }
};

// Their part of docs/report.schema.json (Schema.h): the schema of these keys in report.json, and the
// definitions only these families use.
inline constexpr SchemaFragment kKernelSchema{R"json(
"tensor_core": {
  "oneOf": [
    {
      "type": "object",
      "required": ["available", "reason"],
      "properties": {"available": {"const": false}, "reason": {"type": "string"}}
    },
    {
      "type": "object",
      "required": ["available", "metric", "kernels", "tasks", "rows"],
      "properties": {
        "available": {"const": true},
        "metric": {"type": "string"},
        "kernels": {"type": "array", "items": {"type": "string"}},
        "tasks": {
          "type": "array",
          "items": {
            "type": "object",
            "required": ["task", "device", "tensor_active_percent"],
            "properties": {
              "task": {"$ref": "#/$defs/task"},
              "device": {"$ref": "#/$defs/deviceId"},
              "tensor_active_percent": {"type": "object", "additionalProperties": {"$ref": "#/$defs/percentOrNull"}}
            }
          }
        },
        "rows": {
          "type": "object",
          "required": ["Average", "Maximum", "Minimum", "StDev", "Avg/Max"],
          "properties": {
            "Average": {"$ref": "#/$defs/percentByKernel"},
            "Maximum": {"$ref": "#/$defs/percentByKernel"},
            "Minimum": {"$ref": "#/$defs/percentByKernel"},
            "StDev": {"$ref": "#/$defs/percentByKernel"},
            "Avg/Max": {"type": "object", "additionalProperties": {"$ref": "#/$defs/fractionOrNull"}}
          },
          "additionalProperties": false
        }
      }
    }
  ]
},
"kernel_summary": {
  "type": "object",
  "required": ["overall", "devices"],
  "properties": {
    "overall": {"type": "array", "items": {"$ref": "#/$defs/kernelRow"}},
    "devices": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["device", "rows"],
        "properties": {
          "device": {"$ref": "#/$defs/deviceId"},
          "rows": {"type": "array", "items": {"$ref": "#/$defs/kernelRow"}}
        }
      }
    }
  }
},
"kernel_durations": {
  "type": "array",
  "items": {
    "type": "object",
    "required": ["name", "instances", "bins", "modes_ns"],
    "properties": {
      "name": {"type": "string"},
      "instances": {"type": "integer", "minimum": 1},
      "bins": {
        "type": "array",
        "items": {
          "type": "object",
          "required": ["lower_ns", "upper_ns", "count"],
          "properties": {
            "lower_ns": {"$ref": "#/$defs/ns"},
            "upper_ns": {"$ref": "#/$defs/ns"},
            "count": {"$ref": "#/$defs/count"}
          },
          "additionalProperties": false
        }
      },
      "modes_ns": {"type": "array", "items": {"$ref": "#/$defs/ns"}}
    }
  }
},
"gaps": {
  "type": "array",
  "items": {
    "type": "object",
    "required": ["device", "count", "total_ns", "host_wait_count", "host_wait_ns", "kernel_wait_count",
                 "kernel_wait_ns"],
    "properties": {
      "device": {"$ref": "#/$defs/deviceId"},
      "count": {"$ref": "#/$defs/count"},
      "total_ns": {"$ref": "#/$defs/ns"},
      "host_wait_count": {"$ref": "#/$defs/count"},
      "host_wait_ns": {"$ref": "#/$defs/ns"},
      "kernel_wait_count": {"$ref": "#/$defs/count"},
      "kernel_wait_ns": {"$ref": "#/$defs/ns"},
      "by_duration": {
        "type": "array",
        "items": {
          "type": "object",
          "required": ["lower_ns", "upper_ns", "count", "time_ns"],
          "properties": {
            "lower_ns": {"$ref": "#/$defs/ns"},
            "upper_ns": {"type": ["integer", "null"], "minimum": 1},
            "count": {"$ref": "#/$defs/count"},
            "time_ns": {"$ref": "#/$defs/ns"}
          },
          "additionalProperties": false
        }
      }
    }
  }
},
"kernel_categories": {
  "type": "array",
  "items": {
    "type": "object",
    "required": ["category", "time_ns", "instances"],
    "properties": {
      "category": {"enum": ["NCCL", "attention", "GEMM", "reduction", "elementwise", "other kernels", "memory"]},
      "time_ns": {"$ref": "#/$defs/ns"},
      "instances": {"$ref": "#/$defs/count"}
    },
    "additionalProperties": false
  }
}
)json", R"json(
"percentByKernel": {"type": "object", "additionalProperties": {"type": ["number", "null"], "minimum": 0}}
)json"};

} // namespace gpueff::reports::model
