// The report model and its schema are one declaration (reports/model/Schema.h): docs/report.schema.json is
// the text assembled from the families' fragments, and every fragment agrees with the fields lists of the
// structs it describes: the same keys, required exactly where the member is not Omitted, nullable exactly
// where it is a std::optional, and of the JSON kind of its C++ type. The walk below reads the schema on its
// own terms
// ($ref, oneOf, allOf) and the model through fields(), so neither is derived from the other.
#include "reports/model/Report.h"
#include "reports/model/Schema.h"
#include "tests/TestSupport.h"

#include <doctest/doctest.h>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace gpueff::reports::model;
using nlohmann::json;
using testsupport::sourceDir;

namespace {

template <class T>
struct OptionalOf : std::false_type {};
template <class T>
struct OptionalOf<std::optional<T>> : std::true_type {
    using type = T;
};
template <class T>
struct OmittedOf : std::false_type {};
template <class T>
struct OmittedOf<Omitted<T>> : std::true_type {
    using type = T;
};
template <class T>
struct VectorOf : std::false_type {};
template <class T>
struct VectorOf<std::vector<T>> : std::true_type {
    using type = T;
};
template <class T>
struct MapOf : std::false_type {};
template <class K, class T>
struct MapOf<std::map<K, T>> : std::true_type {
    using type = T;
};

class Agreement {
public:
    explicit Agreement(json schema) : root_(std::move(schema)) {}

    template <class T>
    void check(const json& node, const std::string& path) {
        auto alternatives = branches(node);
        bool nullable = false;
        std::vector<const json*> values;
        for (const json* b : alternatives) {
            auto t = types(*b);
            if (t.count("null")) nullable = true;
            if (!(t.size() == 1 && t.count("null"))) values.push_back(b);
        }
        if constexpr (OptionalOf<T>::value) {
            if (!nullable) problem(path, "a std::optional in the model, but the schema does not allow null");
            return value<typename OptionalOf<T>::type>(values, path);
        } else {
            if (nullable && !std::is_same_v<T, json>)
                problem(path, "the schema allows null, but the model's member is not a std::optional");
            return value<T>(values, path);
        }
    }

    const std::vector<std::string>& problems() const { return problems_; }

private:
    json root_;
    std::vector<std::string> problems_;

    void problem(const std::string& path, const std::string& what) {
        problems_.push_back((path.empty() ? "(top level)" : path) + ": " + what);
    }

    const json& resolve(const json& node) const {
        const json* n = &node;
        while (n->is_object() && n->contains("$ref")) {
            std::string ref = (*n)["$ref"];
            REQUIRE(ref.rfind("#/$defs/", 0) == 0);
            n = &root_["$defs"].at(ref.substr(8));
        }
        return *n;
    }

    // The alternatives a value may take: oneOf/anyOf branches (resolved), else the node itself.
    std::vector<const json*> branches(const json& node) const {
        const json& n = resolve(node);
        if (!n.contains("oneOf")) return {&n};
        std::vector<const json*> out;
        for (const auto& b : n["oneOf"])
            for (const json* x : branches(b)) out.push_back(x);
        return out;
    }

    std::set<std::string> types(const json& n) const {
        std::set<std::string> out;
        auto kind = [](const json& v) -> std::string {
            if (v.is_null()) return "null";
            if (v.is_boolean()) return "boolean";
            if (v.is_number_integer()) return "integer";
            if (v.is_number()) return "number";
            if (v.is_string()) return "string";
            return v.is_array() ? "array" : "object";
        };
        if (n.contains("type")) {
            if (n["type"].is_string())
                out.insert(n["type"].get<std::string>());
            else
                for (const auto& t : n["type"]) out.insert(t.get<std::string>());
        } else if (n.contains("const")) {
            out.insert(kind(n["const"]));
        } else if (n.contains("enum")) {
            for (const auto& v : n["enum"]) out.insert(kind(v));
        } else if (n.contains("allOf")) {
            for (const auto& part : n["allOf"])
                for (const auto& t : types(resolve(part))) out.insert(t);
        }
        return out;
    }

    void kinds(const std::vector<const json*>& values, const std::string& path, std::set<std::string> allowed,
               const char* cpp) {
        for (const json* b : values)
            for (const auto& t : types(*b))
                if (t != "null" && !allowed.count(t))
                    problem(path, std::string(cpp) + " in the model, \"" + t + "\" in the schema");
    }

    template <class T>
    void value(const std::vector<const json*>& values, const std::string& path) {
        if constexpr (std::is_same_v<T, json>) {
            return;
        } else if constexpr (std::is_same_v<T, bool>) {
            kinds(values, path, {"boolean"}, "bool");
        } else if constexpr (std::is_integral_v<T>) {
            kinds(values, path, {"integer"}, "integer");
        } else if constexpr (std::is_floating_point_v<T>) {
            kinds(values, path, {"number", "integer"}, "double");
        } else if constexpr (std::is_same_v<T, std::string>) {
            kinds(values, path, {"string"}, "string");
        } else if constexpr (VectorOf<T>::value) {
            kinds(values, path, {"array"}, "std::vector");
            for (const json* b : values)
                if (b->contains("items"))
                    check<typename VectorOf<T>::type>((*b)["items"], path + "[]");
                else
                    problem(path, "an array without items in the schema");
        } else if constexpr (MapOf<T>::value) {
            kinds(values, path, {"object"}, "std::map");
            for (const json* b : values) {
                if (b->contains("additionalProperties") && (*b)["additionalProperties"].is_object())
                    check<typename MapOf<T>::type>((*b)["additionalProperties"], path + ".*");
                else if (b->contains("patternProperties"))
                    for (const auto& [pattern, item] : (*b)["patternProperties"].items())
                        check<typename MapOf<T>::type>(item, path + "." + pattern);
                else
                    problem(path, "a std::map in the model, an object without a schema for its values");
            }
        } else {
            static_assert(Described<T>, "a kind of member the report model does not use");
            kinds(values, path, {"object"}, "struct");
            object<T>(values, path);
        }
    }

