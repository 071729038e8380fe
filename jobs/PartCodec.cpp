#include "jobs/PartCodec.h"

#include "engine/common/Error.h"

#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <type_traits>

// Every structure carried between processes lists its fields once, beside its members (`static void
// fields(self, f)`, as the report model does): the encoding walks those lists. The two functions below are
// put in each namespace whose structures travel, so that nlohmann finds them (argument-dependent lookup).
namespace gpueff::jobs::wire {

template <class T>
concept Listed = requires(T& t) {
    T::fields(t, [](const char*, auto&) {});
};

} // namespace gpueff::jobs::wire

// Bulk arrays (a process's SpillStore: its devices' kernel durations, its tasks' NVTX ranges and call
// durations, millions of values) travel as bytes, a MessagePack bin, not as a JSON array of numbers or
// objects: the DOM of a million ranges on the way would be hundreds of MB and seconds of work. Everything
// else goes through nlohmann's own conversions. toWire/fromWire are the one pair both directions use, for a
// field and, recursively, for the values of a map.
namespace gpueff::jobs::wire {

template <class T>
concept Packed = std::is_same_v<T, std::vector<std::int64_t>>;

template <class T>
nlohmann::json toWire(const T& value) {
    if constexpr (Packed<T>) {
        nlohmann::json::binary_t::container_type bytes(value.size() * sizeof(std::int64_t));
        if (!value.empty()) std::memcpy(bytes.data(), value.data(), bytes.size());
        return nlohmann::json::binary(std::move(bytes));
    } else if constexpr (requires {
                             typename T::key_type;
                             typename T::mapped_type;
                         }) {
        auto pairs = nlohmann::json::array();
        for (const auto& [k, v] : value)
            pairs.push_back(nlohmann::json::array({nlohmann::json(k), toWire(v)}));
        return pairs;
    } else {
        return nlohmann::json(value);
    }
}

template <class T>
void fromWire(const nlohmann::json& j, T& value) {
    if constexpr (Packed<T>) {
        const auto& bytes = j.get_binary();
        if (bytes.size() % sizeof(std::int64_t) != 0)
            throw Error("internal error: a packed array of a peer has a bad size");
        value.resize(bytes.size() / sizeof(std::int64_t));
        if (!value.empty()) std::memcpy(value.data(), bytes.data(), bytes.size());
    } else if constexpr (requires {
                             typename T::key_type;
                             typename T::mapped_type;
                         }) {
        value.clear();
        for (const auto& pair : j) {
            typename T::key_type k;
            nlohmann::adl_serializer<typename T::key_type>::from_json(pair.at(0), k);
            fromWire(pair.at(1), value[k]);
        }
    } else {
        nlohmann::adl_serializer<T>::from_json(j, value);
    }
}

} // namespace gpueff::jobs::wire

#define GPUEFF_WIRE_FIELDS                                                                                   \
    template <::gpueff::jobs::wire::Listed T>                                                                \
    void to_json(nlohmann::json& j, const T& value) {                                                        \
        j = nlohmann::json::object();                                                                        \
        T::fields(value, [&j](const char* key, const auto& field) {                                          \
            j[key] = ::gpueff::jobs::wire::toWire(field);                                                    \
        });                                                                                                  \
    }                                                                                                        \
    template <::gpueff::jobs::wire::Listed T>                                                                \
    void from_json(const nlohmann::json& j, T& value) {                                                      \
        T::fields(value,                                                                                     \
                  [&j](const char* key, auto& field) { ::gpueff::jobs::wire::fromWire(j.at(key), field); }); \
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
namespace gpueff {
GPUEFF_WIRE_FIELDS
} // namespace gpueff

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

std::string encodeScanFacts(const nsys::ScanFacts& facts) {
    return encode(facts);
}
nsys::ScanFacts decodeScanFacts(const std::string& bytes) {
    return decode<nsys::ScanFacts>(bytes, "pre-pass findings");
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
