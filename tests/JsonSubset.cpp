#include "tests/JsonSubset.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace testsupport {

using nlohmann::json;

namespace {

const std::set<std::string> kMatcherKeys = {"$approx", "$rel", "$abs",      "$length", "$each",
                                            "$items",  "$key", "$contains", "$absent"};

std::string pointerToken(const std::string& key) {
    std::string out;
    for (char c : key) out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    return out;
}

// Short enough for one line of a failure message.
std::string shown(const json& value) {
    auto text = value.dump();
    return text.size() <= 200 ? text : text.substr(0, 197) + "...";
}

bool isMatcher(const json& expected) {
    if (!expected.is_object() || expected.empty()) return false;
    return std::all_of(expected.items().begin(), expected.items().end(),
                       [](const auto& item) { return item.key().rfind('$', 0) == 0; });
}

class Comparison {
public:
    explicit Comparison(NumberTolerance tolerance) : tolerance_(tolerance) {}

    void compare(const json& expected, const json& actual, const std::string& at) {
        if (isMatcher(expected)) return match(expected, actual, at);
        if (expected.is_object()) return compareObject(expected, actual, at);
        if (expected.is_array()) return compareArray(expected, actual, at);
        if (expected.is_number() && actual.is_number())
            return compareNumber(expected, actual, at, tolerance_);
        if (expected != actual) differ(at, "expected " + shown(expected) + ", got " + shown(actual));
    }

    std::vector<std::string> differences;

private:
    NumberTolerance tolerance_;

    void differ(const std::string& at, const std::string& what) {
        differences.push_back((at.empty() ? "/" : at) + ": " + what);
    }

    void compareObject(const json& expected, const json& actual, const std::string& at) {
        if (!actual.is_object()) return differ(at, "expected an object, got " + shown(actual));
        for (const auto& [key, value] : expected.items()) {
            auto here = at + "/" + pointerToken(key);
            bool absentWanted = value.is_object() && value.contains("$absent");
            if (absentWanted) {
                if (value.size() != 1 || value["$absent"] != true)
                    differ(here, "malformed matcher " + shown(value) + " ($absent: true, alone)");
                else if (actual.contains(key))
                    differ(here, "expected no such key, got " + shown(actual[key]));
                continue;
            }
            if (!actual.contains(key)) {
                differ(here, "expected " + shown(value) + ", key missing");
                continue;
            }
            compare(value, actual[key], here);
        }
    }

    // By index, as many elements as given (like Jest's toMatchObject): an element to skip is {}.
    void compareArray(const json& expected, const json& actual, const std::string& at) {
        if (!actual.is_array()) return differ(at, "expected an array, got " + shown(actual));
        if (actual.size() != expected.size())
            return differ(at, "expected " + std::to_string(expected.size()) + " elements, got " +
                                  std::to_string(actual.size()));
        for (std::size_t i = 0; i < expected.size(); ++i)
            compare(expected[i], actual[i], at + "/" + std::to_string(i));
    }

    void compareNumber(const json& expected, const json& actual, const std::string& at,
                       const NumberTolerance& tolerance) {
        bool equal;
        if (tolerance.relative == 0 && tolerance.absolute == 0 && expected.is_number_integer() &&
            actual.is_number_integer())
            equal = expected.get<std::int64_t>() == actual.get<std::int64_t>();
        else {
            double e = expected.get<double>(), a = actual.get<double>();
            equal = std::fabs(a - e) <= std::max(tolerance.absolute, tolerance.relative * std::fabs(e));
        }
        if (!equal) differ(at, "expected " + shown(expected) + ", got " + shown(actual));
    }

    void match(const json& m, const json& actual, const std::string& at) {
        for (const auto& [key, value] : m.items())
            if (!kMatcherKeys.count(key) || key == "$absent")
                return differ(at, "malformed matcher " + shown(m) + " (unknown or misplaced " + key + ")");
        if (m.contains("$approx")) matchApprox(m, actual, at);
        if (m.contains("$length")) matchLength(m["$length"], actual, at);
        if (m.contains("$each")) {
            if (!actual.is_array()) return differ(at, "expected an array, got " + shown(actual));
            for (std::size_t i = 0; i < actual.size(); ++i)
                compare(m["$each"], actual[i], at + "/" + std::to_string(i));
        }
        if (m.contains("$items") || m.contains("$key")) matchByKey(m, actual, at);
        if (m.contains("$contains")) matchContains(m["$contains"], actual, at);
    }