    // A struct: its keys are those of every object branch together; a key is required where every branch
    // requires it.
    template <class T>
    void object(const std::vector<const json*>& values, const std::string& path) {
        std::map<std::string, std::vector<json>> schemas;
        std::map<std::string, std::size_t> required;
        for (const json* b : values) {
            std::vector<const json*> parts = {b};
            if (b->contains("allOf"))
                for (const auto& p : (*b)["allOf"]) parts.push_back(&resolve(p));
            std::set<std::string> requiredHere;
            for (const json* p : parts) {
                if (p->contains("properties"))
                    for (const auto& [key, s] : (*p)["properties"].items()) schemas[key].push_back(s);
                if (p->contains("required"))
                    for (const auto& key : (*p)["required"]) requiredHere.insert(key.get<std::string>());
            }
            for (const auto& key : requiredHere) ++required[key];
        }
        std::set<std::string> seen;
        T sample{};
        T::fields(sample, [&]<class V>(const char* key, V&) {
            std::string at = path.empty() ? key : path + "." + key;
            seen.insert(key);
            auto s = schemas.find(key);
            if (s == schemas.end()) return problem(at, "in the model but not in the schema");
            bool schemaRequires = required[key] == values.size();
            if (OmittedOf<V>::value == schemaRequires)
                problem(at, OmittedOf<V>::value
                                ? "Omitted in the model, but the schema requires it"
                                : "required in the model (not Omitted), but not by the schema");
            // A key several object branches define (tensor_core's available and not) may take any of them.
            json node = s->second.size() == 1 ? s->second.front() : json{{"oneOf", s->second}};
            if constexpr (OmittedOf<V>::value)
                check<typename OmittedOf<V>::type>(node, at);
            else
                check<V>(node, at);
        });
        for (const auto& [key, s] : schemas)
            if (!seen.count(key))
                problem(path.empty() ? key : path + "." + key, "in the schema but not in the model");
    }
};

// A struct of three members, for schemas that each get one of them wrong.
struct Probe {
    std::int64_t count = 0;
    std::optional<double> share;
    Omitted<std::string> note;
    static void fields(auto& s, auto&& f) {
        f("count", s.count);
        f("share", s.share);
        f("note", s.note);
    }
};

std::string readFile(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST_CASE("docs/report.schema.json is the schema the report model's families declare") {
    std::string assembled = reportSchemaText();
    std::string docs = readFile(sourceDir() / "docs" / "report.schema.json");
    if (docs != assembled) {
        std::ofstream(std::filesystem::current_path() / "report.schema.json", std::ios::binary) << assembled;
        FAIL("docs/report.schema.json is not the text assembled from reports/model's fragments: the new text "
             "is in "
             << (std::filesystem::current_path() / "report.schema.json").string()
             << "; copy it to docs/report.schema.json after checking the difference");
    }
}

TEST_CASE("every family's schema fragment agrees with its structs' fields lists") {
    Agreement agreement(json::parse(reportSchemaText()));
    agreement.check<Report>(json::parse(reportSchemaText()), "");
    for (const auto& p : agreement.problems()) FAIL_CHECK(p);
    CHECK(agreement.problems().empty());
}

TEST_CASE("the agreement walk finds a key the model lacks, a missing null and a required Omitted") {
    auto problems = [](const char* text) {
        Agreement a(json::parse(text));
        a.check<Probe>(json::parse(text), "");
        return a.problems();
    };
    CHECK(problems(R"({"type": "object", "required": ["count", "share"], "properties": {
        "count": {"type": "integer"}, "share": {"type": ["number", "null"]}, "note": {"type": "string"}}})")
              .empty());
    auto extra = problems(R"({"type": "object", "required": ["count", "share"], "properties": {
        "count": {"type": "integer"}, "share": {"type": ["number", "null"]}, "note": {"type": "string"},
        "spare": {"type": "string"}}})");
    REQUIRE(extra.size() == 1);
    CHECK(extra[0] == "spare: in the schema but not in the model");
    auto notNull = problems(R"({"type": "object", "required": ["count", "share"], "properties": {
        "count": {"type": "integer"}, "share": {"type": "number"}, "note": {"type": "string"}}})");
    REQUIRE(notNull.size() == 1);
    CHECK(notNull[0] == "share: a std::optional in the model, but the schema does not allow null");
    auto required = problems(R"({"type": "object", "required": ["count", "share", "note"], "properties": {
        "count": {"type": "number"}, "share": {"type": ["number", "null"]}, "note": {"type": "string"}}})");
    REQUIRE(required.size() == 2);
    CHECK(required[0] == "count: integer in the model, \"number\" in the schema");
    CHECK(required[1] == "note: Omitted in the model, but the schema requires it");
}
