#include "engine/kineto/EventFields.h"

#include <cmath>
#include <limits>

namespace gpueff::kineto::fields {

namespace {

namespace od = simdjson::ondemand;

// A JSON number as an integer field takes it: fractions rounded, and `tooLarge` beyond int64.
struct Number {
    std::int64_t value = 0;
    bool tooLarge = false;
};

// An integer of more digits than 64 bits hold, which JSON allows and simdjson 3.0 refuses to parse.
bool isLongInteger(std::string_view token) {
    std::size_t i = token.starts_with('-') ? 1 : 0, digits = 0;
    for (; i < token.size() && token[i] >= '0' && token[i] <= '9'; ++i) ++digits;
    while (i < token.size() && (token[i] == ' ' || token[i] == '\n' || token[i] == '\r' || token[i] == '\t'))
        ++i;
    return digits >= 20 && token[token.starts_with('-') ? 1 : 0] != '0' && i == token.size();
}

template <typename V>
Number numberOf(V& v) {
    od::number n;
    std::string_view token = v.raw_json_token();
    if (auto error = v.get_number().get(n)) {
        if ((error == simdjson::NUMBER_ERROR || error == simdjson::NUMBER_OUT_OF_RANGE) &&
            isLongInteger(token))
            return {0, true};
        throw simdjson::simdjson_error(error);
    }
    switch (n.get_number_type()) {
    case od::number_type::signed_integer:
        return {n.get_int64(), false};
    case od::number_type::unsigned_integer:
        return {0, true};
    default: {
        double d = n.get_double();
        if (!std::isfinite(d) || std::fabs(d) > 9.2e18) return {0, true};
        return {static_cast<std::int64_t>(std::llround(d)), false};
    }
    }
}

// Walks a value gpueff does not use, so that every byte of the file is checked as JSON.
void validate(od::value v);

template <typename V>
void validateScalar(V& v, od::json_type type) {
    switch (type) {
    case od::json_type::number:
        numberOf(v);
        break;
    case od::json_type::string:
        (void)std::string_view(v.get_string());
        break;
    case od::json_type::boolean:
        (void)bool(v.get_bool());
        break;
    case od::json_type::null:
        if (!bool(v.is_null())) throw simdjson::simdjson_error(simdjson::N_ATOM_ERROR);
        break;
    default:
        break;
    }
}

void validate(od::value v) {
    od::json_type type = v.type();
    if (type == od::json_type::object) {
        for (auto field : v.get_object()) {
            (void)std::string_view(field.unescaped_key());
            validate(field.value());
        }
    } else if (type == od::json_type::array) {
        for (auto element : v.get_array()) validate(element.value());
    } else {
        validateScalar(v, type);
    }
}

// A whole document checked (a value of the root gpueff does not use).
void validateDocument(od::document& doc) {
    od::json_type type = doc.type();
    if (type == od::json_type::object || type == od::json_type::array)
        validate(od::value(doc.get_value()));
    else
        validateScalar(doc, type);
}

std::string_view stringOf(od::value& v) {
    return v.get_string();
}

// The keys the reader acts on, named once per key read (values are then dispatched on an enum).
enum class Key {
    Other,
    Ph,
    Cat,
    Name,
    Pid,
    Tid,
    Ts,
    Dur,
    Args, // event
    Device,
    Stream,
    Correlation,
    Bytes,
    Registers,
    SharedMemory,
    GroupSize,
    InElements,
    OutElements,
    Grid,
    Block,
    SyncKind,
    Collective,
    Dtype,
    GroupName,
    GroupRanks,
    Labels, // args (and Name)
};

Key eventKey(std::string_view k) {
    static constexpr std::pair<std::string_view, Key> keys[] = {
        {"ph", Key::Ph},   {"cat", Key::Cat}, {"name", Key::Name}, {"pid", Key::Pid},
        {"tid", Key::Tid}, {"ts", Key::Ts},   {"dur", Key::Dur},   {"args", Key::Args},
    };
    for (const auto& [text, key] : keys)
        if (text == k) return key;
    return Key::Other;
}

Key argKey(std::string_view k) {
    static constexpr std::pair<std::string_view, Key> keys[] = {
        {"device", Key::Device},
        {"stream", Key::Stream},
        {"correlation", Key::Correlation},
        {"bytes", Key::Bytes},
        {"registers per thread", Key::Registers},
        {"shared memory", Key::SharedMemory},
        {"Group size", Key::GroupSize},
        {"In msg nelems", Key::InElements},
        {"Out msg nelems", Key::OutElements},
        {"grid", Key::Grid},
        {"block", Key::Block},
        {"cuda_sync_kind", Key::SyncKind},
        {"Collective name", Key::Collective},
        {"dtype", Key::Dtype},
        {"Process Group Name", Key::GroupName},
        {"Process Group Ranks", Key::GroupRanks},
        {"name", Key::Name},
        {"labels", Key::Labels},
    };
    for (const auto& [text, key] : keys)
        if (text == k) return key;
    return Key::Other;
}

Field* integerArg(ChromeEvent& e, Key key) {
    switch (key) {
    case Key::Device:
        return &e.device;
    case Key::Stream:
        return &e.stream;
    case Key::Correlation:
        return &e.correlation;
    case Key::Bytes:
        return &e.bytes;
    case Key::Registers:
        return &e.registers;
    case Key::SharedMemory:
        return &e.sharedMemory;
    case Key::GroupSize:
        return &e.groupSize;
    case Key::InElements:
        return &e.inElements;
    case Key::OutElements:
        return &e.outElements;
    default:
        return nullptr;
    }
}

std::string* textArg(ChromeEvent& e, Key key) {
    switch (key) {
    case Key::SyncKind:
        return &e.syncKind;
    case Key::Collective:
        return &e.collective;
    case Key::Dtype:
        return &e.dtype;
    case Key::GroupName:
        return &e.groupName;
    case Key::GroupRanks:
        return &e.groupRanks;
    case Key::Name:
    case Key::Labels:
        return &e.metadataName; // of 'M' events
    default:
        return nullptr;
    }
}

// JSON's number grammar, checked on the text of a time (which is read from its text, not as a double: a
// double is slower to make from 19 digits, and inexact).
bool isJsonNumber(std::string_view t) {
    std::size_t i = t.starts_with('-') ? 1 : 0;
    auto digits = [&] {
        std::size_t from = i;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
        return i - from;
    };
    std::size_t first = i, whole = digits();
    if (whole == 0 || (whole > 1 && t[first] == '0')) return false;
    if (i < t.size() && t[i] == '.' && (++i, digits() == 0)) return false;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
        if (digits() == 0) return false;
    }
    return i == t.size();
}

// ts or dur: Kineto's microseconds as ns, exactly (an integer is scaled, a fraction read from its text); a
// string or a number beyond int64 ns is a bad number, named in the event's skip reason.
void readTime(od::value& v, Key key, ChromeEvent& e) {
    Field& f = key == Key::Ts ? e.ts : e.dur;
    const char* name = key == Key::Ts ? "ts" : "dur";
    od::json_type type = v.type();
    if (type == od::json_type::string) {
        (void)stringOf(v);
        e.badNumber = name;
        return;
    }
    if (type != od::json_type::number) return validate(v);
    std::string_view text = v.raw_json_token();
    while (!text.empty() &&
           (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' || text.back() == '\t'))
        text.remove_suffix(1);
    if (!isJsonNumber(text)) throw simdjson::simdjson_error(simdjson::NUMBER_ERROR);
    if (auto ns = microsecondsTextToNs(text))
        f.set(*ns);
    else
        e.badNumber = name;
}

void readDims(od::value v, std::array<std::int64_t, 3>& dims) {
    std::size_t index = 0;
    for (auto element : v.get_array()) {
        od::value x = element.value();
        if (x.type() != od::json_type::number) {
            validate(x);
            continue;
        }
        Number n = numberOf(x);
        if (!n.tooLarge && index < 3) dims[index] = n.value;
        ++index;
    }
}

void readArgs(od::value v, ChromeEvent& e) {
    for (auto field : v.get_object()) {
        Key key = argKey(field.unescaped_key());
        od::value x = field.value();
        od::json_type type = x.type();
        if (type == od::json_type::number) {
            Number n = numberOf(x);
            if (Field* f = integerArg(e, key); f && !n.tooLarge) f->set(n.value);
        } else if (type == od::json_type::string) {
            std::string_view s = stringOf(x);
            if (std::string* t = textArg(e, key)) t->assign(s);
        } else if (type == od::json_type::array && (key == Key::Grid || key == Key::Block)) {
            readDims(x, key == Key::Grid ? e.grid : e.block);
        } else {
            validate(x);
        }
    }
}

} // namespace

void readEvent(od::object object, ChromeEvent& e) {
    for (auto field : object) {
        Key key = eventKey(field.unescaped_key());
        od::value v = field.value();
        if (key == Key::Ts || key == Key::Dur) {
            readTime(v, key, e);
            continue;
        }
        od::json_type type = v.type();
        if (type == od::json_type::string && (key == Key::Ph || key == Key::Cat || key == Key::Name)) {
            std::string_view s = stringOf(v);
            if (key == Key::Ph)
                e.ph = s.empty() ? '?' : s[0];
            else
                (key == Key::Cat ? e.cat : e.name).assign(s);
        } else if (type == od::json_type::number && (key == Key::Pid || key == Key::Tid)) {
            if (Number n = numberOf(v); !n.tooLarge) (key == Key::Pid ? e.pid : e.tid).set(n.value);
        } else if (type == od::json_type::object && key == Key::Args) {
            readArgs(v, e);
        } else {
            validate(v);
        }
    }
}

namespace {

// distributedInfo: this trace's rank and the job's size.
void readDistributed(od::value v, TraceMetadata& m) {
    for (auto field : v.get_object()) {
        std::string_view k = field.unescaped_key();
        od::value x = field.value();
        if (x.type() != od::json_type::number || (k != "rank" && k != "world_size")) {
            validate(x);
            continue;
        }
        if (Number n = numberOf(x); !n.tooLarge) (k == "rank" ? m.rank : m.worldSize) = n.value;
    }
}

// deviceProperties: [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", ...}, ...]
void readDevices(od::value v, TraceMetadata& m) {
    for (auto element : v.get_array()) {
        od::value device = element.value();
        if (device.type() != od::json_type::object) {
            validate(device);
            continue;
        }
        std::int64_t id = -1;
        std::string name;
        for (auto field : device.get_object()) {
            std::string_view k = field.unescaped_key();
            od::value x = field.value();
            od::json_type type = x.type();
            if (k == "id" && type == od::json_type::number) {
                Number n = numberOf(x);
                id = n.tooLarge ? 0 : n.value;
            } else if (k == "name" && type == od::json_type::string) {
                name = stringOf(x);
            } else {
                validate(x);
            }
        }
        if (id >= 0) m.deviceNames[id] = name;
    }
}

} // namespace

// One member of the root object other than traceEvents.
void readRootMember(std::string_view key, od::document& doc, TraceMetadata& m) {
    od::json_type type = doc.type();
    if (key == "distributedInfo" && type == od::json_type::object)
        return readDistributed(od::value(doc.get_value()), m);
    if (key == "deviceProperties" && type == od::json_type::array)
        return readDevices(od::value(doc.get_value()), m);
    if (type == od::json_type::number && (key == "baseTimeNanoseconds" || key == "schemaVersion")) {
        Number n = numberOf(doc);
        if (key == "schemaVersion")
            m.schemaVersion = std::to_string(n.value);
        else if (!n.tooLarge)
            m.baseTimeNs = n.value;
        return;
    }
    if (type == od::json_type::string && (key == "host_name" || key == "schemaVersion")) {
        std::string_view s = doc.get_string();
        (key == "host_name" ? m.hostName : m.schemaVersion) = s;
        return;
    }
    validateDocument(doc);
}

void validate(od::document& doc) {
    validateDocument(doc);
}

} // namespace gpueff::kineto::fields
