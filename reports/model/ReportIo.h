#pragma once
// report.json <-> the report model: one writer, one reader. The reader checks the document against
// docs/report.schema.json first (reports/ReportSchema.h), then decodes it strictly (Fields.h): an error names
// `label` (the file) and the key at fault.
#include "reports/model/Report.h"

#include <nlohmann/json.hpp>
#include <string>

namespace gpueff::reports::model {

nlohmann::json writeReport(const Report& report);
Report readReport(const nlohmann::json& document, const std::string& label);

} // namespace gpueff::reports::model
