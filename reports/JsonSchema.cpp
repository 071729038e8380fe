#include "reports/JsonSchema.h"

#include "engine/common/Error.h"

#include <cmath>
#include <cstdint>
#include <set>

namespace gpueff::reports {

namespace {

using nlohmann::json;

// std::regex matches recursively (libstdc++), so a huge string could exhaust the stack; no string a pattern
// applies to (device ids, histogram keys) is anywhere near this long in a real report.
constexpr std::size_t kMaxPatternSubject = 4096;

// "integer" is decided here, once, for the product and the tests: a JSON integer (digits only, no fraction
// or exponent) that fits in int64. Draft 2020-12 would also take 1.0 and 1e300 (any number with a zero
// fraction), but every integer of report.json is an int64 count or ns time that nlohmann writes as digits:
// a 1.0 there means a double was written where docs/report.md promises an exact integer (a writer bug the
// tests must catch, or a file gpueff did not write), and an integral double cannot be trusted to be exact
// (above 2^53 it was rounded) nor to fit (1e300, 2^63 would wrap on the int64 read compare makes).
bool isInt64(const json& v) {
    if (v.is_number_unsigned()) return v.get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX);
    return v.is_number_integer();
}

bool hasType(const std::string& type, const json& v) {
    if (type == "null") return v.is_null();
    if (type == "boolean") return v.is_boolean();
    if (type == "object") return v.is_object();
    if (type == "array") return v.is_array();
    if (type == "string") return v.is_string();
    if (type == "number") return v.is_number() && std::isfinite(v.get<double>());
    if (type == "integer") return isInt64(v);
    throw Error("JSON schema: unknown type " + type);
}

const std::set<std::string>& knownKeywords() {
    static const std::set<std::string> known = {"$schema",
                                                "$id",
                                                "$defs",
                                                "title",
                                                "description",
                                                "$ref",
                                                "type",
                                                "required",
                                                "properties",
                                                "patternProperties",
                                                "additionalProperties",
                                                "items",
                                                "minItems",
                                                "enum",
                                                "const",
                                                "minimum",
                                                "maximum",
                                                "pattern",
                                                "allOf",
                                                "anyOf",
                                                "oneOf"};
    return known;
}

std::string brief(const json& v) {
    if (v.is_object()) return "an object";
    if (v.is_array()) return "an array";
    std::string d = v.dump(-1, ' ', false, json::error_handler_t::replace);
    return d.size() > 60 ? d.substr(0, 57) + "..." : d;
}

std::vector<std::string> typesOf(const json& s) {
    std::vector<std::string> types;
    if (!s.contains("type")) return types;
    if (s["type"].is_string())
        types.push_back(s["type"].get<std::string>());
    else
        for (const auto& t : s["type"]) types.push_back(t.get<std::string>());
    return types;
}

} // namespace

std::string describeViolation(const SchemaViolation& v) {
    return v.path.empty() ? v.what : v.path + ": " + v.what;
}

JsonSchema::JsonSchema(json schema, std::string name) : root_(std::move(schema)), name_(std::move(name)) {
    load(root_, "#");
}

// Walks every subschema once: each keyword known, each $ref resolvable, each pattern compiled, so that a
// schema error surfaces when the schema is loaded and not only for the documents that reach that branch.
void JsonSchema::load(const json& s, const std::string& where) {
    if (s.is_boolean()) return;
    if (!s.is_object()) throw Error(name_ + ": " + where + ": a schema must be an object or a boolean");
    for (const auto& [key, value] : s.items())
        if (!knownKeywords().count(key))
            throw Error(name_ + ": " + where + ": unsupported schema keyword \"" + key + "\"");
    static const std::set<std::string> types = {"null",   "boolean", "object", "array",
                                                "string", "number",  "integer"};
    for (const auto& t : typesOf(s))
        if (!types.count(t)) throw Error(name_ + ": " + where + ": unknown type \"" + t + "\"");
    if (s.contains("$ref")) resolve(s["$ref"].get<std::string>());
    auto compile = [&](const std::string& pattern) {
        try {
            regexes_.emplace(pattern, std::regex(pattern));
        } catch (const std::regex_error& e) {
            throw Error(name_ + ": " + where + ": pattern " + pattern + " does not compile: " + e.what());
        }
    };
    if (s.contains("pattern")) compile(s["pattern"].get<std::string>());
    for (const char* kw : {"properties", "patternProperties", "$defs"})
        if (s.contains(kw))
            for (const auto& [key, sub] : s[kw].items()) {
                if (std::string(kw) == "patternProperties") compile(key);
                load(sub, where + "/" + kw + "/" + key);
            }
    for (const char* kw : {"additionalProperties", "items"})
        if (s.contains(kw)) load(s[kw], where + "/" + kw);
    for (const char* kw : {"allOf", "anyOf", "oneOf"})
        if (s.contains(kw))
            for (std::size_t i = 0; i < s[kw].size(); ++i)
                load(s[kw][i], where + "/" + kw + "/" + std::to_string(i));
}

