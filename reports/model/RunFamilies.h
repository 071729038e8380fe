#pragma once
// The run-level families of the report model: what was read (tool, trace, inputs), the window, the devices,
// the device efficiency model in both NCCL conventions and the host side (offload, MPI). Each struct lists
// its report.json fields once (Fields.h); a field the schema does not require is Omitted, so a report written
// by an earlier gpueff still reads.
#include "reports/model/Fields.h"
#include "reports/model/Schema.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::reports::model {

struct Tool {
    std::string name, version;
    static void fields(auto& s, auto&& f) {
        f("name", s.name);
        f("version", s.version);
    }
};

struct TraceFiles {
    std::string prv;
    Omitted<std::int64_t> tasks, threads, cutShiftNs;
    Omitted<std::string> writer; // gpueff, nsys2prv, other
    static void fields(auto& s, auto&& f) {
        f("prv", s.prv);
        f("tasks", s.tasks);
        f("threads", s.threads);
        f("writer", s.writer);
        f("cut_shift_ns", s.cutShiftNs);
    }
};

struct Input {
    std::string path;
    std::optional<std::string> nsysVersion, host;
    std::int64_t offsetNs = 0;
    // How its clock was placed (docs/events.md "Time"); left out when the sidecar does not say.
    Omitted<std::string> alignment, syncPoint;
    Omitted<std::optional<std::int64_t>> alignmentUncertaintyNs;
    Omitted<std::int64_t> alignmentEvidence;
    // The wall-clock time (UTC ns) of the input's own time 0: its session start, 0 for a Kineto trace on
    // epoch microseconds; null when the input does not record it, left out by a gpueff from before it.
    // The dashboard dates a run by it (DashboardRun::startUtcNs).
    Omitted<std::optional<std::int64_t>> utcStartNs;
    static void fields(auto& s, auto&& f) {
        f("path", s.path);
        f("nsys_version", s.nsysVersion);
        f("host", s.host);
        f("offset_ns", s.offsetNs);
        f("alignment", s.alignment);
        f("sync_point", s.syncPoint);
        f("alignment_uncertainty_ns", s.alignmentUncertaintyNs);
        f("alignment_evidence", s.alignmentEvidence);
        f("utc_start_ns", s.utcStartNs);
    }
};

struct Window {
    std::int64_t beginNs = 0, endNs = 0, durationNs = 0;
    std::string source; // gpu-activity, arguments, region
    Omitted<std::string> region;
    static void fields(auto& s, auto&& f) {
        f("begin_ns", s.beginNs);
        f("end_ns", s.endNs);
        f("duration_ns", s.durationNs);
        f("source", s.source);
        f("region", s.region);
    }
};

struct Device {
    std::string id; // "task.gpu", the key other families name a device by
    Omitted<std::string> label, host;
    Omitted<std::optional<std::int64_t>> pid;
    Omitted<std::map<std::string, std::int64_t>> memoryByKindNs;
    Omitted<std::int64_t> kernelsWithLaunch;
    std::int64_t task = 0, gpu = 0;
    std::string name;
    std::int64_t rows = 0, usefulNs = 0, communicationNs = 0, idleNs = 0, computeNs = 0, ncclNs = 0,
                 memoryNs = 0, kernels = 0, memoryOperations = 0;
    static void fields(auto& s, auto&& f) {
        f("id", s.id);
        f("label", s.label);
        f("host", s.host);
        f("pid", s.pid);
        f("memory_by_kind_ns", s.memoryByKindNs);
        f("kernels_with_launch", s.kernelsWithLaunch);
        f("task", s.task);
        f("gpu", s.gpu);
        f("name", s.name);
        f("rows", s.rows);
        f("useful_ns", s.usefulNs);
        f("communication_ns", s.communicationNs);
        f("idle_ns", s.idleNs);
        f("compute_ns", s.computeNs);
        f("nccl_ns", s.ncclNs);
        f("memory_ns", s.memoryNs);
        f("kernels", s.kernels);
        f("memory_operations", s.memoryOperations);
    }
};

// The device efficiency model of one NCCL convention (docs/report.md "Efficiency model").
struct Convention {
    struct DeviceState {
        std::string id;
        std::int64_t usefulNs = 0, communicationNs = 0, idleNs = 0;
        static void fields(auto& s, auto&& f) {
            f("id", s.id);
            f("useful_ns", s.usefulNs);
            f("communication_ns", s.communicationNs);
            f("idle_ns", s.idleNs);
        }
    };
    // null when not computable (no useful time): the renderers print n/a.
    std::optional<double> parallel, loadBalance, communication, orchestration;
    std::int64_t usefulSumNs = 0, usefulMaxNs = 0, activeMaxNs = 0;
    std::vector<DeviceState> devices;
    static void fields(auto& s, auto&& f) {
        f("parallel_efficiency", s.parallel);
        f("load_balance", s.loadBalance);
        f("communication_efficiency", s.communication);
        f("orchestration_efficiency", s.orchestration);
        f("useful_sum_ns", s.usefulSumNs);
        f("useful_max_ns", s.usefulMaxNs);
        f("active_max_ns", s.activeMaxNs);
        f("devices", s.devices);
    }
    // The factors in report order (kEfficiencyFactors of ReportMarkdown.h).
    std::optional<double> factor(std::size_t i) const {
        const std::optional<double>* all[] = {&parallel, &loadBalance, &communication, &orchestration};
        return *all[i];
    }
};

