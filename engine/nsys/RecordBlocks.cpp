#include "engine/nsys/RecordBlocks.h"

#include <cstring>

namespace gpueff::nsys {

using paraver::TraceRecord;

namespace {

template <typename T>
void put(unsigned char*& p, const T& v) {
    std::memcpy(p, &v, sizeof v);
    p += sizeof v;
}
template <typename T>
void get(const unsigned char*& p, T& v) {
    std::memcpy(&v, p, sizeof v);
    p += sizeof v;
}

// What both encodings start with: the merge key, the time, row and order, whether it is a communication.
void putHead(unsigned char*& p, const TraceRecord& r, std::uint64_t sequence, std::uint64_t origin) {
    put(p, sequence);
    put(p, origin);
    put(p, r.time);
    put(p, r.row);
    put(p, static_cast<std::uint8_t>(r.order));
    put(p, static_cast<std::uint8_t>(r.isCommunication));
}
void getHead(const unsigned char*& p, TraceRecord& r, std::uint64_t& sequence, std::uint64_t& origin) {
    std::uint8_t order = 0, comm = 0;
    get(p, sequence);
    get(p, origin);
    get(p, r.time);
    get(p, r.row);
    get(p, order);
    get(p, comm);
    r.order = static_cast<paraver::RecordOrder>(order);
    r.isCommunication = comm != 0;
}

} // namespace

std::size_t encodeRecord(const TraceRecord& r, std::uint64_t sequence, std::uint64_t origin,
                         unsigned char* out) {
    unsigned char* p = out;
    putHead(p, r, sequence, origin);
    put(p, r.pairCount);
    for (std::uint8_t i = 0; i < r.pairCount; ++i) {
        put(p, r.pairs[i].type);
        put(p, r.pairs[i].value);
    }
    if (r.isCommunication) {
        const auto& c = r.comm;
        put(p, c.sendRow);
        put(p, c.recvRow);
        for (auto v : {c.logicalSend, c.physicalSend, c.logicalRecv, c.physicalRecv, c.size, c.tag})
            put(p, v);
    }
    return static_cast<std::size_t>(p - out);
}

std::size_t decodeRecord(const unsigned char* in, TraceRecord& r, std::uint64_t& sequence,
                         std::uint64_t& origin) {
    const unsigned char* p = in;
    getHead(p, r, sequence, origin);
    get(p, r.pairCount);
    for (std::uint8_t i = 0; i < r.pairCount; ++i) {
        get(p, r.pairs[i].type);
        get(p, r.pairs[i].value);
    }
    if (r.isCommunication) {
        auto& c = r.comm;
        get(p, c.sendRow);
        get(p, c.recvRow);
        for (auto* v : {&c.logicalSend, &c.physicalSend, &c.logicalRecv, &c.physicalRecv, &c.size, &c.tag})
            get(p, *v);
    }
    return static_cast<std::size_t>(p - in);
}

std::size_t encodeFormatted(const TraceRecord& r, std::uint64_t sequence, std::uint64_t origin,
                            const std::vector<paraver::RowAddress>& rows, unsigned char* out) {
    unsigned char* p = out;
    putHead(p, r, sequence, origin);
    put(p, static_cast<std::uint8_t>(r.pairCount > 0));
    if (r.isCommunication) {
        put(p, std::uint32_t{0});
        put(p, r.comm.tag);
    } else {
        put(p, r.pairCount > 0 ? r.pairs[0].type : 0);
        put(p, r.pairCount > 0 ? r.pairs[0].value : 0);
    }
    const auto length = static_cast<std::uint16_t>(
        paraver::formatRecord(r, rows, reinterpret_cast<char*>(p + sizeof(std::uint16_t))));
    put(p, length);
    return static_cast<std::size_t>(p - out) + length;
}

std::size_t decodeFormatted(const unsigned char* in, TraceRecord& r, std::uint64_t& sequence,
                            std::uint64_t& origin) {
    const unsigned char* p = in;
    std::uint8_t pair = 0;
    std::uint32_t type = 0;
    std::int64_t value = 0;
    std::uint16_t length = 0;
    getHead(p, r, sequence, origin);
    get(p, pair);
    get(p, type);
    get(p, value);
    get(p, length);
    r.isState = false;
    r.pairCount = pair;
    if (r.isCommunication) r.comm.tag = value;
    if (pair) r.pairs[0] = {type, value};
    r.formatted = {reinterpret_cast<const char*>(p), length};
    return static_cast<std::size_t>(p - in) + length;
}

} // namespace gpueff::nsys
