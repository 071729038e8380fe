#pragma once
// Tolerant readers of report.json for the presentation layer: any key of the document may be missing, null or
// of an unexpected type (an older or partial report), and rendering must go on with "n/a" instead of
// throwing.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpueff::reports::detail {

using nlohmann::json;

// The member `key` of `j` when `j` is an object holding it with a non-null value.
inline const json* member(const json& j, std::string_view key) {
    if (!j.is_object()) return nullptr;
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return nullptr;
    return &*it;
}

inline std::optional<double> asNumber(const json* v) {
    if (!v || !v->is_number()) return std::nullopt;
    double d = v->get<double>();
    if (!std::isfinite(d)) return std::nullopt;
    return d;
}

inline std::optional<double> number(const json& j, std::string_view key) {
    return asNumber(member(j, key));
}

inline std::string text(const json& j, std::string_view key, const std::string& fallback = "") {
    const json* v = member(j, key);
    if (!v) return fallback;
    if (v->is_string()) return v->get<std::string>();
    if (v->is_number_integer()) return std::to_string(v->get<long long>());
    return fallback;
}

// The member `key` of `j`, or null: callers can always read on (number(), text(), array() of null say none).
inline const json& sub(const json& j, std::string_view key) {
    static const json none;
    const json* v = member(j, key);
    return v ? *v : none;
}

// The array `key` of `j`, or an empty array: callers can always iterate.
inline const json& array(const json& j, std::string_view key) {
    static const json empty = json::array();
    const json* v = member(j, key);
    return v && v->is_array() ? *v : empty;
}

// A histogram object {"0": v, "1": v, ...} (decimal keys) as (key, value) pairs sorted by key; entries whose
// key is not a decimal or whose value is not a finite number are dropped.
inline std::vector<std::pair<long long, double>> histogram(const json* obj) {
    std::vector<std::pair<long long, double>> out;
    if (!obj || !obj->is_object()) return out;
    for (auto it = obj->begin(); it != obj->end(); ++it) {
        const std::string& k = it.key();
        long long key = 0;
        auto [end, ec] = std::from_chars(k.data(), k.data() + k.size(), key);
        if (ec != std::errc() || end != k.data() + k.size()) continue;
        auto v = asNumber(&it.value());
        if (v) out.emplace_back(key, *v);
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace gpueff::reports::detail