struct Efficiency {
    Convention ncclAsCommunication, ncclAsUseful;
    static void fields(auto& s, auto&& f) {
        f("nccl_as_communication", s.ncclAsCommunication);
        f("nccl_as_useful", s.ncclAsUseful);
    }
    const Convention& convention(std::size_t i) const { return i == 0 ? ncclAsCommunication : ncclAsUseful; }
};

struct Offload {
    std::int64_t task = 0;
    std::string name;
    std::int64_t blockingNs = 0;
    std::optional<double> offloadEfficiency;
    Omitted<std::optional<std::int64_t>> launchBlockedNs;
    Omitted<std::optional<double>> offloadEfficiencyWithLaunches;
    static void fields(auto& s, auto&& f) {
        f("task", s.task);
        f("name", s.name);
        f("blocking_ns", s.blockingNs);
        f("offload_efficiency", s.offloadEfficiency);
        f("launch_blocked_ns", s.launchBlockedNs);
        f("offload_efficiency_with_launches", s.offloadEfficiencyWithLaunches);
    }
};

struct MpiFactors {
    struct Task {
        std::int64_t task = 0, mpiNs = 0, outsideMpiNs = 0;
        static void fields(auto& s, auto&& f) {
            f("task", s.task);
            f("mpi_ns", s.mpiNs);
            f("outside_mpi_ns", s.outsideMpiNs);
        }
    };
    std::optional<double> parallel, loadBalance, communication;
    std::vector<Task> tasks;
    static void fields(auto& s, auto&& f) {
        f("parallel_efficiency", s.parallel);
        f("load_balance", s.loadBalance);
        f("communication_efficiency", s.communication);
        f("tasks", s.tasks);
    }
};

struct Host {
    std::vector<Offload> offload;
    std::optional<MpiFactors> mpi; // null: no MPI in the trace
    static void fields(auto& s, auto&& f) {
        f("offload", s.offload);
        f("mpi", s.mpi);
    }
};

