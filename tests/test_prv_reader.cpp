// Reading Paraver traces: real Extrae traces (EPOCH) and traces gpueff writes; counts checked against an
// independent line count (awk on the decompressed file).
#include "engine/common/Error.h"
#include "engine/paraver/PrvReader.h"
#include "tests/TestSupport.h"

#include <doctest/doctest.h>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace testsupport;
using gpueff::paraver::parseHeader;
using gpueff::paraver::TimeUnit;
using gpueff::paraver::Trace;
namespace paraver = gpueff::paraver;

namespace {

std::int64_t shellCount(const std::string& command) {
    auto r = run(command);
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    return std::stoll(r.output);
}

std::size_t eventPairs(const Trace& t) {
    std::size_t n = 0;
    for (const auto& th : t.threads) n += th.eventTime.size();
    return n;
}

std::size_t states(const Trace& t) {
    std::size_t n = 0;
    for (const auto& th : t.threads) n += th.stateBegin.size();
    return n;
}

} // namespace

TEST_CASE("the EPOCH Extrae traces are read whole, gzip included") {
    for (int procs : {1, 2, 4}) {
        auto path = dataDir() / "paraver" / "epoch" / ("epoch_" + std::to_string(procs) + "proc.prv.gz");
        CAPTURE(path);
        Trace t = paraver::readPrv(path);
        CHECK(t.header.unit == TimeUnit::Nanoseconds);
        CHECK(t.header.applications.size() == 1);
        CHECK(t.header.applications[0].size() == static_cast<std::size_t>(procs));
        CHECK(t.threads.size() == static_cast<std::size_t>(procs));
        std::string zcat = "zcat " + path.string();
        CHECK(states(t) == static_cast<std::size_t>(shellCount(zcat + " | grep -c '^1:'")));
        CHECK(t.communications.size() == static_cast<std::size_t>(shellCount(zcat + " | grep -c '^3:'")));
        // Event pairs: (fields - 6) / 2 per event line.
        CHECK(eventPairs(t) == static_cast<std::size_t>(shellCount(
                                   zcat + " | awk -F: '/^2:/ {n += (NF - 6) / 2} END {print n}'")));
        CHECK(t.communicatorLines.size() == t.header.communicators);
        CHECK(t.header.endTime == shellCount(zcat + " | head -1 | sed 's/.*):\\([0-9]*\\)_ns.*/\\1/'"));
        for (const auto& th : t.threads) {
            CHECK(std::is_sorted(th.eventTime.begin(), th.eventTime.end()));
            CHECK(std::is_sorted(th.stateBegin.begin(), th.stateBegin.end()));
        }
    }
}

TEST_CASE("a trace written by gpueff translate reads back with every record") {
    auto dir = tempDir("read-back");
    auto prefix = dir / "mfu";
    auto r = run(gpueffBinary().string() + " translate --quiet " +
                 (dataDir() / "nsys" / "mfu_2gpu_h100_nccl.sqlite").string() + " -o " + prefix.string());
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    Trace t = paraver::readPrv(prefix.string() + ".prv");
    nlohmann::json side;
    std::ifstream(prefix.string() + ".json") >> side;
    std::size_t eventLines =
        static_cast<std::size_t>(shellCount("grep -c '^2:' " + prefix.string() + ".prv"));
    CHECK(eventLines + t.communications.size() == side["trace"]["records"].get<std::size_t>());
    CHECK(t.header.endTime == side["trace"]["duration_ns"].get<std::int64_t>());
    CHECK(t.lastRecordTime == t.header.endTime);
    CHECK(t.threads.size() == side["trace"]["threads"].get<std::size_t>());
    CHECK(t.header.cpusPerNode.size() == side["trace"]["nodes"].get<std::size_t>());
}

