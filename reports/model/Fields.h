#pragma once
// The one JSON codec of the report model (Report.h). Every struct of the model declares its report.json
// fields once, in a static `fields(self, f)` that calls f(key, member) for each of them; the writer and the
// reader below walk that list, so a field is named in one place and can never be written under one key and
// read under another.
//
// Value kinds: integers, doubles, bools, strings, std::optional<T> (JSON null when empty; absent or null read
// as empty), Omitted<T> (the key left out when empty), std::vector<T>, std::map<std::string, T> (an object),
// std::map<std::int64_t, T> (an object with decimal keys, such as a histogram over counts), nlohmann::json
// (free-form parts passed through), and nested model structs.
//
// The reader is strict: a field of the model missing from the document (but for optional and omitted ones),
// or of another JSON type, is an error naming its path ("devices[2].useful_ns: missing"). report.json is
// checked against docs/report.schema.json before it is decoded (ReportIo.h), so these errors are left for
// what the schema leaves open.
#include "engine/common/Error.h"

#include <charconv>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace gpueff::reports::model {

using nlohmann::json;

// A value whose key is left out of the document when it has none (std::optional writes null instead).
template <class T>
struct Omitted {
    std::optional<T> value;
    Omitted() = default;
    Omitted(T v) : value(std::move(v)) {}
    explicit operator bool() const { return value.has_value(); }
    const T& operator*() const { return *value; }
    const T* operator->() const { return &*value; }
};

// A finite double, or none: report.json never holds NaN or infinities (they are written as null).
inline std::optional<double> finite(double v) {
    return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}
inline std::optional<double> finite(const std::optional<double>& v) {
    return v ? finite(*v) : std::nullopt;
}

template <class T>
concept Described = requires(T& t) { T::fields(t, [](const char*, auto&) {}); };

namespace detail {

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <class T>
struct IsOmitted : std::false_type {};
template <class T>
struct IsOmitted<Omitted<T>> : std::true_type {};

[[noreturn]] inline void wrongType(const std::string& path, const char* expected, const json& got) {
    throw Error(path + ": expected " + expected + ", got " +
                (got.is_object() ? std::string("an object")
                                 : got.is_array() ? std::string("an array")
                                                  : got.dump(-1, ' ', false, json::error_handler_t::replace)));
}

inline std::string member(const std::string& path, const char* key) {
    return path.empty() ? std::string(key) : path + "." + key;
}

} // namespace detail

// ---- writing --------------------------------------------------------------------------------------------

template <class T>
json toJson(const T& v) {
    if constexpr (Described<T>) {
        json out = json::object();
        T::fields(v, [&out]<class V>(const char* key, V& field) {
            if constexpr (detail::IsOmitted<std::remove_const_t<V>>::value) {
                if (field.value) out[key] = toJson(*field.value);
            } else {
                out[key] = toJson(field);
            }
        });
        return out;
    } else if constexpr (detail::IsOptional<T>::value) {
        return v ? toJson(*v) : json(nullptr);
    } else if constexpr (std::is_same_v<T, double>) {
        return std::isfinite(v) ? json(v) : json(nullptr);
    } else if constexpr (std::is_same_v<T, json>) {
        return v;
    } else if constexpr (requires { typename T::key_type; typename T::mapped_type; }) {
        json out = json::object();
        for (const auto& [k, item] : v) {
            if constexpr (std::is_same_v<typename T::key_type, std::string>)
                out[k] = toJson(item);
            else
                out[std::to_string(k)] = toJson(item);
        }
        return out;
    } else if constexpr (requires { typename T::value_type; } && !std::is_same_v<T, std::string>) {
        json out = json::array();
        for (const auto& item : v) out.push_back(toJson(item));
        return out;
    } else {
        return json(v);
    }
}

// ---- reading --------------------------------------------------------------------------------------------

template <class T>
void fromJson(const json& j, T& out, const std::string& path);

namespace detail {

template <class K>
K mapKey(const std::string& key, const std::string& path) {
    if constexpr (std::is_same_v<K, std::string>) {
        return key;
    } else {
        K k{};
        auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), k);
        if (ec != std::errc() || end != key.data() + key.size())
            throw Error(path + ": key \"" + key + "\" is not a decimal integer");
        return k;
    }
}

} // namespace detail

namespace detail {

// A value read into one made here, then moved into its optional: optional::emplace() asks whether a struct
// nested in another is default-constructible, which clang decides (and caches as "no") while the enclosing
// struct is still incomplete (the clang fuzz build, scripts/fuzz).
template <class T>
T decoded(const json& j, const std::string& path) {
    T value{};
    fromJson(j, value, path);
    return value;
}

} // namespace detail

template <class T>
void fromJson(const json& j, T& out, const std::string& path) {
    if constexpr (Described<T>) {
        if (!j.is_object()) detail::wrongType(path, "an object", j);
        T::fields(out, [&]<class V>(const char* key, V& field) {
            auto it = j.find(key);
            bool absent = it == j.end() || it->is_null();
            auto at = detail::member(path, key);
            if constexpr (detail::IsOmitted<V>::value) {
                if (it == j.end()) return field.value.reset(); // null is a value here (Omitted<optional>)
                field.value = detail::decoded<typename decltype(field.value)::value_type>(*it, at);
            } else if constexpr (detail::IsOptional<V>::value) {
                if (absent) return field.reset();
                field = detail::decoded<typename V::value_type>(*it, at);
            } else if constexpr (std::is_same_v<V, double>) {
                if (it == j.end()) throw Error(at + ": missing");
                fromJson(*it, field, at); // null stands for a non-finite value
            } else if constexpr (std::is_same_v<V, json>) {
                field = it == j.end() ? json() : *it;
            } else {
                if (absent) throw Error(at + ": missing");
                fromJson(*it, field, at);
            }
        });
    } else if constexpr (detail::IsOptional<T>::value) {
        if (j.is_null()) return out.reset();
        out = detail::decoded<typename T::value_type>(j, path);
    } else if constexpr (std::is_same_v<T, bool>) {
        if (!j.is_boolean()) detail::wrongType(path, "true or false", j);
        out = j.get<bool>();
    } else if constexpr (std::is_same_v<T, double>) {
        if (j.is_null()) out = NAN;
        else if (!j.is_number()) detail::wrongType(path, "a number", j);
        else out = j.get<double>();
    } else if constexpr (std::is_integral_v<T>) {
        if (!j.is_number_integer()) detail::wrongType(path, "an integer", j);
        out = j.get<T>();
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!j.is_string()) detail::wrongType(path, "a string", j);
        out = j.get<std::string>();
    } else if constexpr (std::is_same_v<T, json>) {
        out = j;
    } else if constexpr (requires { typename T::key_type; typename T::mapped_type; }) {
        if (!j.is_object()) detail::wrongType(path, "an object", j);
        out.clear();
        for (auto it = j.begin(); it != j.end(); ++it) {
            auto key = detail::mapKey<typename T::key_type>(it.key(), path);
            fromJson(it.value(), out[key], path + "." + it.key());
        }
    } else {
        static_assert(requires { typename T::value_type; }, "no JSON form for this type");
        if (!j.is_array()) detail::wrongType(path, "an array", j);
        out.clear();
        out.resize(j.size());
        for (std::size_t i = 0; i < j.size(); ++i) fromJson(j[i], out[i], path + "[" + std::to_string(i) + "]");
    }
}

} // namespace gpueff::reports::model
