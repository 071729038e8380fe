#pragma once
// The product-side check of a report.json given to `gpueff compare`: docs/report.schema.json (the schema the
// report model declares, reports/model/Schema.h) applied strictly by the one validator of JsonSchema.h (the
// tests check every report.json they write with it), plus what a JSON Schema cannot say. A report that passes
// has every number compare reads of the right type and range, so no efficiency of 57.0 is shown as 5700 % and
// no window of 1e300 ns wraps.
#include <nlohmann/json.hpp>
#include <string>

namespace gpueff::reports {

// Throws gpueff::Error "<label>: <key path>: <what>" at the first violation, e.g.
// "r.json: efficiency.nccl_as_communication.parallel_efficiency: must be a number in [0, 1], got 57.0".
// Integers must be written as integers (1.0 is not one) and fit in 64 bits; window.begin_ns <= window.end_ns
// and duration_ns = end - begin.
void validateReport(const nlohmann::json& report, const std::string& label);

// Parses report.json text; a syntax error (or text that is not UTF-8) is an Error naming `label`.
nlohmann::json parseReport(const std::string& text, const std::string& label);

} // namespace gpueff::reports
