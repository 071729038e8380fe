#pragma once
// Hand-made report.json documents read as a saved report is: completed with the parts the schema requires
// that a test does not exercise, then through model::readReport (schema check, strict decoding).
#include "reports/model/Report.h"

#include <nlohmann/json.hpp>
#include <vector>

namespace testsupport {

// `document` with the required parts it lacks (empty lists, no tensor-core metric, per-device details and
// the figures the schema requires of its histogram and gap entries); what it sets is kept.
nlohmann::json completeForSchema(nlohmann::json document);

// The report model of a (completed) fixture, read through its text (a NaN of the fixture becomes null).
gpueff::reports::model::Report modelOf(const nlohmann::json& document);
std::vector<gpueff::reports::model::Report> modelsOf(const std::vector<nlohmann::json>& documents);

} // namespace testsupport