const json& JsonSchema::resolve(const std::string& ref) const {
    if (ref.rfind("#/", 0) != 0) throw Error(name_ + ": unsupported $ref (only local ones): " + ref);
    json::json_pointer p(ref.substr(1));
    if (!root_.contains(p)) throw Error(name_ + ": unresolved $ref: " + ref);
    return root_.at(p);
}

bool JsonSchema::matches(const std::string& pattern, const std::string& subject) const {
    return subject.size() <= kMaxPatternSubject && std::regex_search(subject, regexes_.at(pattern));
}

std::optional<SchemaViolation> JsonSchema::firstViolation(const json& doc) const {
    return check(root_, doc, "");
}

std::optional<SchemaViolation> JsonSchema::check(const json& s, const json& v, const std::string& at) const {
    if (s.is_boolean()) {
        if (!s.get<bool>()) return SchemaViolation{at, "not allowed here"};
        return std::nullopt;
    }
    if (s.contains("$ref"))
        if (auto bad = check(resolve(s["$ref"].get<std::string>()), v, at)) return bad;
    if (!leafMatches(s, v)) return SchemaViolation{at, "must be " + describe(s) + ", got " + brief(v)};
    if (v.is_array())
        if (auto bad = checkArray(s, v, at)) return bad;
    if (v.is_object())
        if (auto bad = checkObject(s, v, at)) return bad;
    return checkCombinators(s, v, at);
}

// type, enum, const, minimum, maximum, pattern: the checks on the value itself.
bool JsonSchema::leafMatches(const json& s, const json& v) const {
    if (s.contains("type")) {
        bool ok = false;
        for (const auto& t : typesOf(s)) ok = ok || hasType(t, v);
        if (!ok) return false;
    }
    if (s.contains("enum")) {
        bool ok = false;
        for (const auto& e : s["enum"]) ok = ok || e == v;
        if (!ok) return false;
    }
    if (s.contains("const") && !(s["const"] == v)) return false;
    if (v.is_number()) {
        double d = v.get<double>();
        if (s.contains("minimum") && !(d >= s["minimum"].get<double>())) return false;
        if (s.contains("maximum") && !(d <= s["maximum"].get<double>())) return false;
    }
    if (v.is_string() && s.contains("pattern") &&
        !matches(s["pattern"].get<std::string>(), v.get<std::string>()))
        return false;
    return true;
}

