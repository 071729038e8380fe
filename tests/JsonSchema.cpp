#include "tests/JsonSchema.h"

#include <cmath>
#include <map>
#include <regex>
#include <set>

namespace testsupport {
namespace {

using nlohmann::json;

std::string escapeToken(const std::string& key) {
    std::string out;
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

bool hasType(const std::string& type, const json& v) {
    if (type == "null") return v.is_null();
    if (type == "boolean") return v.is_boolean();
    if (type == "object") return v.is_object();
    if (type == "array") return v.is_array();
    if (type == "string") return v.is_string();
    if (type == "number") return v.is_number();
    if (type == "integer") {
        // Draft 2020-12: any number with a zero fractional part is an integer (1.0 included).
        if (v.is_number_integer()) return true;
        if (!v.is_number_float()) return false;
        double d = v.get<double>();
        return std::isfinite(d) && std::floor(d) == d;
    }
    throw std::runtime_error("unknown type in schema: " + type);
}

class Validator {
public:
    explicit Validator(const json& root) : root_(root) {}

    void check(const json& s, const json& v, const std::string& at, std::vector<std::string>& errors) {
        if (s.is_boolean()) {
            if (!s.get<bool>()) errors.push_back(at + ": not allowed (schema false)");
            return;
        }
        if (!s.is_object()) {
            errors.push_back(at + ": schema is neither an object nor a boolean");
            return;
        }
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
        for (const auto& [k, _] : s.items())
            if (!known.count(k)) errors.push_back(at + ": unsupported schema keyword \"" + k + "\"");

        if (s.contains("$ref")) check(resolve(s["$ref"].get<std::string>()), v, at, errors);
        if (s.contains("type")) {
            const json& t = s["type"];
            bool ok = false;
            if (t.is_string()) {
                ok = hasType(t.get<std::string>(), v);
            } else {
                for (const auto& alt : t) ok = ok || hasType(alt.get<std::string>(), v);
            }
            if (!ok) errors.push_back(at + ": expected type " + t.dump() + ", got " + brief(v));
        }
        if (s.contains("enum")) {
            bool ok = false;
            for (const auto& e : s["enum"]) ok = ok || e == v;
            if (!ok) errors.push_back(at + ": " + brief(v) + " is not one of " + s["enum"].dump());
        }
        if (s.contains("const") && !(s["const"] == v))
            errors.push_back(at + ": expected " + s["const"].dump() + ", got " + brief(v));
        if (v.is_number()) {
            double d = v.get<double>();
            if (s.contains("minimum") && !(d >= s["minimum"].get<double>()))
                errors.push_back(at + ": " + v.dump() + " is below the minimum " + s["minimum"].dump());
            if (s.contains("maximum") && !(d <= s["maximum"].get<double>()))
                errors.push_back(at + ": " + v.dump() + " is above the maximum " + s["maximum"].dump());
        }
        if (v.is_string() && s.contains("pattern") &&
            !std::regex_search(v.get<std::string>(), regex(s["pattern"].get<std::string>())))
            errors.push_back(at + ": " + v.dump() + " does not match " + s["pattern"].dump());
        if (v.is_array()) checkArray(s, v, at, errors);
        if (v.is_object()) checkObject(s, v, at, errors);
        checkCombinators(s, v, at, errors);
    }

private:
    const json& root_;
    std::map<std::string, std::regex> regexes_; // compiling std::regex is slow; histograms repeat patterns

    const std::regex& regex(const std::string& pattern) {
        auto it = regexes_.find(pattern);
        if (it == regexes_.end()) it = regexes_.emplace(pattern, std::regex(pattern)).first;
        return it->second;
    }

    const json& resolve(const std::string& ref) const {
        if (ref.rfind("#/", 0) != 0) throw std::runtime_error("unsupported $ref (only local ones): " + ref);
        json::json_pointer p(ref.substr(1));
        if (!root_.contains(p)) throw std::runtime_error("unresolved $ref: " + ref);
        return root_.at(p);
    }

    static std::string brief(const json& v) {
        std::string d = v.dump();
        return d.size() > 60 ? d.substr(0, 57) + "..." : d;
    }

    void checkArray(const json& s, const json& v, const std::string& at, std::vector<std::string>& errors) {
        if (s.contains("minItems") && v.size() < s["minItems"].get<std::size_t>())
            errors.push_back(at + ": " + std::to_string(v.size()) + " items, fewer than minItems " +
                             s["minItems"].dump());
        if (s.contains("items"))
            for (std::size_t i = 0; i < v.size(); ++i)
                check(s["items"], v[i], at + "/" + std::to_string(i), errors);
    }

    void checkObject(const json& s, const json& v, const std::string& at, std::vector<std::string>& errors) {
        if (s.contains("required"))
            for (const auto& k : s["required"])
                if (!v.contains(k.get<std::string>()))
                    errors.push_back(at + ": missing required key \"" + k.get<std::string>() + "\"");
        for (const auto& [key, value] : v.items()) {
            std::string here = at + "/" + escapeToken(key);
            bool matched = false;
            if (s.contains("properties") && s["properties"].contains(key)) {
                matched = true;
                check(s["properties"][key], value, here, errors);
            }
            if (s.contains("patternProperties"))
                for (const auto& [pattern, sub] : s["patternProperties"].items())
                    if (std::regex_search(key, regex(pattern))) {
                        matched = true;
                        check(sub, value, here, errors);
                    }
            if (!matched && s.contains("additionalProperties")) {
                const json& extra = s["additionalProperties"];
                if (extra.is_boolean() && !extra.get<bool>())
                    errors.push_back(at + ": unexpected key \"" + key + "\"");
                else
                    check(extra, value, here, errors);
            }
        }
    }

    void checkCombinators(const json& s, const json& v, const std::string& at,
                          std::vector<std::string>& errors) {
        if (s.contains("allOf"))
            for (const auto& sub : s["allOf"]) check(sub, v, at, errors);
        for (const char* kw : {"anyOf", "oneOf"}) {
            if (!s.contains(kw)) continue;
            std::size_t passed = 0;
            std::string why;
            for (std::size_t i = 0; i < s[kw].size(); ++i) {
                std::vector<std::string> branch;
                check(s[kw][i], v, at, branch);
                if (branch.empty())
                    ++passed;
                else
                    why +=
                        " [" + std::to_string(i) + "] " + branch.front() + (branch.size() > 1 ? " ..." : "");
            }
            if (passed == 0) errors.push_back(at + ": matches no branch of " + kw + ":" + why);
            if (std::string(kw) == "oneOf" && passed > 1)
                errors.push_back(at + ": matches " + std::to_string(passed) + " branches of oneOf, not one");
        }
    }
};

} // namespace

std::vector<std::string> validateJson(const nlohmann::json& schema, const nlohmann::json& doc) {
    std::vector<std::string> errors;
    Validator(schema).check(schema, doc, "", errors);
    for (auto& e : errors)
        if (e.front() == ':') e = "(root)" + e; // the root's JSON pointer is the empty string
    return errors;
}

} // namespace testsupport