TEST_CASE("malformed traces are refused with the file and line, or counted when lenient") {
    auto dir = tempDir("bad-prv");
    auto write = [&](const std::string& name, const std::string& text) {
        auto p = dir / name;
        std::ofstream(p) << text;
        return p;
    };
    const std::string header = "#Paraver (01/01/2024 at 00:00):1000_ns:1(2):1:1(2:1)\n";
    auto bad = write("bad.prv", header + "2:1:1:1:1:10:100:5\n2:1:1:1:1:x:100:5\n");
    try {
        paraver::readPrv(bad);
        FAIL("no error");
    } catch (const gpueff::Error& e) {
        CHECK(std::string(e.what()).find("bad.prv:3:") != std::string::npos);
    }
    paraver::ReadOptions options;
    options.lenient = true;
    Trace lenient = paraver::readPrv(bad, options);
    CHECK(lenient.skippedLines == 1);
    CHECK(eventPairs(lenient) == 1);

    auto undeclared = write("undeclared.prv", header + "2:1:1:1:3:10:100:5\n");
    CHECK_THROWS_WITH_AS(paraver::readPrv(undeclared), doctest::Contains("thread 1.1.3 is not declared"),
                         gpueff::Error);

    auto noHeader = write("noheader.prv", "2:1:1:1:1:10:100:5\n");
    CHECK_THROWS_WITH_AS(paraver::readPrv(noHeader), doctest::Contains("not a Paraver trace"), gpueff::Error);

    auto badHeader = write("badheader.prv", "#Paraver (01/01/2024 at 00:00):1000_ns:1(2):1:1(2:3)\n");
    CHECK_THROWS_WITH_AS(paraver::readPrv(badHeader), doctest::Contains("task on node 3 of 1"),
                         gpueff::Error);

    // A truncated .prv.gz: the first half of a real compressed trace.
    auto src = dataDir() / "paraver" / "epoch" / "epoch_1proc.prv.gz";
    auto truncated = dir / "truncated.prv.gz";
    std::filesystem::copy_file(src, truncated);
    std::filesystem::resize_file(truncated, std::filesystem::file_size(src) / 2);
    CHECK_THROWS_WITH_AS(paraver::readPrv(truncated), doctest::Contains("truncated or corrupt"),
                         gpueff::Error);
}

TEST_CASE("header variants: no resources, several applications, unit suffixes") {
    auto h = parseHeader(
        "#Paraver (09/10/2019 at 16:10):3513565328_ns:1(8):1:8(1:1,1:1,1:1,1:1,1:1,1:1,1:1,1:1),9", "x");
    CHECK(h.endTime == 3513565328);
    CHECK(h.cpusPerNode == std::vector<std::uint32_t>{8});
    CHECK(h.applications[0].size() == 8);
    CHECK(h.communicators == 9);
    auto none = parseHeader("#Paraver (d):5000:0:2:1(4:0),2(1:0,2:0)", "x");
    CHECK(none.unit == TimeUnit::Microseconds);
    CHECK(none.cpusPerNode.empty());
    CHECK(none.applications.size() == 2);
    CHECK(none.totalThreads() == 7);
    auto colon = parseHeader("#Paraver (d):7_ms:2(1,1):2:1(1:1):1(1:2)", "x");
    CHECK(colon.unit == TimeUnit::Milliseconds);
    CHECK(colon.applications[1][0].node == 2);
}