// What a value must be, in words: "a number in [0, 1]", "null or a number in [0, 1]",
// "an integer in [0, 9223372036854775807]", "a string matching ^...$", "one of [...]".
std::string JsonSchema::describe(const json& s) const {
    const json* at = &s;
    while (!at->contains("type") && !at->contains("enum") && !at->contains("const") && at->contains("$ref"))
        at = &resolve((*at)["$ref"].get<std::string>());
    const json& d = *at;
    if (d.contains("const")) return d["const"].dump();
    if (d.contains("enum")) return "one of " + d["enum"].dump();
    auto types = typesOf(d);
    // minimum/maximum apply to numbers only, pattern to strings only: only such a value can break them.
    if (types.empty() && (d.contains("minimum") || d.contains("maximum"))) types.push_back("number");
    if (types.empty() && d.contains("pattern")) types.push_back("string");
    std::string out;
    for (const auto& t : types) {
        if (!out.empty()) out += " or ";
        if (t == "null") {
            out += "null";
        } else if (t == "integer") {
            out += "an integer in [" +
                   (d.contains("minimum") ? d["minimum"].dump() : std::string("-9223372036854775808")) +
                   ", " + (d.contains("maximum") ? d["maximum"].dump() : std::string("9223372036854775807")) +
                   "]";
        } else if (t == "number") {
            if (d.contains("minimum") && d.contains("maximum"))
                out += "a number in [" + d["minimum"].dump() + ", " + d["maximum"].dump() + "]";
            else if (d.contains("minimum"))
                out += "a number >= " + d["minimum"].dump();
            else if (d.contains("maximum"))
                out += "a number <= " + d["maximum"].dump();
            else
                out += "a number";
        } else if (t == "string") {
            out += "a string";
            if (d.contains("pattern"))
                out += " matching " + d["pattern"].get<std::string>() + " (at most " +
                       std::to_string(kMaxPatternSubject) + " characters)";
        } else {
            out += (t == "object" || t == "array" ? "an " : "a ") + t;
        }
    }
    return out.empty() ? "something else" : out;
}

std::optional<SchemaViolation> JsonSchema::checkArray(const json& s, const json& v,
                                                      const std::string& at) const {
    if (s.contains("minItems") && v.size() < s["minItems"].get<std::size_t>())
        return SchemaViolation{at, "must have at least " + s["minItems"].dump() + " items, got " +
                                       std::to_string(v.size())};
    if (s.contains("items"))
        for (std::size_t i = 0; i < v.size(); ++i)
            if (auto bad = check(s["items"], v[i], at + "[" + std::to_string(i) + "]")) return bad;
    return std::nullopt;
}

std::optional<SchemaViolation> JsonSchema::checkObject(const json& s, const json& v,
                                                       const std::string& at) const {
    auto child = [&](const std::string& key) { return at.empty() ? key : at + "." + key; };
    if (s.contains("required"))
        for (const auto& k : s["required"])
            if (!v.contains(k.get<std::string>()))
                return SchemaViolation{child(k.get<std::string>()), "missing (a required key)"};
    for (const auto& [key, value] : v.items()) {
        bool matched = false;
        if (s.contains("properties") && s["properties"].contains(key)) {
            matched = true;
            if (auto bad = check(s["properties"][key], value, child(key))) return bad;
        }
        if (s.contains("patternProperties"))
            for (const auto& [pattern, sub] : s["patternProperties"].items())
                if (matches(pattern, key)) {
                    matched = true;
                    if (auto bad = check(sub, value, child(key))) return bad;
                }
        if (!matched && s.contains("additionalProperties")) {
            const json& extra = s["additionalProperties"];
            if (extra.is_boolean() && !extra.get<bool>())
                return SchemaViolation{child(key), "unexpected key (not in " + name_ + ")"};
            if (auto bad = check(extra, value, child(key))) return bad;
        }
    }
    return std::nullopt;
}

// anyOf/oneOf: when no branch fits, the violation reported is the one found deepest in the document,
// which belongs to the branch the document was evidently written for.
std::optional<SchemaViolation> JsonSchema::checkCombinators(const json& s, const json& v,
                                                            const std::string& at) const {
    if (s.contains("allOf"))
        for (const auto& sub : s["allOf"])
            if (auto bad = check(sub, v, at)) return bad;
    for (const char* kw : {"anyOf", "oneOf"}) {
        if (!s.contains(kw)) continue;
        std::size_t passed = 0;
        std::optional<SchemaViolation> deepest;
        for (const auto& sub : s[kw]) {
            auto bad = check(sub, v, at);
            if (!bad)
                ++passed;
            else if (!deepest || bad->path.size() > deepest->path.size())
                deepest = bad;
        }
        if (passed == 0) return deepest;
        if (std::string(kw) == "oneOf" && passed > 1)
            return SchemaViolation{at, "fits more than one of the forms " + name_ + " allows"};
    }
    return std::nullopt;
}

} // namespace gpueff::reports
