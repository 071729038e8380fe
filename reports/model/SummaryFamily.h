#pragma once
// The executive summary family of the report model (report.json "summary", the top of report.md; built by
// reports/ExecutiveSummary.cpp): the device time the run lost, split among the factors of
// PE = LB x CommE x OrchE (NCCL as communication), largest first, each with its evidence and what to look at
// next. Fields as docs/report.schema.json lists them (Fields.h).
#include "reports/model/Fields.h"
#include "reports/model/Schema.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::reports::model {

struct Summary {
    // The device time one factor of the efficiency model lost.
    struct Loss {
        std::string factor;               // orchestration, communication, load balance
        std::optional<double> efficiency; // the factor; null when not finite
        std::int64_t lostNs = 0;          // device time lost to it (its share of lostNs below)
        std::optional<double> lostShare;  // lostNs over the device time; null without device time
        std::string evidence, recommendation;
        static void fields(auto& s, auto&& f) {
            f("factor", s.factor);
            f("efficiency", s.efficiency);
            f("lost_ns", s.lostNs);
            f("lost_share", s.lostShare);
            f("evidence", s.evidence);
            f("recommendation", s.recommendation);
        }
    };
    // false when the efficiency model has no useful time: then nothing else but an empty losses.
    bool computable = false;
    Omitted<std::optional<double>> parallel;
    // The window times the devices, and what of it went to no useful work.
    Omitted<std::int64_t> deviceTimeNs, lostNs;
    std::vector<Loss> losses; // largest lostNs first
    static void fields(auto& s, auto&& f) {
        f("computable", s.computable);
        f("parallel_efficiency", s.parallel);
        f("device_time_ns", s.deviceTimeNs);
        f("lost_ns", s.lostNs);
        f("losses", s.losses);
    }
};

// Their part of docs/report.schema.json (Schema.h): the schema of these keys in report.json, and the
// definitions only these families use.
inline constexpr SchemaFragment kSummarySchema{R"json(
"summary": {
  "type": "object",
  "required": ["computable", "losses"],
  "properties": {
    "computable": {"type": "boolean"},
    "parallel_efficiency": {"$ref": "#/$defs/fractionOrNull"},
    "device_time_ns": {"$ref": "#/$defs/ns"},
    "lost_ns": {"$ref": "#/$defs/ns"},
    "losses": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["factor", "efficiency", "lost_ns", "lost_share", "evidence", "recommendation"],
        "properties": {
          "factor": {"enum": ["orchestration", "communication", "load balance"]},
          "efficiency": {"$ref": "#/$defs/fractionOrNull"},
          "lost_ns": {"$ref": "#/$defs/ns"},
          "lost_share": {"$ref": "#/$defs/fractionOrNull"},
          "evidence": {"type": "string"},
          "recommendation": {"type": "string"}
        },
        "additionalProperties": false
      }
    }
  },
  "additionalProperties": false
}
)json"};

} // namespace gpueff::reports::model