TEST_CASE("header and record variants paramedir accepts (paraver-kernel utils/traceparser)") {
    // Resources "N" without a CPU list: N nodes of one CPU each (ResourceModel: '(' after the ':').
    auto nodes = parseHeader("#Paraver (d):100_ns:2:1:2(1:1,1:2)", "x");
    CHECK(nodes.cpusPerNode == std::vector<std::uint32_t>{1, 1});
    CHECK(nodes.totalCpus() == 2);
    CHECK(nodes.applications[0][1].node == 2);
    // nsys2prv: no resources and a ':' before the task list.
    auto nsys2prv = parseHeader("#Paraver (22/11/2026 at 22:57):1907281226_ns:0:1:1:(2:1)", "x");
    CHECK(nsys2prv.cpusPerNode.empty());
    CHECK(nsys2prv.totalThreads() == 2);
    // The communicator count after ':' as well as ','; paramedir skips one character there.
    CHECK(parseHeader("#Paraver (d):100_ns:1(1):1:1(1:1):2", "x").communicators == 2);
    // Suffixes other than _ns/_ms are microseconds in paramedir (traceheader.h), "_s" included.
    auto seconds = parseHeader("#Paraver (d):100_s:1(1):1:1(1:1)", "x");
    CHECK(seconds.unit == TimeUnit::Microseconds);
    CHECK(seconds.unknownUnitSuffix == "_s");
    CHECK(parseHeader("#Paraver (d):100_us:1(1):1:1(1:1)", "x").unknownUnitSuffix.empty());

    auto t = paraver::readPrvText("#Paraver (d):100_s:1(2):1:1(2:1),1\n"
                                  "C:1:1:1\n"           // communicator line, upper case
                                  "# a comment kept\n"  // comment
                                  "I:internal\n"        // internal line, ignored
                                  "4:1:1:1:1:10:0:0\n"  // global communication, ignored
                                  "2:1:1:1:1:10\n"      // an event record without pairs adds nothing
                                  "2:1:1:1:1:20:7:1:\n" // a ':' after the last pair
                                  "1:2:1:1:2:0:50:1:\n" // ... and after a state
                                  "3:1:1:1:1:5:5:2:1:1:2:9:9:0:1:\n",
                                  "variants.prv");
    CHECK(t.header.unit == TimeUnit::Microseconds);
    CHECK(t.communicatorLines == std::vector<std::string>{"C:1:1:1"});
    CHECK(t.comments == std::vector<std::string>{"# a comment kept"});
    CHECK(eventPairs(t) == 1);
    CHECK(t.threads[0].eventTime == std::vector<std::int64_t>{20});
    CHECK(states(t) == 1);
    CHECK(t.communications.size() == 1);
    // "new format" selects another record syntax in paraver-kernel (TraceBodyIO_v2): refused, not misread.
    CHECK_THROWS_WITH_AS(paraver::readPrvText("new format\n#Paraver (d):100_ns:1(1):1:1(1:1)\n", "v2.prv"),
                         doctest::Contains("v2.prv:1: a \"new format\" trace"), gpueff::Error);
    auto warnings = t.warnings();
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0] ==
          "variants.prv:1: time unit suffix '_s' is not _ns, _us or _ms: read as microseconds, as "
          "Paraver reads it");
}

TEST_CASE(
    "a trace without resources has CPU 0 only, as in paramedir: another CPU is refused naming the line") {
    const std::string header = "#Paraver (d):100_ns:0:1:1:(2:1)\n";
    auto ok = paraver::readPrvText(header + "2:0:1:1:2:10:63000006:1\n2:0:1:1:2:20:63000006:0\n", "ok.prv");
    CHECK(eventPairs(ok) == 2);
    CHECK_THROWS_WITH_AS(paraver::readPrvText(header + "2:0:1:1:1:10:1:1\n2:3:1:1:1:20:1:0\n", "cpu.prv"),
                         doctest::Contains("cpu.prv:3: cpu 3 is not declared in the header"), gpueff::Error);
    paraver::ReadOptions lenient;
    lenient.lenient = true;
    auto skipped = paraver::readPrvText(header + "2:3:1:1:1:20:1:0\n", "cpu.prv", lenient);
    CHECK(skipped.skippedLines == 1);
}

TEST_CASE("a record's CPU must be on its thread's node, as paramedir requires (validRecordLocation)") {
    // Node 1 has CPUs 1-2, node 2 CPUs 3-4; task 1 runs on node 1, task 2 on node 2.
    const std::string header = "#Paraver (d):100_ns:2(2,2):1:2(1:1,1:2)\n";
    auto ok =
        paraver::readPrvText(header + "2:2:1:1:1:10:1:1\n2:3:1:2:1:10:1:1\n2:0:1:2:1:20:1:0\n", "ok.prv");
    CHECK(eventPairs(ok) == 3);
    CHECK_THROWS_WITH_AS(paraver::readPrvText(header + "2:3:1:1:1:10:1:1\n", "node.prv"),
                         doctest::Contains("node.prv:2: cpu 3 is on node 2, thread 1.1.1 runs on node 1"),
                         gpueff::Error);
}
