#include "jobs/PartCodec.h"

#include "engine/common/Error.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <type_traits>

// Every structure carried between processes lists its fields once, beside its members (`static void
// fields(self, f)`, as the report model does): the encoding walks those lists. The two functions below are put
// in each namespace whose structures travel, so that nlohmann finds them (argument-dependent lookup).
namespace gpueff::jobs::wire {

template <class T>
concept Listed = requires(T& t) { T::fields(t, [](const char*, auto&) {}); };

} // namespace gpueff::jobs::wire

#define GPUEFF_WIRE_FIELDS                                                                                     \
    template <::gpueff::jobs::wire::Listed T>                                                                \
    void to_json(nlohmann::json& j, const T& value) {                                                       \
        j = nlohmann::json::object();                                                                        \
        T::fields(value, [&j](const char* key, const auto& field) { j[key] = field; });                      \
    }                                                                                                        \
    template <::gpueff::jobs::wire::Listed T>                                                                \
    void from_json(const nlohmann::json& j, T& value) {                                                     \
        T::fields(value, [&j](const char* key, auto& field) {                                               \
            nlohmann::adl_serializer<std::remove_cvref_t<decltype(field)>>::from_json(j.at(key), field);   \
        });                                                                                                  \
    }

// An optional as its value or null. Read into a value made here rather than through j.get<T>(): clang decides
// whether HtaBreakdown's nested structs are default-constructible while HtaBreakdown is still incomplete (its
// std::optional members), caches "no", and then finds no get<T>() for them (the fuzz build, scripts/fuzz).
namespace nlohmann {
template <typename T>
struct adl_serializer<std::optional<T>> {
    static void to_json(json& j, const std::optional<T>& v) {
        if (v)
            j = *v;
        else
            j = nullptr;
    }
    static void from_json(const json& j, std::optional<T>& v) {
        if (j.is_null()) return v.reset();
        T value;
        adl_serializer<T>::from_json(j, value);
        v = std::move(value);
    }
};
} // namespace nlohmann

namespace gpueff::nsys {
GPUEFF_WIRE_FIELDS
} // namespace gpueff::nsys
namespace gpueff::pipeline {
GPUEFF_WIRE_FIELDS
} // namespace gpueff::pipeline
namespace gpueff::metrics {
GPUEFF_WIRE_FIELDS
} // namespace gpueff::metrics

namespace gpueff::jobs {

GPUEFF_WIRE_FIELDS

namespace {

// MessagePack keeps every integer and double exactly (a double as float64 unless float32 holds it exactly).
template <typename T>
std::string encode(const T& value) {
    auto bytes = nlohmann::json::to_msgpack(nlohmann::json(value));
    return std::string(bytes.begin(), bytes.end());
}

// The bytes come from another process of the same run, never from a user: a failure is a bug.
template <typename T>
T decode(const std::string& bytes, const char* what) {
    try {
        return nlohmann::json::from_msgpack(bytes).get<T>();
    } catch (const nlohmann::json::exception& e) {
        throw Error(std::string("internal error: a peer process sent unreadable ") + what + ": " + e.what());
    }
}

} // namespace

std::string encodePartFacts(const nsys::PartFacts& facts) {
    return encode(facts);
}
nsys::PartFacts decodePartFacts(const std::string& bytes) {
    return decode<nsys::PartFacts>(bytes, "translation facts");
}

std::string encodeNameFacts(const nsys::NameFacts& facts) {
    return encode(facts);
}
nsys::NameFacts decodeNameFacts(const std::string& bytes) {
    return decode<nsys::NameFacts>(bytes, "names");
}

std::string encodeTotals(const pipeline::StreamTotals& totals) {
    return encode(totals);
}
pipeline::StreamTotals decodeTotals(const std::string& bytes) {
    return decode<pipeline::StreamTotals>(bytes, "stream totals");
}

std::string encodeWindowEvidence(const metrics::WindowEvidence& evidence) {
    return encode(evidence);
}
metrics::WindowEvidence decodeWindowEvidence(const std::string& bytes) {
    return decode<metrics::WindowEvidence>(bytes, "window evidence");
}

std::string encodePartials(const Partials& partials) {
    return encode(partials);
}
Partials decodePartials(const std::string& bytes) {
    return decode<Partials>(bytes, "partial results");
}

} // namespace gpueff::jobs
