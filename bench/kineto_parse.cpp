// bench/kineto_parse.cpp: the Chrome-trace parsers a Kineto reader could use, timed on one file (plain or
// gzip), each handing every event of traceEvents to a no-op; the numbers in bench/README.md "Kineto parse".
//   gpueff     gpueff's reader (kineto::readChromeTrace: JsonCursor + simdjson On-Demand, every value read
//              or validated, events decoded into ChromeEvent)
//   nlohmann   nlohmann's SAX parser over the same stream with a handler that keeps nothing (the floor of
//              the reader gpueff had before: its lexer alone)
//   dom        JsonCursor + simdjson's DOM parser per event (validates, but gives no number's text: Kineto's
//              microseconds with three decimals need it)
// Built on demand: cmake --build build --target gpueff_bench_kineto_parse (bench/kineto.sh does it).
#include "engine/common/GzipStream.h"
#include "engine/kineto/ChromeTrace.h"
#include "engine/kineto/JsonCursor.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <simdjson.h>
#include <streambuf>
#include <string>

namespace {

using namespace gpueff;

struct GzBuffer : std::streambuf {
    explicit GzBuffer(const char* path) : file(path), data(1 << 20) {}
    int_type underflow() override {
        if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
        auto n = file.read(data.data(), data.size());
        if (n == 0) return traits_type::eof();
        setg(data.data(), data.data(), data.data() + n);
        return traits_type::to_int_type(*gptr());
    }
    GzipStream file;
    std::vector<char> data;
};

std::uint64_t viaGpueff(const char* path) {
    std::uint64_t events = 0;
    kineto::readChromeTrace(path, [&](const kineto::ChromeEvent&) { ++events; });
    return events;
}

std::uint64_t viaNlohmann(const char* path) {
    GzBuffer buffer(path);
    std::istream in(&buffer);
    using json = nlohmann::json;
    struct Count : nlohmann::json_sax<json> {
        std::uint64_t objects = 0;
        bool null() override { return true; }
        bool boolean(bool) override { return true; }
        bool number_integer(number_integer_t) override { return true; }
        bool number_unsigned(number_unsigned_t) override { return true; }
        bool number_float(number_float_t, const string_t&) override { return true; }
        bool string(string_t&) override { return true; }
        bool binary(binary_t&) override { return true; }
        bool start_object(std::size_t) override { return ++objects, true; }
        bool key(string_t&) override { return true; }
        bool end_object() override { return true; }
        bool start_array(std::size_t) override { return true; }
        bool end_array() override { return true; }
        bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
            throw e;
        }
    } count;
    nlohmann::json::sax_parse(in, &count);
    return count.objects;
}

std::uint64_t viaDom(const char* path) {
    GzipStream file(path);
    kineto::JsonCursor cursor(path, [&](char* out, std::size_t n) { return file.read(out, n); });
    simdjson::dom::parser parser;
    std::uint64_t events = 0;
    // The bench trace's layout: '{', members, "traceEvents": [ ... ] (kineto_scale.py keeps it).
    cursor.expect('{', "");
    for (;;) {
        std::string key(cursor.value());
        cursor.expect(':', "");
        if (key == "\"traceEvents\"") {
            cursor.expect('[', "");
            for (;;) {
                std::string_view event = cursor.value();
                auto element = parser.parse(event.data(), event.size(), false);
                if (element.error())
                    cursor.fail(cursor.valueOffset(), simdjson::error_message(element.error()));
                ++events;
                if (cursor.peek() == ']') break;
                cursor.expect(',', "");
            }
            cursor.advance();
        } else {
            cursor.value();
        }
        if (cursor.peek() == '}') break;
        cursor.expect(',', "");
    }
    return events;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s gpueff|nlohmann|dom TRACE.json[.gz]\n", argv[0]);
        return 2;
    }
    std::uint64_t bytes = 0;
    {
        GzipStream file(argv[2]);
        std::vector<char> chunk(1 << 20);
        while (auto n = file.read(chunk.data(), chunk.size())) bytes += n;
    }
    auto start = std::chrono::steady_clock::now();
    std::uint64_t events = std::strcmp(argv[1], "gpueff") == 0     ? viaGpueff(argv[2])
                           : std::strcmp(argv[1], "nlohmann") == 0 ? viaNlohmann(argv[2])
                                                                   : viaDom(argv[2]);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double mb = static_cast<double>(bytes) / 1e6;
    std::printf("%-9s %9.1f MB %9llu objects %7.3f s %7.0f MB/s\n", argv[1], mb,
                static_cast<unsigned long long>(events), s, mb / s);
    return 0;
}
