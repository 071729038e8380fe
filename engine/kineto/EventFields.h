#pragma once
// What gpueff reads of one Chrome-trace value with simdjson's On-Demand parser: an event of traceEvents into
// a ChromeEvent, a member of the root object into the trace's metadata, and every other value validated
// (ChromeTrace.cpp hands them out one at a time).
#include "engine/kineto/ChromeTrace.h"

#include <simdjson.h>
#include <string_view>

namespace gpueff::kineto::fields {

// The fields of one event; `e` is cleared by the caller. Throws simdjson_error on invalid JSON.
void readEvent(simdjson::ondemand::object object, ChromeEvent& e);
// distributedInfo, deviceProperties, baseTimeNanoseconds, host_name, schemaVersion; any other member is
// validated only.
void readRootMember(std::string_view key, simdjson::ondemand::document& doc, TraceMetadata& m);
// A value gpueff does not use, checked as JSON.
void validate(simdjson::ondemand::document& doc);

} // namespace gpueff::kineto::fields
