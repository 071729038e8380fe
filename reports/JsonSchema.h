#pragma once
// The one JSON Schema (draft 2020-12) validator of gpueff, for the product (compare's check of the
// report.json files it is given, ReportSchema.h) and the tests (every report.json they write, against
// docs/report.schema.json). Debian 12 has no schema library for nlohmann::json, and the subset needed is
// small: type, required, properties, additionalProperties, patternProperties, items, minItems, enum, const,
// minimum, maximum, pattern, allOf/anyOf/oneOf, local "$ref": "#/...", and the annotations $schema, $id,
// $defs, title, description. Any other keyword is an error when the schema is loaded, not ignored, so a
// schema cannot silently check less than it seems to.
//
// One rule departs from the draft: "integer" is a JSON integer that fits in 64 bits (JsonSchema.cpp says
// why).
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <string>
#include <unordered_map>

namespace gpueff::reports {

// Where a document breaks its schema: `path` is the key path of the value ("efficiency.nccl_as_useful",
// "devices[0].useful_ns"; empty for the document itself), `what` what it must be and what it is ("must be a
// number in [0, 1], got 57.0", "missing (a required key)").
struct SchemaViolation {
    std::string path, what;
};

// "path: what", or "what" for the document itself.
std::string describeViolation(const SchemaViolation& v);

class JsonSchema {
public:
    // `name` is how messages refer to the schema ("unexpected key (not in docs/report.schema.json)").
    // Throws gpueff::Error when the schema is not one this validator can apply in full: a keyword outside the
    // subset, a $ref that is not local or does not resolve, a pattern that does not compile.
    JsonSchema(nlohmann::json schema, std::string name);

    // The first violation in document order (for anyOf/oneOf without a fitting branch: the deepest one of its
    // branches), or none when `doc` is valid.
    std::optional<SchemaViolation> firstViolation(const nlohmann::json& doc) const;

    // The compiled nodes point into the schema's own storage: a copy would point into another's.
    ~JsonSchema();
    JsonSchema(const JsonSchema&) = delete;
    JsonSchema& operator=(const JsonSchema&) = delete;

private:
    // A subschema with its keywords looked up once, when the schema is loaded: checking a document then
    // costs one hash lookup per value instead of a map lookup per keyword (a report.json holds some 10^5
    // values, and the dashboard reads a thousand of them).
    struct Compiled;
    // Where a value lies, as a chain through the callers' frames: the text of a path is only made for a
    // violation.
    struct Path;

    nlohmann::json root_;
    std::string name_;
    std::map<std::string, std::regex> regexes_; // every pattern of the schema, compiled once
    std::unordered_map<const nlohmann::json*, std::unique_ptr<Compiled>> compiled_;

    void load(const nlohmann::json& s, const std::string& where);
    void compile(const nlohmann::json& s);
    const nlohmann::json& resolve(const std::string& ref) const;
    bool matches(const std::regex& pattern, const std::string& subject) const;
    bool leafMatches(const Compiled& c, const nlohmann::json& v) const;
    std::string describe(const nlohmann::json& s) const;
    std::optional<SchemaViolation> check(const nlohmann::json& s, const nlohmann::json& v,
                                         const Path* at) const;
    std::optional<SchemaViolation> checkArray(const Compiled& c, const nlohmann::json& v,
                                              const Path* at) const;
    std::optional<SchemaViolation> checkObject(const Compiled& c, const nlohmann::json& v,
                                               const Path* at) const;
    std::optional<SchemaViolation> checkCombinators(const Compiled& c, const nlohmann::json& v,
                                                    const Path* at) const;
};

} // namespace gpueff::reports
