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

enum class Type { Null, Boolean, Object, Array, String, Number, Integer };

Type typeCode(const std::string& t) {
    static const std::map<std::string, Type> codes = {{"null", Type::Null},      {"boolean", Type::Boolean},
                                                      {"object", Type::Object},  {"array", Type::Array},
                                                      {"string", Type::String},  {"number", Type::Number},
                                                      {"integer", Type::Integer}};
    auto it = codes.find(t);
    if (it == codes.end()) throw Error("JSON schema: unknown type " + t);
    return it->second;
}

bool hasType(Type type, const json& v) {
    switch (type) {
    case Type::Null:
        return v.is_null();
    case Type::Boolean:
        return v.is_boolean();
    case Type::Object:
        return v.is_object();
    case Type::Array:
        return v.is_array();
    case Type::String:
        return v.is_string();
    case Type::Number:
        return v.is_number() && std::isfinite(v.get<double>());
    case Type::Integer:
        return isInt64(v);
    }
    return false;
}

// A keyword's value in `s`, or nullptr.
const json* keyword(const json& s, const char* name) {
    auto it = s.find(name);
    return it == s.end() ? nullptr : &*it;
}

} // namespace

struct JsonSchema::Compiled {
    const json* ref = nullptr; // the resolved target of $ref
    std::vector<Type> types;   // empty: any
    const json *enumValues = nullptr, *constValue = nullptr, *required = nullptr, *properties = nullptr,
               *additional = nullptr, *items = nullptr, *allOf = nullptr, *anyOf = nullptr, *oneOf = nullptr;
    std::optional<double> minimum, maximum;
    std::optional<std::size_t> minItems;
    const std::regex* pattern = nullptr;
    std::vector<std::pair<const std::regex*, const json*>> patternProperties;
};

struct JsonSchema::Path {
    const Path* parent;
    const std::string* key; // an object's key, or nullptr for an array's index
    std::size_t index;

    // "a.b[2].c": the form SchemaViolation::path has always had.
    static std::string text(const Path* p) {
        if (!p) return "";
        std::string head = text(p->parent);
        if (!p->key) return head + "[" + std::to_string(p->index) + "]";
        return head.empty() ? *p->key : head + "." + *p->key;
    }
};

std::string describeViolation(const SchemaViolation& v) {
    return v.path.empty() ? v.what : v.path + ": " + v.what;
}

JsonSchema::JsonSchema(json schema, std::string name) : root_(std::move(schema)), name_(std::move(name)) {
    load(root_, "#");
    compile(root_);
}

JsonSchema::~JsonSchema() = default;

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
    auto compilePattern = [&](const std::string& pattern) {
        try {
            regexes_.emplace(pattern, std::regex(pattern));
        } catch (const std::regex_error& e) {
            throw Error(name_ + ": " + where + ": pattern " + pattern + " does not compile: " + e.what());
        }
    };
    if (s.contains("pattern")) compilePattern(s["pattern"].get<std::string>());
    for (const char* kw : {"properties", "patternProperties", "$defs"})
        if (s.contains(kw))
            for (const auto& [key, sub] : s[kw].items()) {
                if (std::string(kw) == "patternProperties") compilePattern(key);
                load(sub, where + "/" + kw + "/" + key);
            }
    for (const char* kw : {"additionalProperties", "items"})
        if (s.contains(kw)) load(s[kw], where + "/" + kw);
    for (const char* kw : {"allOf", "anyOf", "oneOf"})
        if (s.contains(kw))
            for (std::size_t i = 0; i < s[kw].size(); ++i)
                load(s[kw][i], where + "/" + kw + "/" + std::to_string(i));
}

// Every subschema object reachable from `s` (loaded, so every keyword is known and every $ref resolves),
// with its keywords looked up once.
void JsonSchema::compile(const json& s) {
    if (!s.is_object() || compiled_.count(&s)) return;
    auto c = std::make_unique<Compiled>();
    Compiled& k = *c;
    compiled_.emplace(&s, std::move(c));
    if (auto* r = keyword(s, "$ref")) k.ref = &resolve(r->get<std::string>());
    for (const auto& t : typesOf(s)) k.types.push_back(typeCode(t));
    k.enumValues = keyword(s, "enum");
    k.constValue = keyword(s, "const");
    k.required = keyword(s, "required");
    k.properties = keyword(s, "properties");
    k.additional = keyword(s, "additionalProperties");
    k.items = keyword(s, "items");
    k.allOf = keyword(s, "allOf");
    k.anyOf = keyword(s, "anyOf");
    k.oneOf = keyword(s, "oneOf");
    if (auto* m = keyword(s, "minimum")) k.minimum = m->get<double>();
    if (auto* m = keyword(s, "maximum")) k.maximum = m->get<double>();
    if (auto* m = keyword(s, "minItems")) k.minItems = m->get<std::size_t>();
    if (auto* p = keyword(s, "pattern")) k.pattern = &regexes_.at(p->get<std::string>());
    if (auto* pp = keyword(s, "patternProperties"))
        for (const auto& [pattern, sub] : pp->items())
            k.patternProperties.emplace_back(&regexes_.at(pattern), &sub);
    if (k.ref) compile(*k.ref);
    for (const json* group : {k.properties, keyword(s, "patternProperties"), keyword(s, "$defs")})
        if (group)
            for (const auto& [key, sub] : group->items()) compile(sub);
    for (const json* sub : {k.additional, k.items})
        if (sub) compile(*sub);
    for (const json* list : {k.allOf, k.anyOf, k.oneOf})
        if (list)
            for (const auto& sub : *list) compile(sub);
}

