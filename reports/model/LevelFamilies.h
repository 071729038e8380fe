#pragma once
// The levels of detail of the report model (docs/report.md "Iterations and phases"): how iterations were
// found, the iterations and the focus with the device model over each, the phases, the stragglers at
// collectives and the compute kernels split by overlap with communication. Each struct lists its report.json
// fields once (Fields.h); a device is named by its report.json id ("task.gpu").
#include "reports/model/RunFamilies.h"
#include "reports/model/Schema.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::reports::model {

struct IterationDetection {
    struct TaskMarkers {
        std::int64_t task = 0, count = 0; // task 1-based
        static void fields(auto& s, auto&& f) {
            f("task", s.task);
            f("count", s.count);
        }
    };
    std::string source; // markers, detected, none, off
    // The NVTX pattern matched, the kernel a detected iteration begins with, and where marked iterations
    // were placed (gpu-projection, host, gpu-sequence); null when not applicable.
    std::optional<std::string> pattern, anchor, placement;
    std::int64_t count = 0, steady = 0;
    std::vector<TaskMarkers> markersPerTask;
    std::vector<std::string> notes;
    static void fields(auto& s, auto&& f) {
        f("source", s.source);
        f("pattern", s.pattern);
        f("anchor", s.anchor);
        f("placement", s.placement);
        f("count", s.count);
        f("steady", s.steady);
        f("markers_per_task", s.markersPerTask);
        f("notes", s.notes);
    }
};

// The device model over one level's time ($defs/levelFigures), part of an iteration, the focus or a phase.
struct LevelFigures {
    Efficiency efficiency; // both NCCL conventions
    std::optional<double> overlapShare, kernelsInFlightMean;
    static void fields(auto& s, auto&& f) {
        f("efficiency", s.efficiency);
        f("overlap_share", s.overlapShare);
        f("kernels_in_flight_mean", s.kernelsInFlightMean);
    }
};

struct Iteration {
    struct TaskSpan {
        std::int64_t task = 0, beginNs = 0, endNs = 0; // task 1-based
        static void fields(auto& s, auto&& f) {
            f("task", s.task);
            f("begin_ns", s.beginNs);
            f("end_ns", s.endNs);
        }
    };
    // The device whose useful work ended last, and how much later than the first device's.
    struct Straggler {
        std::string device;
        std::int64_t usefulEndNs = 0, lagNs = 0;
        static void fields(auto& s, auto&& f) {
            f("device", s.device);
            f("useful_end_ns", s.usefulEndNs);
            f("lag_ns", s.lagNs);
        }
    };
    std::int64_t index = 0;
    std::string name;
    std::int64_t beginNs = 0, endNs = 0, durationNs = 0;
    std::string status; // steady, warm-up, outlier
    Omitted<std::vector<TaskSpan>> tasks;
    std::optional<Straggler> straggler;
    LevelFigures figures;
    static void fields(auto& s, auto&& f) {
        f("index", s.index);
        f("name", s.name);
        f("begin_ns", s.beginNs);
        f("end_ns", s.endNs);
        f("duration_ns", s.durationNs);
        f("status", s.status);
        f("tasks", s.tasks);
        f("straggler", s.straggler);
        LevelFigures::fields(s.figures, f);
    }
};

// The first to the last steady iteration.
struct Focus {
    std::int64_t first = 0, last = 0, beginNs = 0, endNs = 0, durationNs = 0;
    LevelFigures figures;
    static void fields(auto& s, auto&& f) {
        f("first", s.first);
        f("last", s.last);
        f("begin_ns", s.beginNs);
        f("end_ns", s.endNs);
        f("duration_ns", s.durationNs);
        LevelFigures::fields(s.figures, f);
    }
};

struct Phase {
    std::string name;
    std::int64_t iterations = 0, timeNs = 0; // over the steady iterations
    double meanNs = 0;                       // time per iteration
    LevelFigures figures;
    static void fields(auto& s, auto&& f) {
        f("name", s.name);
        f("iterations", s.iterations);
        f("time_ns", s.timeNs);
        f("mean_ns", s.meanNs);
        LevelFigures::fields(s.figures, f);
    }
};

