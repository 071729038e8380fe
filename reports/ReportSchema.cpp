#include "reports/ReportSchema.h"

#include "engine/common/Error.h"
#include "reports/JsonSchema.h"
#include "reports/model/Schema.h"

#include <cstdint>

namespace gpueff::reports {

namespace {

using nlohmann::json;

std::string brief(const json& v) {
    if (v.is_object()) return "an object";
    if (v.is_array()) return "an array";
    return v.dump(-1, ' ', false, json::error_handler_t::replace);
}

// Loaded (and checked: every keyword one the validator applies) once, on first use.
const JsonSchema& schema() {
    static const JsonSchema loaded(json::parse(model::reportSchemaText()), "docs/report.schema.json");
    return loaded;
}

[[noreturn]] void fail(const std::string& label, const SchemaViolation& v) {
    throw Error(label + ": " + describeViolation(v));
}

} // namespace

void validateReport(const json& report, const std::string& label) {
    if (!report.is_object())
        throw Error(label + ": not a gpueff report (a JSON object), got " + brief(report));
    if (auto bad = schema().firstViolation(report)) fail(label, *bad);
    // What the schema cannot express: the window's bounds in order and its duration their difference.
    const auto& w = report["window"];
    auto begin = w["begin_ns"].get<std::int64_t>(), end = w["end_ns"].get<std::int64_t>();
    if (begin > end)
        fail(label, {"window", "begins (begin_ns " + std::to_string(begin) + ") after it ends (end_ns " +
                                   std::to_string(end) + ")"});
    if (w["duration_ns"].get<std::int64_t>() != end - begin)
        fail(label, {"window.duration_ns", "must equal end_ns - begin_ns = " + std::to_string(end - begin) +
                                               ", got " + w["duration_ns"].dump()});
}

json parseReport(const std::string& text, const std::string& label) {
    try {
        return json::parse(text);
    } catch (const json::exception& e) {
        throw Error(label + ": not valid JSON: " + e.what());
    }
}

} // namespace gpueff::reports