const json& JsonSchema::resolve(const std::string& ref) const {
    if (ref.rfind("#/", 0) != 0) throw Error(name_ + ": unsupported $ref (only local ones): " + ref);
    json::json_pointer p(ref.substr(1));
    if (!root_.contains(p)) throw Error(name_ + ": unresolved $ref: " + ref);
    return root_.at(p);
}

bool JsonSchema::matches(const std::regex& pattern, const std::string& subject) const {
    return subject.size() <= kMaxPatternSubject && std::regex_search(subject, pattern);
}

std::optional<SchemaViolation> JsonSchema::firstViolation(const json& doc) const {
    return check(root_, doc, nullptr);
}

std::optional<SchemaViolation> JsonSchema::check(const json& s, const json& v, const Path* at) const {
    if (s.is_boolean()) {
        if (!s.get<bool>()) return SchemaViolation{Path::text(at), "not allowed here"};
        return std::nullopt;
    }
    const Compiled& c = *compiled_.at(&s);
    if (c.ref)
        if (auto bad = check(*c.ref, v, at)) return bad;
    if (!leafMatches(c, v))
        return SchemaViolation{Path::text(at), "must be " + describe(s) + ", got " + brief(v)};
    if (v.is_array())
        if (auto bad = checkArray(c, v, at)) return bad;
    if (v.is_object())
        if (auto bad = checkObject(c, v, at)) return bad;
    return checkCombinators(c, v, at);
}

// type, enum, const, minimum, maximum, pattern: the checks on the value itself.
bool JsonSchema::leafMatches(const Compiled& c, const json& v) const {
    if (!c.types.empty()) {
        bool ok = false;
        for (auto t : c.types) ok = ok || hasType(t, v);
        if (!ok) return false;
    }
    if (c.enumValues) {
        bool ok = false;
        for (const auto& e : *c.enumValues) ok = ok || e == v;
        if (!ok) return false;
    }
    if (c.constValue && !(*c.constValue == v)) return false;
    if (v.is_number()) {
        double d = v.get<double>();
        if (c.minimum && !(d >= *c.minimum)) return false;
        if (c.maximum && !(d <= *c.maximum)) return false;
    }
    if (v.is_string() && c.pattern && !matches(*c.pattern, v.get_ref<const std::string&>())) return false;
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

std::optional<SchemaViolation> JsonSchema::checkArray(const Compiled& c, const json& v,
                                                      const Path* at) const {
    if (c.minItems && v.size() < *c.minItems)
        return SchemaViolation{Path::text(at), "must have at least " + std::to_string(*c.minItems) +
                                                   " items, got " + std::to_string(v.size())};
    if (c.items)
        for (std::size_t i = 0; i < v.size(); ++i) {
            Path item{at, nullptr, i};
            if (auto bad = check(*c.items, v[i], &item)) return bad;
        }
    return std::nullopt;
}

std::optional<SchemaViolation> JsonSchema::checkObject(const Compiled& c, const json& v,
                                                       const Path* at) const {
    if (c.required)
        for (const auto& k : *c.required)
            if (!v.contains(k.get_ref<const std::string&>())) {
                Path missing{at, &k.get_ref<const std::string&>(), 0};
                return SchemaViolation{Path::text(&missing), "missing (a required key)"};
            }
    for (auto it = v.begin(); it != v.end(); ++it) {
        const std::string& key = it.key();
        Path child{at, &key, 0};
        bool matched = false;
        if (c.properties)
            if (auto p = c.properties->find(key); p != c.properties->end()) {
                matched = true;
                if (auto bad = check(*p, it.value(), &child)) return bad;
            }
        for (const auto& [pattern, sub] : c.patternProperties)
            if (matches(*pattern, key)) {
                matched = true;
                if (auto bad = check(*sub, it.value(), &child)) return bad;
            }
        if (!matched && c.additional) {
            if (c.additional->is_boolean() && !c.additional->get<bool>())
                return SchemaViolation{Path::text(&child), "unexpected key (not in " + name_ + ")"};
            if (auto bad = check(*c.additional, it.value(), &child)) return bad;
        }
    }
    return std::nullopt;
}

// anyOf/oneOf: when no branch fits, the violation reported is the one found deepest in the document,
// which belongs to the branch the document was evidently written for.
std::optional<SchemaViolation> JsonSchema::checkCombinators(const Compiled& c, const json& v,
                                                            const Path* at) const {
    if (c.allOf)
        for (const auto& sub : *c.allOf)
            if (auto bad = check(sub, v, at)) return bad;
    for (const json* list : {c.anyOf, c.oneOf}) {
        if (!list) continue;
        std::size_t passed = 0;
        std::optional<SchemaViolation> deepest;
        for (const auto& sub : *list) {
            auto bad = check(sub, v, at);
            if (!bad)
                ++passed;
            else if (!deepest || bad->path.size() > deepest->path.size())
                deepest = bad;
        }
        if (passed == 0) return deepest;
        if (list == c.oneOf && passed > 1)
            return SchemaViolation{Path::text(at), "fits more than one of the forms " + name_ + " allows"};
    }
    return std::nullopt;
}

} // namespace gpueff::reports