    void matchApprox(const json& m, const json& actual, const std::string& at) {
        NumberTolerance t{m.value("$rel", 0.0), m.value("$abs", 0.0)};
        if (!m["$approx"].is_number() || (t.relative <= 0 && t.absolute <= 0))
            return differ(at, "malformed matcher " + shown(m) + " ($approx needs a number and $rel or $abs)");
        if (!actual.is_number())
            return differ(at, "expected a number near " + shown(m["$approx"]) + ", got " + shown(actual));
        compareNumber(m["$approx"], actual, at, t);
    }

    void matchLength(const json& length, const json& actual, const std::string& at) {
        if (!length.is_number_unsigned()) return differ(at, "malformed $length " + shown(length));
        if (!actual.is_array() && !actual.is_object() && !actual.is_string())
            return differ(at, "expected something with a length, got " + shown(actual));
        std::size_t n = actual.is_string() ? actual.get_ref<const std::string&>().size() : actual.size();
        if (n != length.get<std::size_t>())
            differ(at, "expected " + shown(length) + " elements, got " + std::to_string(n));
    }

    // Each item is compared with the one element of `actual` whose `$key` field (or fields, an array of
    // names) has the item's value(s).
    void matchByKey(const json& m, const json& actual, const std::string& at) {
        if (!m.contains("$items") || !m["$items"].is_array() || !m.contains("$key"))
            return differ(at, "malformed matcher " + shown(m) + " ($items and $key go together)");
        std::vector<std::string> keys;
        for (const auto& k : m["$key"].is_array() ? m["$key"] : json::array({m["$key"]})) {
            if (!k.is_string()) return differ(at, "malformed $key " + shown(m["$key"]));
            keys.push_back(k.get<std::string>());
        }
        if (!actual.is_array()) return differ(at, "expected an array, got " + shown(actual));
        auto identity = [&keys](const json& element) {
            json id = json::array();
            for (const auto& k : keys) {
                if (!element.is_object() || !element.contains(k)) return json();
                id.push_back(element[k]);
            }
            return id;
        };
        for (const auto& item : m["$items"]) {
            const json id = identity(item);
            if (id.is_null()) {
                differ(at, "malformed $items element " + shown(item) + " (not every field of $key)");
                continue;
            }
            std::vector<std::size_t> found;
            for (std::size_t i = 0; i < actual.size(); ++i)
                if (identity(actual[i]) == id) found.push_back(i);
            if (found.size() != 1) {
                differ(at, "expected one element with " + shown(m["$key"]) + " = " + shown(id) + ", got " +
                               std::to_string(found.size()));
                continue;
            }
            compare(item, actual[found[0]], at + "/" + std::to_string(found[0]));
        }
    }

    // A string holding every needle, or an array of strings where some element holds each needle.
    void matchContains(const json& needles, const json& actual, const std::string& at) {
        json list = needles.is_array() ? needles : json::array({needles});
        for (const auto& needle : list) {
            if (!needle.is_string()) return differ(at, "malformed $contains " + shown(needles));
            const auto& text = needle.get_ref<const std::string&>();
            bool found = false;
            if (actual.is_string())
                found = actual.get_ref<const std::string&>().find(text) != std::string::npos;
            else if (actual.is_array())
                for (const auto& element : actual)
                    found |= element.is_string() &&
                             element.get_ref<const std::string&>().find(text) != std::string::npos;
            else
                return differ(at, "expected a string or an array of strings, got " + shown(actual));
            if (!found) differ(at, "expected to contain " + shown(needle) + ", got " + shown(actual));
        }
    }
};

} // namespace

std::vector<std::string> subsetDifferences(const json& expected, const json& actual,
                                           const NumberTolerance& tolerance) {
    Comparison c(tolerance);
    c.compare(expected, actual, "");
    return std::move(c.differences);
}

} // namespace testsupport
