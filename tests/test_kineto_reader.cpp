// The Chrome-trace reader itself (engine/kineto: JsonCursor + simdjson On-Demand): what each event and the
// root's metadata are read as, on hand-written JSON whose expected fields are written beside it; values that
// span the reader's chunks; malformed JSON refused wherever it lies, naming the byte. The figures of real
// traces are checked against an independent sweep of the JSON by test_kineto_oracle.cpp.
#include "engine/common/Error.h"
#include "engine/kineto/ChromeTrace.h"

#include <doctest/doctest.h>
#include <sstream>
#include <string>
#include <vector>

using namespace gpueff::kineto;

namespace {

struct Read {
    TraceMetadata metadata;
    std::vector<ChromeEvent> events;
};

Read readText(const std::string& text) {
    std::istringstream in(text);
    Read r;
    r.metadata = readChromeTrace("t.json", in, [&](const ChromeEvent& e) { r.events.push_back(e); });
    return r;
}

std::string errorOf(const std::string& text) {
    try {
        readText(text);
    } catch (const gpueff::Error& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST_CASE("kineto reader: the fields of an event and of the root, whatever their order and neighbours") {
    auto r = readText(R"({"schemaVersion": "1.0.2", "unknown": {"deep": [1, 2.5e3, true, null, "x\u00e9"]},
  "traceEvents": [
    {"args": {"device": 1, "stream": 7.4, "correlation": 18446744073709551615, "grid": [2, "x", 3.6, [9], 4, 5],
              "block": [128], "bytes": -5, "cuda_sync_kind": "Stream Sync", "Collective name": "allreduce",
              "dtype": "Float", "In msg nelems": 1048576, "Group size": 8, "name": "ignored \"too\"",
              "other": {"grid": [7, 7, 7]}},
     "dur": 2.5, "ts": "12", "name": "k\"}{[", "cat": "kernel", "ph": "Xtra", "pid": 3, "tid": 1.0e2,
     "nested": {"ts": 99}},
    5, "text", [1, {"ph": "X"}],
    {"ph": "", "ts": 1712195495519689.001, "dur": 0, "name": 7},
    {"ph": "M", "name": "thread_name", "pid": 3, "tid": 9, "args": {"labels": "first", "name": "stream 9"}}
  ],
  "distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 1e30},
  "deviceProperties": [{"name": "H100", "id": 2}, {"id": 0}, {"name": "no id"}, 7],
  "baseTimeNanoseconds": 1700000000000000000, "host_name": "node7"})");
    REQUIRE(r.events.size() == 3); // objects of traceEvents only
    const auto& k = r.events[0];
    CHECK(k.ph == 'X');
    CHECK(k.cat == "kernel");
    CHECK(k.name == "k\"}{[");
    CHECK(k.pid.present);
    CHECK(k.pid.value == 3);
    CHECK(k.tid.value == 100);
    CHECK_FALSE(k.ts.present); // a string: a bad number, named
    CHECK(k.badNumber == "ts");
    CHECK(k.dur.value == 2500);
    CHECK(k.device.value == 1);
    CHECK(k.stream.value == 7);         // rounded
    CHECK_FALSE(k.correlation.present); // beyond int64
    CHECK(k.bytes.value == -5);
    // Numbers only count, the first three kept; "x" and [9] are not numbers.
    CHECK(k.grid == std::array<std::int64_t, 3>{2, 4, 4});
    CHECK(k.block == std::array<std::int64_t, 3>{128, 0, 0});
    CHECK(k.syncKind == "Stream Sync");
    CHECK(k.collective == "allreduce");
    CHECK(k.dtype == "Float");
    CHECK(k.inElements.value == 1048576);
    CHECK(k.groupSize.value == 8);
    CHECK(k.metadataName == "ignored \"too\"");

    const auto& second = r.events[1]; // everything of the first event forgotten
    CHECK(second.ph == '?');
    CHECK(second.ts.value == 1712195495519689001); // from the text: no double holds it
    CHECK(second.dur.present);
    CHECK(second.name.empty()); // a number is no name
    CHECK_FALSE(second.device.present);
    CHECK(second.badNumber.empty());
    CHECK(second.grid == std::array<std::int64_t, 3>{0, 0, 0});

    CHECK(r.events[2].metadataName == "stream 9"); // the last of args.labels and args.name

    CHECK(r.metadata.sawTraceEvents);
    CHECK(r.metadata.schemaVersion == "1.0.2");
    CHECK(r.metadata.rank == 3);
    CHECK_FALSE(r.metadata.worldSize); // 1e30 is no int64
    CHECK(r.metadata.deviceNames == std::map<std::int64_t, std::string>{{0, ""}, {2, "H100"}});
    CHECK(r.metadata.baseTimeNs == 1700000000000000000);
    CHECK(r.metadata.hostName == "node7");
}

TEST_CASE("kineto reader: Chrome's array format, empty arrays and values longer than the reader's chunk") {
    CHECK(readText("[]").metadata.sawTraceEvents);
    CHECK(readText(R"({"traceEvents": []})").events.empty());
    CHECK(readText(R"( [ {"ph": "i"} ] )").events.at(0).ph == 'i');
    // A 3 MiB event (the reader's buffer starts at 1 MiB) and a 3 MiB root member, around a small event:
    // backslashes before quotes at every position of the chunk.
    std::string longName;
    for (int i = 0; longName.size() < (3u << 20); ++i) longName += i % 7 ? "ab\\\\c\\\"}" : "[{";
    std::string text = R"({"big": [")" + longName + R"("], "traceEvents": [{"name": ")" + longName +
                       R"(", "ph": "X"}, {"ph": "B", "ts": 1}]})";
    auto r = readText(text);
    REQUIRE(r.events.size() == 2);
    std::string unescaped;
    for (std::size_t i = 0; i < longName.size(); ++i) {
        if (longName[i] == '\\') ++i;
        unescaped += longName[i];
    }
    CHECK(r.events[0].name == unescaped);
    CHECK(r.events[1].ts.value == 1000);
}

