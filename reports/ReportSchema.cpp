#include "reports/ReportSchema.h"

#include "engine/common/Error.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <regex>

namespace gpueff::reports {

namespace {

using nlohmann::json;

constexpr double kTwo63 = 9223372036854775808.0;
// std::regex matches recursively (libstdc++), so a huge string could exhaust the stack; no string a pattern
// applies to (device ids, histogram keys) is anywhere near this long in a real report.
constexpr std::size_t kMaxPatternSubject = 4096;

struct Violation {
    std::string path, what;
};

// A JSON number that is an integer and fits in int64 (a float like 1e300 or 1.5 is not).
bool isInt64(const json& v) {
    if (v.is_number_unsigned()) return v.get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX);
    if (v.is_number_integer()) return true;
    if (!v.is_number_float()) return false;
    double d = v.get<double>();
    return std::isfinite(d) && std::floor(d) == d && d >= -kTwo63 && d < kTwo63;
}

bool hasType(const std::string& type, const json& v) {
    if (type == "null") return v.is_null();
    if (type == "boolean") return v.is_boolean();
    if (type == "object") return v.is_object();
    if (type == "array") return v.is_array();
    if (type == "string") return v.is_string();
    if (type == "number") return v.is_number() && std::isfinite(v.get<double>());
    if (type == "integer") return isInt64(v);
    throw Error("report schema: unknown type " + type);
}

std::string brief(const json& v) {
    if (v.is_object()) return "an object";
    if (v.is_array()) return "an array";
    std::string d = v.dump(-1, ' ', false, json::error_handler_t::replace);
    return d.size() > 60 ? d.substr(0, 57) + "..." : d;
}

std::string number(const json& n) {
    return n.dump();
}

class Validator {
public:
    explicit Validator(const json& root) : root_(root) {}

    std::optional<Violation> check(const json& s, const json& v, const std::string& at) {
        if (s.is_boolean()) {
            if (!s.get<bool>()) return Violation{at, "not allowed here"};
            return std::nullopt;
        }
        if (s.contains("$ref"))
            if (auto bad = check(resolve(s["$ref"].get<std::string>()), v, at)) return bad;
        if (!leafMatches(s, v)) return Violation{at, "must be " + describe(s) + ", got " + brief(v)};
        if (v.is_array())
            if (auto bad = checkArray(s, v, at)) return bad;
        if (v.is_object())
            if (auto bad = checkObject(s, v, at)) return bad;
        return checkCombinators(s, v, at);
    }

private:
    const json& root_;
    std::map<std::string, std::regex> regexes_;

    const json& resolve(const std::string& ref) const {
        json::json_pointer p(ref.substr(1));
        return root_.at(p);
    }

    const std::regex& regex(const std::string& pattern) {
        auto it = regexes_.find(pattern);
        if (it == regexes_.end()) it = regexes_.emplace(pattern, std::regex(pattern)).first;
        return it->second;
    }

    bool matches(const std::string& pattern, const std::string& subject) {
        return subject.size() <= kMaxPatternSubject && std::regex_search(subject, regex(pattern));
    }

    // type, enum, const, minimum, maximum, pattern: the checks on the value itself.
    bool leafMatches(const json& s, const json& v) {
        if (s.contains("type")) {
            const json& t = s["type"];
            bool ok = false;
            if (t.is_string())
                ok = hasType(t.get<std::string>(), v);
            else
                for (const auto& alt : t) ok = ok || hasType(alt.get<std::string>(), v);
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
    std::string describe(const json& s) const {
        const json* at = &s;
        while (!at->contains("type") && !at->contains("enum") && !at->contains("const") &&
               at->contains("$ref"))
            at = &resolve((*at)["$ref"].get<std::string>());
        const json& d = *at;
        if (d.contains("const")) return d["const"].dump();
        if (d.contains("enum")) return "one of " + d["enum"].dump();
        std::vector<std::string> types;
        if (d.contains("type")) {
            if (d["type"].is_string())
                types.push_back(d["type"].get<std::string>());
            else
                for (const auto& t : d["type"]) types.push_back(t.get<std::string>());
        }
        std::string out;
        for (const auto& t : types) {
            if (!out.empty()) out += " or ";
            if (t == "null") {
                out += "null";
            } else if (t == "integer") {
                out += "an integer in [" +
                       (d.contains("minimum") ? number(d["minimum"]) : std::string("-9223372036854775808")) +
                       ", " +
                       (d.contains("maximum") ? number(d["maximum"]) : std::string("9223372036854775807")) +
                       "]";
            } else if (t == "number") {
                if (d.contains("minimum") && d.contains("maximum"))
                    out += "a number in [" + number(d["minimum"]) + ", " + number(d["maximum"]) + "]";
                else if (d.contains("minimum"))
                    out += "a number >= " + number(d["minimum"]);
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

    std::optional<Violation> checkArray(const json& s, const json& v, const std::string& at) {
        if (s.contains("minItems") && v.size() < s["minItems"].get<std::size_t>())
            return Violation{at, "must have at least " + s["minItems"].dump() + " items, got " +
                                     std::to_string(v.size())};
        if (s.contains("items"))
            for (std::size_t i = 0; i < v.size(); ++i)
                if (auto bad = check(s["items"], v[i], at + "[" + std::to_string(i) + "]")) return bad;
        return std::nullopt;
    }

    std::optional<Violation> checkObject(const json& s, const json& v, const std::string& at) {
        auto child = [&](const std::string& key) { return at.empty() ? key : at + "." + key; };
        if (s.contains("required"))
            for (const auto& k : s["required"])
                if (!v.contains(k.get<std::string>()))
                    return Violation{child(k.get<std::string>()), "missing (a required key)"};
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
                    return Violation{child(key), "unexpected key (not in docs/report.schema.json)"};
                if (auto bad = check(extra, value, child(key))) return bad;
            }
        }
        return std::nullopt;
    }

    // anyOf/oneOf: when no branch fits, the violation reported is the one found deepest in the document,
    // which belongs to the branch the report was evidently written for.
    std::optional<Violation> checkCombinators(const json& s, const json& v, const std::string& at) {
        if (s.contains("allOf"))
            for (const auto& sub : s["allOf"])
                if (auto bad = check(sub, v, at)) return bad;
        for (const char* kw : {"anyOf", "oneOf"}) {
            if (!s.contains(kw)) continue;
            std::size_t passed = 0;
            std::optional<Violation> deepest;
            for (const auto& sub : s[kw]) {
                auto bad = check(sub, v, at);
                if (!bad)
                    ++passed;
                else if (!deepest || bad->path.size() > deepest->path.size())
                    deepest = bad;
            }
            if (passed == 0) return deepest;
            if (std::string(kw) == "oneOf" && passed > 1)
                return Violation{at, "fits more than one of the forms docs/report.schema.json allows"};
        }
        return std::nullopt;
    }
};

const json& schema() {
    static const json parsed = json::parse(reportSchemaText());
    return parsed;
}

[[noreturn]] void fail(const std::string& label, const Violation& v) {
    throw Error(label + ": " + (v.path.empty() ? "" : v.path + ": ") + v.what);
}

} // namespace

void validateReport(const json& report, const std::string& label) {
    if (!report.is_object())
        throw Error(label + ": not a gpueff report (a JSON object), got " + brief(report));
    if (auto bad = Validator(schema()).check(schema(), report, "")) fail(label, *bad);
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