struct Collectives {
    struct Instance {
        std::string kernel;
        std::int64_t sequence = 0, firstArrivalNs = 0, skewNs = 0;
        std::string lastDevice;
        static void fields(auto& s, auto&& f) {
            f("kernel", s.kernel);
            f("sequence", s.sequence);
            f("first_arrival_ns", s.firstArrivalNs);
            f("skew_ns", s.skewNs);
            f("last_device", s.lastDevice);
        }
    };
    struct DeviceShare {
        std::string device;
        std::int64_t lastCount = 0;        // collectives it arrived last at
        std::optional<double> lastPercent; // of the matched ones; null when none matched
        std::int64_t waitCausedNs = 0;
        static void fields(auto& s, auto&& f) {
            f("device", s.device);
            f("last_count", s.lastCount);
            f("last_percent", s.lastPercent);
            f("wait_caused_ns", s.waitCausedNs);
        }
    };
    std::int64_t matched = 0;
    std::vector<Instance> instances; // by skew, largest first
    std::vector<DeviceShare> devices;
    std::vector<std::string> notes;
    static void fields(auto& s, auto&& f) {
        f("matched", s.matched);
        f("instances", s.instances);
        f("devices", s.devices);
        f("notes", s.notes);
    }
};

// Instances of one kernel and their durations ($defs/durationGroup).
struct DurationGroup {
    std::int64_t instances = 0, totalNs = 0;
    std::optional<double> avgNs, medNs;
    std::int64_t minNs = 0, maxNs = 0;
    std::vector<std::int64_t> modesNs;
    Omitted<std::optional<double>> tensorActivePercent; // null when not sampled
    static void fields(auto& s, auto&& f) {
        f("instances", s.instances);
        f("total_ns", s.totalNs);
        f("avg_ns", s.avgNs);
        f("med_ns", s.medNs);
        f("min_ns", s.minNs);
        f("max_ns", s.maxNs);
        f("modes_ns", s.modesNs);
        f("tensor_active_percent", s.tensorActivePercent);
    }
};

// A compute kernel's instances while communication ran on the same device, and outside it.
struct KernelOverlap {
    std::string name;
    std::optional<DurationGroup> overlapped, alone;
    std::optional<double> slowdown; // median overlapped / median alone; null unless both are there
    static void fields(auto& s, auto&& f) {
        f("name", s.name);
        f("overlapped", s.overlapped);
        f("alone", s.alone);
        f("slowdown", s.slowdown);
    }
};

