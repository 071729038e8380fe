#pragma once
// The "HTA's definitions" section of report.md (reports/HtaMarkdown.cpp).
#include "reports/model/Report.h"

#include <string>
#include <vector>

namespace gpueff::reports {

void htaSection(std::string& md, const model::Report& report);

// How htaNotes names a device: by its id, as report.json's notes hold them, or by its label, as report.md
// shows them.
enum class HtaDeviceNames { ids, labels };
// The notes of report.json on HTA's own rules (docs/report.md "HTA's definitions"): per device and rule that
// changes a figure, what HTA would show instead, from the report's hta.devices[].rules.
std::vector<std::string> htaNotes(const model::Report& report, HtaDeviceNames names);

} // namespace gpueff::reports