// Their part of docs/report.schema.json (Schema.h): the schema of these keys in report.json, and the
// definitions only these families use.
inline constexpr SchemaFragment kRunSchema{R"json(
"schema": {"const": "gpueff-report/1"},
"tool": {
  "type": "object",
  "required": ["name", "version"],
  "properties": {"name": {"const": "gpueff"}, "version": {"type": "string"}}
},
"trace": {
  "type": "object",
  "required": ["prv"],
  "properties": {
    "prv": {"type": "string"},
    "tasks": {"type": "integer", "minimum": 1},
    "threads": {"type": "integer", "minimum": 1},
    "writer": {"enum": ["gpueff", "nsys2prv", "other"]},
    "cut_shift_ns": {"type": "integer", "minimum": 0}
  }
},
"inputs": {
  "type": "array",
  "items": {
    "type": "object",
    "required": ["path", "nsys_version", "host", "offset_ns"],
    "properties": {
      "path": {"type": "string"},
      "nsys_version": {"type": ["string", "null"]},
      "host": {"type": ["string", "null"]},
      "offset_ns": {"type": "integer"},
      "alignment": {"enum": ["single input", "utc", "utc+MPI_Init", "utc+first collective", "MPI_Init",
                             "first collective", "none"]},
      "sync_point": {"type": "string"},
      "alignment_uncertainty_ns": {"type": ["integer", "null"], "minimum": 0},
      "alignment_evidence": {"type": "integer", "minimum": 0},
      "utc_start_ns": {"type": ["integer", "null"], "minimum": 0}
    }
  }
},
"window": {
  "type": "object",
  "required": ["begin_ns", "end_ns", "duration_ns", "source"],
  "properties": {
    "begin_ns": {"$ref": "#/$defs/ns"},
    "end_ns": {"$ref": "#/$defs/ns"},
    "duration_ns": {"$ref": "#/$defs/ns"},
    "source": {"enum": ["gpu-activity", "arguments", "region"]},
    "region": {"type": "string"}
  },
  "additionalProperties": false,
  "anyOf": [
    {"properties": {"source": {"const": "region"}}, "required": ["region"]},
    {"properties": {"source": {"enum": ["gpu-activity", "arguments"]}}}
  ]
},
"devices": {
  "type": "array",
  "items": {
    "type": "object",
    "required": ["id", "task", "gpu", "name", "rows", "useful_ns", "communication_ns", "idle_ns",
                 "compute_ns", "nccl_ns", "memory_ns", "kernels", "memory_operations"],
    "properties": {
      "id": {"$ref": "#/$defs/deviceId"},
      "label": {"type": "string"},
      "host": {"type": "string"},
      "pid": {"type": ["integer", "null"]},
      "memory_by_kind_ns": {"type": "object", "additionalProperties": {"$ref": "#/$defs/ns"}},
      "kernels_with_launch": {"$ref": "#/$defs/count"},
      "task": {"$ref": "#/$defs/task"},
      "gpu": {"type": "integer", "minimum": 0},
      "name": {"type": "string"},
      "rows": {"type": "integer", "minimum": 0},
      "useful_ns": {"$ref": "#/$defs/ns"},
      "communication_ns": {"$ref": "#/$defs/ns"},
      "idle_ns": {"$ref": "#/$defs/ns"},
      "compute_ns": {"$ref": "#/$defs/ns"},
      "nccl_ns": {"$ref": "#/$defs/ns"},
      "memory_ns": {"$ref": "#/$defs/ns"},
      "kernels": {"$ref": "#/$defs/count"},
      "memory_operations": {"$ref": "#/$defs/count"}
    }
  }
},
"efficiency": {
  "type": "object",
  "required": ["nccl_as_communication", "nccl_as_useful"],
  "properties": {
    "nccl_as_communication": {"$ref": "#/$defs/convention"},
    "nccl_as_useful": {"$ref": "#/$defs/convention"}
  },
  "additionalProperties": false
},
"host": {
  "type": "object",
  "required": ["offload", "mpi"],
  "properties": {
    "offload": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["task", "name", "blocking_ns", "offload_efficiency"],
        "properties": {
          "task": {"$ref": "#/$defs/task"},
          "name": {"type": "string"},
          "blocking_ns": {"$ref": "#/$defs/ns"},
          "offload_efficiency": {"$ref": "#/$defs/fractionOrNull"},
          "launch_blocked_ns": {"type": ["integer", "null"], "minimum": 0},
          "offload_efficiency_with_launches": {"$ref": "#/$defs/fractionOrNull"}
        }
      }
    },
    "mpi": {
      "oneOf": [
        {"type": "null"},
        {
          "type": "object",
          "required": ["parallel_efficiency", "load_balance", "communication_efficiency", "tasks"],
          "properties": {
            "parallel_efficiency": {"$ref": "#/$defs/fractionOrNull"},
            "load_balance": {"$ref": "#/$defs/fractionOrNull"},
            "communication_efficiency": {"$ref": "#/$defs/fractionOrNull"},
            "tasks": {
              "type": "array",
              "items": {
                "type": "object",
                "required": ["task", "mpi_ns", "outside_mpi_ns"],
                "properties": {
                  "task": {"$ref": "#/$defs/task"},
                  "mpi_ns": {"$ref": "#/$defs/ns"},
                  "outside_mpi_ns": {"$ref": "#/$defs/ns"}
                }
              }
            }
          }
        }
      ]
    }
  }
},
"notes": {"type": "array", "items": {"type": "string"}}
)json",
                                           R"json(
"convention": {
  "type": "object",
  "required": ["parallel_efficiency", "load_balance", "communication_efficiency", "orchestration_efficiency",
               "useful_sum_ns", "useful_max_ns", "active_max_ns", "devices"],
  "properties": {
    "parallel_efficiency": {"$ref": "#/$defs/fractionOrNull"},
    "load_balance": {"$ref": "#/$defs/fractionOrNull"},
    "communication_efficiency": {"$ref": "#/$defs/fractionOrNull"},
    "orchestration_efficiency": {"$ref": "#/$defs/fractionOrNull"},
    "useful_sum_ns": {"$ref": "#/$defs/ns"},
    "useful_max_ns": {"$ref": "#/$defs/ns"},
    "active_max_ns": {"$ref": "#/$defs/ns"},
    "devices": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["id", "useful_ns", "communication_ns", "idle_ns"],
        "properties": {
          "id": {"$ref": "#/$defs/deviceId"},
          "useful_ns": {"$ref": "#/$defs/ns"},
          "communication_ns": {"$ref": "#/$defs/ns"},
          "idle_ns": {"$ref": "#/$defs/ns"}
        },
        "additionalProperties": false
      }
    }
  },
  "additionalProperties": false
}
)json"};

} // namespace gpueff::reports::model