// Their part of docs/report.schema.json (Schema.h): the schema of these keys in report.json, and the
// definitions only these families use.
inline constexpr SchemaFragment kLevelSchema{R"json(
"iteration_detection": {
  "type": "object",
  "required": ["source", "pattern", "anchor", "placement", "count", "steady", "markers_per_task", "notes"],
  "properties": {
    "source": {"enum": ["markers", "detected", "none", "off"]},
    "pattern": {"type": ["string", "null"]},
    "anchor": {"type": ["string", "null"]},
    "placement": {"enum": ["gpu-projection", "host", "gpu-sequence", null]},
    "count": {"$ref": "#/$defs/count"},
    "steady": {"$ref": "#/$defs/count"},
    "markers_per_task": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["task", "count"],
        "properties": {"task": {"$ref": "#/$defs/task"}, "count": {"$ref": "#/$defs/count"}},
        "additionalProperties": false
      }
    },
    "notes": {"type": "array", "items": {"type": "string"}}
  },
  "additionalProperties": false
},
"iterations": {
  "type": "array",
  "items": {
    "allOf": [{"$ref": "#/$defs/levelFigures"}],
    "required": ["index", "name", "begin_ns", "end_ns", "duration_ns", "status", "straggler"],
    "properties": {
      "index": {"$ref": "#/$defs/count"},
      "name": {"type": "string"},
      "begin_ns": {"$ref": "#/$defs/ns"},
      "end_ns": {"$ref": "#/$defs/ns"},
      "duration_ns": {"type": "integer", "minimum": 1},
      "status": {"enum": ["steady", "warm-up", "outlier"]},
      "tasks": {
        "type": "array",
        "items": {
          "type": "object",
          "required": ["task", "begin_ns", "end_ns"],
          "properties": {
            "task": {"$ref": "#/$defs/task"},
            "begin_ns": {"$ref": "#/$defs/ns"},
            "end_ns": {"$ref": "#/$defs/ns"}
          },
          "additionalProperties": false
        }
      },
      "straggler": {
        "oneOf": [
          {"type": "null"},
          {
            "type": "object",
            "required": ["device", "useful_end_ns", "lag_ns"],
            "properties": {
              "device": {"$ref": "#/$defs/deviceId"},
              "useful_end_ns": {"$ref": "#/$defs/ns"},
              "lag_ns": {"$ref": "#/$defs/ns"}
            },
            "additionalProperties": false
          }
        ]
      }
    }
  }
},
"focus": {
  "oneOf": [
    {"type": "null"},
    {
      "allOf": [{"$ref": "#/$defs/levelFigures"}],
      "required": ["first", "last", "begin_ns", "end_ns", "duration_ns"],
      "properties": {
        "first": {"$ref": "#/$defs/count"},
        "last": {"$ref": "#/$defs/count"},
        "begin_ns": {"$ref": "#/$defs/ns"},
        "end_ns": {"$ref": "#/$defs/ns"},
        "duration_ns": {"$ref": "#/$defs/ns"}
      }
    }
  ]
},
"phases": {
  "type": "array",
  "items": {
    "allOf": [{"$ref": "#/$defs/levelFigures"}],
    "required": ["name", "iterations", "time_ns", "mean_ns"],
    "properties": {
      "name": {"type": "string"},
      "iterations": {"type": "integer", "minimum": 1},
      "time_ns": {"$ref": "#/$defs/ns"},
      "mean_ns": {"type": "number", "minimum": 0}
    }
  }
},
"collectives": {
  "type": "object",
  "required": ["matched", "instances", "devices", "notes"],
  "properties": {
    "matched": {"$ref": "#/$defs/count"},
    "instances": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["kernel", "sequence", "first_arrival_ns", "skew_ns", "last_device"],
        "properties": {
          "kernel": {"type": "string"},
          "sequence": {"$ref": "#/$defs/count"},
          "first_arrival_ns": {"$ref": "#/$defs/ns"},
          "skew_ns": {"$ref": "#/$defs/ns"},
          "last_device": {"$ref": "#/$defs/deviceId"}
        },
        "additionalProperties": false
      }
    },
    "devices": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["device", "last_count", "last_percent", "wait_caused_ns"],
        "properties": {
          "device": {"$ref": "#/$defs/deviceId"},
          "last_count": {"$ref": "#/$defs/count"},
          "last_percent": {"$ref": "#/$defs/percentOrNull"},
          "wait_caused_ns": {"$ref": "#/$defs/ns"}
        },
        "additionalProperties": false
      }
    },
    "notes": {"type": "array", "items": {"type": "string"}}
  },
  "additionalProperties": false
},
"kernel_overlap": {
  "type": "array",
  "items": {
    "type": "object",
    "required": ["name", "overlapped", "alone", "slowdown"],
    "properties": {
      "name": {"type": "string"},
      "overlapped": {"$ref": "#/$defs/durationGroup"},
      "alone": {"$ref": "#/$defs/durationGroup"},
      "slowdown": {"type": ["number", "null"], "minimum": 0}
    },
    "additionalProperties": false
  }
}
)json", R"json(
"levelFigures": {
  "type": "object",
  "required": ["efficiency", "overlap_share", "kernels_in_flight_mean"],
  "properties": {
    "efficiency": {
      "type": "object",
      "required": ["nccl_as_communication", "nccl_as_useful"],
      "properties": {
        "nccl_as_communication": {"$ref": "#/$defs/convention"},
        "nccl_as_useful": {"$ref": "#/$defs/convention"}
      },
      "additionalProperties": false
    },
    "overlap_share": {"$ref": "#/$defs/fractionOrNull"},
    "kernels_in_flight_mean": {"type": ["number", "null"], "minimum": 0}
  }
},
"durationGroup": {
  "oneOf": [
    {"type": "null"},
    {
      "type": "object",
      "required": ["instances", "total_ns", "avg_ns", "med_ns", "min_ns", "max_ns", "modes_ns"],
      "properties": {
        "instances": {"type": "integer", "minimum": 1},
        "total_ns": {"$ref": "#/$defs/ns"},
        "avg_ns": {"type": ["number", "null"], "minimum": 0},
        "med_ns": {"type": ["number", "null"], "minimum": 0},
        "min_ns": {"$ref": "#/$defs/ns"},
        "max_ns": {"$ref": "#/$defs/ns"},
        "modes_ns": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/ns"}},
        "tensor_active_percent": {"$ref": "#/$defs/percentOrNull"}
      },
      "additionalProperties": false
    }
  ]
}
)json"};

} // namespace gpueff::reports::model
