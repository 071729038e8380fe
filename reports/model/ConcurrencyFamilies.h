#pragma once
// The concurrency families of the report model (docs/report.md): the time each device spent at each count of
// kernels in flight and of kernels queued, the overlap of its communication with other work (per device and
// as the study's statistics over devices), the window in bins for the plots over time, and the overlap of
// each NCCL kernel. Each struct lists its report.json fields once (Fields.h).
#include "reports/model/Fields.h"
#include "reports/model/Schema.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::reports::model {

// Time at each count (kernels in flight, queue depth, activities at once): count -> ns.
using NsByCount = std::map<std::int64_t, std::int64_t>;

struct KernelsInFlight {
    std::string device;
    NsByCount timeNsByCount;           // compute + NCCL kernels and graph launches
    NsByCount withMemoryTimeNsByCount; // memory operations counted too
    std::int64_t maximum = 0;          // the largest count held for some time (0: none)
    std::optional<double> mean;        // time-weighted; null when the histogram holds no time
    static void fields(auto& s, auto&& f) {
        f("device", s.device);
        f("time_ns_by_count", s.timeNsByCount);
        f("with_memory_time_ns_by_count", s.withMemoryTimeNsByCount);
        f("maximum", s.maximum);
        f("mean", s.mean);
    }
};

// Kernels launched but not yet started (launch lines needed).
struct KernelsQueued {
    std::string device;
    NsByCount timeNsByDepth;
    std::int64_t maximum = 0;
    std::optional<double> mean;
    static void fields(auto& s, auto&& f) {
        f("device", s.device);
        f("time_ns_by_depth", s.timeNsByDepth);
        f("maximum", s.maximum);
        f("mean", s.mean);
    }
};

// One device's communication time by the number of activities running at once (1: communication alone), and
// that time as fractions of its communication and of the window (by the same counts; NaN, written null, when
// there is nothing to divide by).
struct Overlap {
    std::string device;
    std::int64_t communicationNs = 0;
    NsByCount timeNsByConcurrency;
    std::map<std::int64_t, double> fractionOfCommunication, fractionOfWindow;
    static void fields(auto& s, auto&& f) {
        f("device", s.device);
        f("communication_ns", s.communicationNs);
        f("time_ns_by_concurrency", s.timeNsByConcurrency);
        f("fraction_of_communication", s.fractionOfCommunication);
        f("fraction_of_window", s.fractionOfWindow);
    }
};

// The Paraver histogram statistics over devices, one value per column of the table (null: not finite, or
// Avg/Max of a column whose maximum is not positive). Total is a sum over devices, so it may exceed 1.
struct OverlapRows {
    using Row = std::vector<std::optional<double>>;
    Row total, average, maximum, minimum, stddev, avgMax;
    static void fields(auto& s, auto&& f) {
        f("Total", s.total);
        f("Average", s.average);
        f("Maximum", s.maximum);
        f("Minimum", s.minimum);
        f("StDev", s.stddev);
        f("Avg/Max", s.avgMax);
    }
};

// overlap_table: the columns 1..the largest concurrency of any device, and the statistics of each view.
struct OverlapTable {
    std::vector<std::int64_t> concurrency;
    OverlapRows fractionOfCommunication, fractionOfWindow;
    static void fields(auto& s, auto&& f) {
        f("concurrency", s.concurrency);
        f("fraction_of_communication", s.fractionOfCommunication);
        f("fraction_of_window", s.fractionOfWindow);
    }
};

// One device's series over the timeline's bins: mean kernels executing, shares of useful and communication
// time (NCCL as communication).
struct TimelineDevice {
    std::string device;
    std::vector<double> kernelsInFlight, useful, communication;
    static void fields(auto& s, auto&& f) {
        f("device", s.device);
        f("kernels_in_flight", s.kernelsInFlight);
        f("useful", s.useful);
        f("communication", s.communication);
    }
};

// timeline: the window cut into `bins` equal bins of `binNs`, for the plots over time.
struct Timeline {
    std::int64_t bins = 0;
    double binNs = 0;
    std::vector<TimelineDevice> devices;
    static void fields(auto& s, auto&& f) {
        f("bins", s.bins);
        f("bin_ns", s.binNs);
        f("devices", s.devices);
    }
};

// One NCCL kernel of one device: its time, and the part of it other kernels ran beside.
struct NcclOverlap {
    std::string device, kernel;
    std::int64_t instances = 0, timeNs = 0, overlappedNs = 0;
    std::optional<double> overlappedFraction; // null without time
    static void fields(auto& s, auto&& f) {
        f("device", s.device);
        f("kernel", s.kernel);
        f("instances", s.instances);
        f("time_ns", s.timeNs);
        f("overlapped_ns", s.overlappedNs);
        f("overlapped_fraction", s.overlappedFraction);
    }
};

