#pragma once
// report.json's JSON Schema, declared beside the model: each family header ends with the schema of its keys
// (a SchemaFragment), and docs/report.schema.json is those fragments assembled in the order Report.h lists
// them, with the keys the schema requires taken from Report::fields (a plain member is required, an Omitted
// one is not). A test checks that every fragment agrees with its structs' fields lists (the same keys, which
// of them required, which nullable, of which kinds) and that docs/report.schema.json is the assembled text,
// so a family's keys are named once, in fields(), and its fragment only adds what a C++ type cannot say:
// ranges, enumerations, patterns.
#include <string>
#include <string_view>

namespace gpueff::reports::model {

// A family's part of the schema, as JSON text laid out as in docs/report.schema.json (members at column 0).
struct SchemaFragment {
    std::string_view properties; // members of the top level's "properties": the family's keys
    std::string_view defs = {};  // members of "$defs" that the family defines
};

// The definitions every family may use.
inline constexpr SchemaFragment kCommonSchema{{}, R"json(
"ns": {"type": "integer", "minimum": 0},
"count": {"type": "integer", "minimum": 0},
"task": {"type": "integer", "minimum": 1},
"deviceId": {"type": "string", "pattern": "^(.+:[0-9]+:[0-9]+|task[0-9]+:[0-9]+)$"},
"fraction": {"type": "number", "minimum": 0, "maximum": 1},
"fractionOrNull": {"type": ["number", "null"], "minimum": 0, "maximum": 1},
"percentOrNull": {"type": ["number", "null"], "minimum": 0, "maximum": 100}
)json"};

// docs/report.schema.json's text: the fragments of the families that Report.h lists, assembled.
std::string reportSchemaText();

} // namespace gpueff::reports::model
