#pragma once
// report.json's hta (docs/report.md "HTA's definitions"): each device's figures as Meta's Holistic Trace
// Analysis defines them, beside the POP model, and what HTA's own rules (which gpueff does not follow) would
// make of them.
#include "reports/model/Fields.h"
#include "reports/model/Schema.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::reports::model {

// A device's span (its first start to its last end), idle and compute time, as HTA reads them.
struct HtaReading {
    std::int64_t kernelTimeNs = 0, idleNs = 0, computeNs = 0;
    static void fields(auto& s, auto&& f) {
        f("kernel_time_ns", s.kernelTimeNs);
        f("idle_ns", s.idleNs);
        f("compute_ns", s.computeNs);
    }
};

// HTA keeps only the GPU work launched before the last ProfilerStep began.
struct HtaLastProfilerStep : HtaReading {
    std::int64_t stepBeginNs = 0, operationsDropped = 0, droppedNs = 0;
    static void fields(auto& s, auto&& f) {
        HtaReading::fields(s, f);
        f("step_begin_ns", s.stepBeginNs);
        f("operations_dropped", s.operationsDropped);
        f("dropped_ns", s.droppedNs);
    }
};

// HTA counts the host events with a CUDA stream argument as GPU work.
struct HtaHostEventsWithStream : HtaReading {
    std::int64_t events = 0, timeNs = 0;
    static void fields(auto& s, auto&& f) {
        HtaReading::fields(s, f);
        f("events", s.events);
        f("time_ns", s.timeNs);
    }
};

// What each of HTA's rules alone would show of the device; null where it changes nothing.
struct HtaRules {
    std::optional<HtaLastProfilerStep> lastProfilerStep;
    std::optional<HtaReading> wholeMicroseconds; // starts rounded up, ends down to a whole microsecond
    std::optional<HtaHostEventsWithStream> hostEventsWithStream;
    static void fields(auto& s, auto&& f) {
        f("last_profiler_step", s.lastProfilerStep);
        f("whole_microseconds", s.wholeMicroseconds);
        f("host_events_with_stream", s.hostEventsWithStream);
    }
};

// Idle time between consecutive operations of each stream, summed over the device's streams, by cause.
struct HtaIdleByCause {
    std::int64_t hostWaitNs = 0, kernelWaitNs = 0, otherNs = 0;
    static void fields(auto& s, auto&& f) {
        f("host_wait_ns", s.hostWaitNs);
        f("kernel_wait_ns", s.kernelWaitNs);
        f("other_ns", s.otherNs);
    }
};

struct HtaDevice : HtaReading {
    std::string device; // its id (Device::id)
    std::int64_t nonComputeNs = 0;
    std::optional<double> commCompOverlap; // compute time during NCCL kernels / NCCL time; null: no NCCL
    HtaIdleByCause idleByCause;
    HtaRules rules;
    static void fields(auto& s, auto&& f) {
        f("device", s.device);
        HtaReading::fields(s, f);
        f("non_compute_ns", s.nonComputeNs);
        f("comm_comp_overlap", s.commCompOverlap);
        f("idle_by_cause", s.idleByCause);
        f("rules", s.rules);
    }
};

struct Hta {
    std::int64_t consecutiveKernelDelayNs = 0; // the gap under which idle time is a kernel wait
    std::vector<HtaDevice> devices;
    static void fields(auto& s, auto&& f) {
        f("consecutive_kernel_delay_ns", s.consecutiveKernelDelayNs);
        f("devices", s.devices);
    }
};

// Their part of docs/report.schema.json (Schema.h): the schema of these keys in report.json, and the
// definitions only these families use.
inline constexpr SchemaFragment kHtaSchema{R"json(
"hta": {
  "type": "object",
  "required": ["consecutive_kernel_delay_ns", "devices"],
  "properties": {
    "consecutive_kernel_delay_ns": {"$ref": "#/$defs/ns"},
    "devices": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["device", "kernel_time_ns", "idle_ns", "compute_ns", "non_compute_ns", "comm_comp_overlap",
                     "idle_by_cause", "rules"],
        "properties": {
          "device": {"type": "string"},
          "kernel_time_ns": {"$ref": "#/$defs/ns"},
          "idle_ns": {"$ref": "#/$defs/ns"},
          "compute_ns": {"$ref": "#/$defs/ns"},
          "non_compute_ns": {"$ref": "#/$defs/ns"},
          "comm_comp_overlap": {"$ref": "#/$defs/fractionOrNull"},
          "idle_by_cause": {
            "type": "object",
            "required": ["host_wait_ns", "kernel_wait_ns", "other_ns"],
            "properties": {
              "host_wait_ns": {"type": "integer"},
              "kernel_wait_ns": {"type": "integer"},
              "other_ns": {"type": "integer"}
            },
            "additionalProperties": false
          },
          "rules": {
            "type": "object",
            "required": ["last_profiler_step", "whole_microseconds", "host_events_with_stream"],
            "properties": {
              "last_profiler_step": {
                "oneOf": [
                  {"type": "null"},
                  {
                    "type": "object",
                    "required": ["step_begin_ns", "operations_dropped", "dropped_ns", "kernel_time_ns", "idle_ns",
                                 "compute_ns"],
                    "properties": {
                      "step_begin_ns": {"type": "integer"},
                      "operations_dropped": {"type": "integer", "minimum": 1},
                      "dropped_ns": {"$ref": "#/$defs/ns"},
                      "kernel_time_ns": {"$ref": "#/$defs/ns"},
                      "idle_ns": {"$ref": "#/$defs/ns"},
                      "compute_ns": {"$ref": "#/$defs/ns"}
                    },
                    "additionalProperties": false
                  }
                ]
              },
              "whole_microseconds": {
                "oneOf": [
                  {"type": "null"},
                  {
                    "type": "object",
                    "required": ["kernel_time_ns", "idle_ns", "compute_ns"],
                    "properties": {
                      "kernel_time_ns": {"type": "integer"},
                      "idle_ns": {"type": "integer"},
                      "compute_ns": {"type": "integer"}
                    },
                    "additionalProperties": false
                  }
                ]
              },
              "host_events_with_stream": {
                "oneOf": [
                  {"type": "null"},
                  {
                    "type": "object",
                    "required": ["events", "time_ns", "kernel_time_ns", "idle_ns", "compute_ns"],
                    "properties": {
                      "events": {"type": "integer", "minimum": 1},
                      "time_ns": {"$ref": "#/$defs/ns"},
                      "kernel_time_ns": {"$ref": "#/$defs/ns"},
                      "idle_ns": {"$ref": "#/$defs/ns"},
                      "compute_ns": {"$ref": "#/$defs/ns"}
                    },
                    "additionalProperties": false
                  }
                ]
              }
            },
            "additionalProperties": false
          }
        },
        "additionalProperties": false
      }
    }
  },
  "additionalProperties": false
}
)json"};

} // namespace gpueff::reports::model
