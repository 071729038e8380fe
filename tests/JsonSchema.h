#pragma once
// A small JSON Schema (draft 2020-12) validator for the subset docs/report.schema.json uses. Debian 12 has no
// schema library for nlohmann::json, and the tests only need: type, required, properties,
// additionalProperties, patternProperties, items, minItems, enum, const, minimum, maximum, pattern,
// allOf/anyOf/oneOf and local "$ref": "#/$defs/...". A keyword outside that subset is reported as an error
// rather than ignored, so a schema cannot silently check less than it seems to.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace testsupport {

// Every violation as "<JSON pointer into doc>: <message>"; empty when doc is valid.
std::vector<std::string> validateJson(const nlohmann::json& schema, const nlohmann::json& doc);

} // namespace testsupport