// Their part of docs/report.schema.json (Schema.h): the schema of these keys in report.json, and the
// definitions only these families use.
inline constexpr SchemaFragment kConcurrencySchema{R"json(
"kernels_in_flight": {
  "type": "array",
  "items": {
    "type": "object",
    "required": ["device", "time_ns_by_count", "with_memory_time_ns_by_count", "maximum", "mean"],
    "properties": {
      "device": {"$ref": "#/$defs/deviceId"},
      "time_ns_by_count": {"$ref": "#/$defs/nsHistogram"},
      "with_memory_time_ns_by_count": {"$ref": "#/$defs/nsHistogram"},
      "maximum": {"$ref": "#/$defs/count"},
      "mean": {"type": ["number", "null"], "minimum": 0}
    }
  }
},
"kernels_queued": {
  "type": "array",
  "items": {
    "type": "object",
    "required": ["device", "time_ns_by_depth", "maximum", "mean"],
    "properties": {
      "device": {"$ref": "#/$defs/deviceId"},
      "time_ns_by_depth": {"$ref": "#/$defs/nsHistogram"},
      "maximum": {"$ref": "#/$defs/count"},
      "mean": {"type": ["number", "null"], "minimum": 0}
    }
  }
},
"overlap": {
  "type": "array",
  "items": {
    "type": "object",
    "required": ["device", "communication_ns", "time_ns_by_concurrency", "fraction_of_communication",
                 "fraction_of_window"],
    "properties": {
      "device": {"$ref": "#/$defs/deviceId"},
      "communication_ns": {"$ref": "#/$defs/ns"},
      "time_ns_by_concurrency": {
        "type": "object",
        "patternProperties": {"^[1-9][0-9]*$": {"$ref": "#/$defs/ns"}},
        "additionalProperties": false
      },
      "fraction_of_communication": {"$ref": "#/$defs/concurrencyFractions"},
      "fraction_of_window": {"$ref": "#/$defs/concurrencyFractions"}
    }
  }
},
"overlap_table": {
  "type": "object",
  "required": ["concurrency", "fraction_of_communication", "fraction_of_window"],
  "properties": {
    "concurrency": {"type": "array", "items": {"type": "integer", "minimum": 1}},
    "fraction_of_communication": {"$ref": "#/$defs/overlapRows"},
    "fraction_of_window": {"$ref": "#/$defs/overlapRows"}
  }
},
"timeline": {
  "description": "The window cut into `bins` equal bins of `bin_ns`: per device, the mean number of kernels executing and the shares of useful and communication time in each bin.",
  "type": "object",
  "required": ["bins", "bin_ns", "devices"],
  "properties": {
    "bins": {"$ref": "#/$defs/count"},
    "bin_ns": {"type": "number", "minimum": 0},
    "devices": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["device", "kernels_in_flight", "useful", "communication"],
        "properties": {
          "device": {"$ref": "#/$defs/deviceId"},
          "kernels_in_flight": {"type": "array", "items": {"type": "number", "minimum": 0}},
          "useful": {"type": "array", "items": {"$ref": "#/$defs/fraction"}},
          "communication": {"type": "array", "items": {"$ref": "#/$defs/fraction"}}
        }
      }
    }
  }
},
"nccl_overlap": {
  "type": "array",
  "items": {
    "type": "object",
    "required": ["device", "kernel", "instances", "time_ns", "overlapped_ns", "overlapped_fraction"],
    "properties": {
      "device": {"$ref": "#/$defs/deviceId"},
      "kernel": {"type": "string"},
      "instances": {"type": "integer", "minimum": 1},
      "time_ns": {"$ref": "#/$defs/ns"},
      "overlapped_ns": {"$ref": "#/$defs/ns"},
      "overlapped_fraction": {"$ref": "#/$defs/fractionOrNull"}
    }
  }
}
)json", R"json(
"nsHistogram": {
  "type": "object",
  "patternProperties": {"^[0-9]+$": {"$ref": "#/$defs/ns"}},
  "additionalProperties": false
},
"concurrencyFractions": {
  "type": "object",
  "patternProperties": {"^[1-9][0-9]*$": {"$ref": "#/$defs/fraction"}},
  "additionalProperties": false
},
"overlapRow": {"type": "array", "items": {"$ref": "#/$defs/fractionOrNull"}},
"overlapRows": {
  "description": "Paraver histogram statistics over devices; Total is their sum, so it may exceed 1.",
  "type": "object",
  "required": ["Total", "Average", "Maximum", "Minimum", "StDev", "Avg/Max"],
  "properties": {
    "Total": {"type": "array", "items": {"type": ["number", "null"], "minimum": 0}},
    "Average": {"$ref": "#/$defs/overlapRow"},
    "Maximum": {"$ref": "#/$defs/overlapRow"},
    "Minimum": {"$ref": "#/$defs/overlapRow"},
    "StDev": {"$ref": "#/$defs/overlapRow"},
    "Avg/Max": {"$ref": "#/$defs/overlapRow"}
  },
  "additionalProperties": false
}
)json"};

} // namespace gpueff::reports::model