TEST_CASE("kineto reader: malformed JSON is refused wherever it lies, naming the byte") {
    // Byte offsets counted in the text: where the parser stopped (the fault itself, or the comma before it).
    CHECK(errorOf(R"({"traceEvents": [{"ph": "X", "args": {"x": [nul]}}]})") ==
          "t.json: invalid JSON at byte 44: invalid literal (true, false, null, a number, a string, an "
          "object or "
          "an array is due)");
    CHECK(errorOf(R"({"traceEvents": [{"ph": "X",, "a": 1}]})")
              .starts_with("t.json: invalid JSON at byte 28: "));
    CHECK(errorOf(R"({"traceEvents": [], "x": 01})").starts_with("t.json: invalid JSON at byte 25: "));
    CHECK(errorOf(R"({"traceEvents": [], "x": "\q"})").starts_with("t.json: invalid JSON at byte 25: "));
    CHECK(errorOf(R"({"traceEvents": [{"ts": 1.}]})").starts_with("t.json: invalid JSON at byte 24: "));
    CHECK(errorOf(R"({"traceEvents": [{}] x)") == "t.json: invalid JSON at byte 21: expected ',' or a "
                                                  "closing bracket after a member of the root object, "
                                                  "found 'x'");
    CHECK(errorOf(R"({"traceEvents": [{}]} x)") ==
          "t.json: invalid JSON at byte 22: unexpected text after the JSON value");
    CHECK(errorOf(R"({"traceEvents": [{}{}]})").starts_with("t.json: invalid JSON at byte 19: expected ','"));
    CHECK(errorOf(R"({"a" 1})") ==
          "t.json: invalid JSON at byte 5: expected ':' after a key of the root object, "
          "found '1'");
    CHECK(errorOf(R"({"traceEvents": [{"ph": "X", "a": [1, 2}]})")
              .starts_with("t.json: invalid JSON at byte "));
    // Truncated anywhere: said so.
    std::string whole = R"({"traceEvents": [{"ph": "X", "name": "a"}, {"ph": "X"}]})";
    for (std::size_t cut = 0; cut < whole.size(); ++cut) {
        CAPTURE(cut);
        auto message = errorOf(whole.substr(0, cut));
        CHECK(message.starts_with("t.json: invalid JSON at byte "));
        CHECK(message.ends_with("(a truncated file?)"));
    }
    CHECK(errorOf(whole) == "no error");
    // Valid JSON that is no Kineto trace.
    CHECK(errorOf("5") == "t.json: not a PyTorch profiler (Kineto) trace: no \"traceEvents\" array");
    CHECK(errorOf(R"({"traceEvents": {}})") ==
          "t.json: not a PyTorch profiler (Kineto) trace: no \"traceEvents\" array");
    // An integer beyond 64 bits is valid JSON (simdjson 3.0 alone would refuse it).
    CHECK(errorOf(R"({"x": 123456789012345678901234567890, "traceEvents": []})") == "no error");
}
