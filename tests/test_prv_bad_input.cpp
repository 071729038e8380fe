// Bad Paraver traces, .pcf and .row files given to gpueff histogram / modelfactors / analyze: each class is
// refused with one line naming the file and line (exit 1), leaves no output and the previous outputs
// byte-identical; or, where Paraver itself accepts it (records after the header's end time), the outcome is
// stated on stderr and the number it changes is checked against hand arithmetic.
#include "engine/common/Error.h"
#include "engine/paraver/PrvReader.h"
#include "engine/paraver/TraceLabels.h"
#include "tests/TestSupport.h"

#include <doctest/doctest.h>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

using namespace testsupport;
namespace fs = std::filesystem;
namespace paraver = gpueff::paraver;

namespace {

const std::string kGoodTrace = "#Paraver (01/01/2020 at 00:00):100_ns:1(1):1:1(1:1)\n"
                               "1:1:1:1:1:0:60:1\n1:1:1:1:1:60:100:0\n";

fs::path cfg(const char* name) {
    return dataDir() / "paraver" / "cfgs" / name;
}

void writeFile(const fs::path& p, const std::string& bytes) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
}

std::set<std::string> listing(const fs::path& dir) {
    std::set<std::string> names;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        names.insert(fs::relative(e.path(), dir).string());
    return names;
}

// Runs `good` (which must succeed and write into `out`), then `bad`: exit 1, one error line containing
// `needle`, and `out` exactly as `good` left it (same files, same bytes, no temporaries).
void expectRefusedKeepingOutputs(const std::string& good, const std::string& bad, const fs::path& out,
                                 const std::string& needle) {
    auto first = run(gpueffBinary().string() + " " + good);
    REQUIRE_MESSAGE(first.exitCode == 0, first.output);
    auto before = listing(out);
    REQUIRE(!before.empty());
    std::map<std::string, std::string> bytes;
    for (const auto& name : before)
        if (fs::is_regular_file(out / name)) bytes[name] = readText(out / name);
    auto r = run(gpueffBinary().string() + " " + bad);
    CHECK_MESSAGE(r.exitCode == 1, r.output);
    CHECK_MESSAGE(r.output.find("gpueff: error: ") != std::string::npos, r.output);
    CHECK_MESSAGE(r.output.find(needle) != std::string::npos, "expected '" << needle << "' in: " << r.output);
    CHECK_MESSAGE(r.output.find("internal error") == std::string::npos, r.output);
    CHECK(listing(out) == before);
    for (const auto& [name, content] : bytes) CHECK_MESSAGE(readText(out / name) == content, name);
}

// `gpueff histogram` of a bad trace into a directory that holds the good trace's histogram.
void expectHistogramRefused(const std::string& name, const std::string& badTrace, const std::string& needle,
                            const std::string& pcf = "", const std::string& row = "") {
    auto dir = tempDir("prv_bad_" + name);
    writeFile(dir / "good" / "t.prv", kGoodTrace);
    writeFile(dir / "bad" / "t.prv", badTrace);
    if (!pcf.empty()) writeFile(dir / "bad" / "t.pcf", pcf);
    if (!row.empty()) writeFile(dir / "bad" / "t.row", row);
    auto out = dir / "out";
    auto args = [&](const char* which) {
        return "histogram -q " + (dir / which / "t.prv").string() + " " + cfg("total_runtime.cfg").string() +
               " -o " + out.string();
    };
    expectRefusedKeepingOutputs(args("good"), args("bad"), out, needle);
}

} // namespace

TEST_CASE("prv: a 50-byte header declaring 10^7..10^9 threads or CPUs is refused before allocating") {
    for (const char* threads : {"10000000", "1000000000"})
        expectHistogramRefused(std::string("threads") + threads,
                               std::string("#Paraver (d):100_ns:1(1):1:1(") + threads + ":1)\n",
                               std::string("t.prv:1: header declares ") + threads +
                                   " threads, more than gpueff's limit of 1000000");
    expectHistogramRefused("cpus", "#Paraver (d):100_ns:1(1000000000):1:1(1:1)\n",
                           "t.prv:1: header declares 1000000000 CPUs, more than gpueff's limit of 1000000");
    // Under the limit per task, over it in all: the sum is checked, not each number.
    expectHistogramRefused("sum", "#Paraver (d):100_ns:1(1):1:2(600000:1,600000:1)\n",
                           "t.prv:1: header declares at least 1200000 threads");
}

TEST_CASE("prv: header numbers are range-checked, never wrapped") {
    // 2^32 + 1 threads used to be read as 1 thread; 2^64 - 1 as an end time of -1.
    expectHistogramRefused("wrap", "#Paraver (d):100_ns:1(1):1:1(4294967297:1)\n1:1:1:1:1:0:60:1\n",
                           "t.prv:1: header declares 4294967297 threads");
    expectHistogramRefused("endmax", "#Paraver (d):18446744073709551615_ns:1(1):1:1(1:1)\n",
                           "t.prv:1: bad Paraver header (end time 18446744073709551615 is out of range");
    expectHistogramRefused("endover", "#Paraver (d):99999999999999999999999_ns:1(1):1:1(1:1)\n",
                           "t.prv:1: bad Paraver header (end time 99999999999999999999999 is out of range");
    expectHistogramRefused("endneg", "#Paraver (d):-100_ns:1(1):1:1(1:1)\n",
                           "t.prv:1: bad Paraver header (end time must not be negative");
    expectHistogramRefused("threadsneg", "#Paraver (d):100_ns:1(1):1:1(-1:1)\n",
                           "t.prv:1: bad Paraver header (number of threads must not be negative");
    expectHistogramRefused("node", "#Paraver (d):100_ns:1(1):1:1(1:4294967296)\n",
                           "t.prv:1: bad Paraver header (node 4294967296 is out of range");
    expectHistogramRefused("comms", "#Paraver (d):100_ns:1(1):1:1(1:1),4294967296\n",
                           "t.prv:1: bad Paraver header (number of communicators 4294967296 is out of range");
    // Found by fuzzing: a task of 0 threads left the task level with nothing to aggregate (an empty row read
    // out of bounds under --lenient, where the lone record of thread 1.1.1 was skipped).
    expectHistogramRefused("taskzero", "#Paraver (d):100_ns:1(1):1:1(0:1)\n2:1:1:1:1:10:7:92\n",
                           "t.prv:1: bad Paraver header (a task without threads");
}

TEST_CASE("prv: negative record times are refused, or skipped and counted under --lenient") {
    const std::string header = "#Paraver (d):100_ns:1(1):1:1(1:1)\n";
    expectHistogramRefused("negstate", header + "1:1:1:1:1:0:60:1\n1:1:1:1:1:-5:50:1\n",
                           "t.prv:3: negative state begin time -5: 1:1:1:1:1:-5:50:1");
    expectHistogramRefused("negevent", header + "2:1:1:1:1:-1:42000050:7\n",
                           "t.prv:2: negative event time -1");
    expectHistogramRefused("negcomm",
                           "#Paraver (d):100_ns:1(2):1:2(1:1,1:1)\n3:1:1:1:1:10:11:2:1:2:1:-3:20:8:1\n",
                           "t.prv:2: negative logical receive time -3");
    expectHistogramRefused(
        "hugetime", header + "2:1:1:1:1:9223372036854775807:1:1\n",
        "t.prv:2: event time 9223372036854775807 is beyond gpueff's limit of 2305843009213693952");

    // --lenient: the record is skipped, the warning names the first one, and the useful time is the 60 ns of
    // the valid record alone (the skipped one would have made it 0..60 plus -5..50).
    auto dir = tempDir("prv_bad_lenient");
    writeFile(dir / "t.prv", header + "1:1:1:1:1:0:60:1\n1:1:1:1:1:-5:50:1\n");
    auto r = run(gpueffBinary().string() + " histogram -q --lenient " + (dir / "t.prv").string() + " " +
                 cfg("total_useful_computation.cfg").string() + " -o " + (dir / "out").string());
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    CHECK_MESSAGE(
        r.output.find("gpueff: warning: " + (dir / "t.prv").string() +
                      ": 1 malformed line skipped (--lenient); the first: " + (dir / "t.prv").string() +
                      ":3: negative state begin time -5") != std::string::npos,
        r.output);
    auto text = readText(dir / "out" / "total_useful_computation.txt");
    CHECK_MESSAGE(text.find("THREAD 1.1.1\t60.00\t") != std::string::npos, text);
}

TEST_CASE("prv: a state that ends before it begins, and objects outside the header") {
    const std::string header = "#Paraver (d):100_ns:1(2):1:1(1:1)\n";
    expectHistogramRefused("reversed", header + "1:1:1:1:1:50:40:1\n",
                           "t.prv:2: state ends at 40, before it begins at 50");
    expectHistogramRefused("appl", header + "1:1:2:1:1:0:40:1\n", "t.prv:2: thread 2.1.1 is not declared");
    expectHistogramRefused("task", header + "1:1:1:2:1:0:40:1\n", "t.prv:2: thread 1.2.1 is not declared");
    expectHistogramRefused("thread", header + "2:1:1:1:2:5:1:1\n", "t.prv:2: thread 1.1.2 is not declared");
    expectHistogramRefused("cpu", header + "1:3:1:1:1:0:40:1\n", "t.prv:2: cpu 3 is not declared");
    expectHistogramRefused("cpuwrap", header + "1:4294967297:1:1:1:0:40:1\n", "t.prv:2: bad object fields");
    expectHistogramRefused("binary", header + "1:1:1:1:1:0:\xff\x01:1\n",
                           "t.prv:2: bad state record: 1:1:1:1:1:0:\\xff\\x01:1");
}

TEST_CASE("prv: records after the header's end time move the end, as in Paraver, and say so") {
    // One thread Running for the whole header span 0..1000 ns, then an idle state to 10000 ns. Paraver (and
    // paramedir) take the trace to end at its last record, 10000 ns: parallel efficiency is 1000 / 10000 =
    // 10 %, not the 100 % the header's span alone would give. The number changes; stderr says why.
    auto dir = tempDir("prv_after_end");
    writeFile(dir / "t.prv",
              "#Paraver (d):1000_ns:1(1):1:1(1:1)\n1:1:1:1:1:0:1000:1\n1:1:1:1:1:1000:10000:0\n");
    auto r = run(gpueffBinary().string() + " modelfactors -q " + (dir / "t.prv").string() + " --csv " +
                 (dir / "mf.csv").string());
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    CHECK_MESSAGE(r.output.find("gpueff: warning: " + (dir / "t.prv").string() +
                                ": 1 record after the header's end time 1000 ns: the trace ends at its last "
                                "record, 10000 ns, as in Paraver") != std::string::npos,
                  r.output);
    auto csv = readText(dir / "mf.csv");
    CHECK_MESSAGE(csv.find("Parallel efficiency;10.000000") != std::string::npos, csv);
    CHECK_MESSAGE(csv.find("Runtime (us);10.00") != std::string::npos, csv);
}

TEST_CASE("modelfactors: a header-only trace and a trace never Running are refused, not PE 100 %") {
    auto dir = tempDir("prv_mf_empty");
    writeFile(dir / "good.prv", kGoodTrace);
    writeFile(dir / "header.prv", "#Paraver (d):100_ns:1(1):1:1(1:1)\n");
    writeFile(dir / "idle.prv", "#Paraver (d):100_ns:1(1):1:1(1:1)\n1:1:1:1:1:0:100:3\n");
    auto out = dir / "out";
    fs::create_directories(out);
    auto args = [&](const char* trace) {
        return "modelfactors -q " + (dir / trace).string() + " --csv " + (out / "mf.csv").string() +
               " --json " + (out / "mf.json").string();
    };
    expectRefusedKeepingOutputs(args("good.prv"), args("header.prv"), out,
                                "header.prv: the trace has no records, only a header: no model factors");
    expectRefusedKeepingOutputs(args("good.prv"), args("idle.prv"), out,
                                "idle.prv: no thread is ever in state 1 (Running)");
    // Running for no time: useful time 0 would divide the computation scalability by zero.
    writeFile(dir / "instant.prv", "#Paraver (d):100_ns:1(1):1:1(1:1)\n1:1:1:1:1:5:5:1\n");
    expectRefusedKeepingOutputs(args("good.prv"), args("instant.prv"), out,
                                "instant.prv: no thread is ever in state 1 (Running) for any time");
}

TEST_CASE("analyze: a Paraver trace with a corrupt header is refused and the previous report kept") {
    auto dir = tempDir("prv_analyze");
    writeFile(dir / "bad.prv", "#Paraver (d):100_ns:1(1):1:1(1000000000:1)\n");
    auto out = dir / "out";
    auto sample = dataDir() / "nsys" / "mfu_2gpu_h100_nccl.sqlite";
    expectRefusedKeepingOutputs("analyze --quiet " + sample.string() + " -o " + out.string() + " --name run",
                                "analyze --quiet " + (dir / "bad.prv").string() + " -o " + out.string(), out,
                                "bad.prv:1: header declares 1000000000 threads");
    // A trace timed in microseconds: every duration of the report would be 1000 times too small under "ns".
    writeFile(dir / "us.prv",
              "#Paraver (d):100:1(1):1:1(1:1)\n2:1:1:1:1:10:63000006:1\n2:1:1:1:1:20:63000006:0\n");
    expectRefusedKeepingOutputs("analyze --quiet " + sample.string() + " -o " + out.string() + " --name run",
                                "analyze --quiet " + (dir / "us.prv").string() + " -o " + out.string(), out,
                                "us.prv:1: analyze reads traces timed in nanoseconds");
}

TEST_CASE("pcf: malformed or out-of-range numbers name the line") {
    const std::string trace = "#Paraver (d):100_ns:1(1):1:1(1:1)\n1:1:1:1:1:0:60:1\n";
    expectHistogramRefused("pcf_type", trace, "t.pcf:3: bad event type (not a whole number)",
                           "EVENT_TYPE\n0 63000006 CUDA kernel\n0 12abc label\n");
    expectHistogramRefused("pcf_state", trace, "t.pcf:2: state 4294967296 is out of range",
                           "STATES\n4294967296 Running\n");
    expectHistogramRefused("pcf_value", trace, "t.pcf:4: event value 99999999999999999999 is out of range",
                           "EVENT_TYPE\n0 7 x\nVALUES\n99999999999999999999 big\n");
}

TEST_CASE("row: SIZE must be a number in range and agree with the header") {
    const std::string trace = "#Paraver (d):100_ns:1(1):1:1(1:1)\n1:1:1:1:1:0:60:1\n";
    // "-1" used to be read by istream as 2^64 - 1, "1e12" as 1.
    expectHistogramRefused("row_negative", trace,
                           "t.row:1: SIZE must be a whole number from 0 to 1000000, got -1", "",
                           "LEVEL THREAD SIZE -1\nx\n");
    expectHistogramRefused("row_huge", trace,
                           "t.row:1: SIZE must be a whole number from 0 to 1000000, got 1000000000000", "",
                           "LEVEL FOO SIZE 1000000000000\nx\n");
    expectHistogramRefused("row_float", trace,
                           "t.row:1: SIZE must be a whole number from 0 to 1000000, got 1e12", "",
                           "LEVEL THREAD SIZE 1e12\nx\n");
    expectHistogramRefused("row_other", trace, "t.row:1: THREAD has 2 names but the trace has 1", "",
                           "LEVEL THREAD SIZE 2\na\nb\n");
    expectHistogramRefused("row_appl", trace, "t.row:1: APPL has 2 names but the trace has 1", "",
                           "LEVEL APPL SIZE 2\na\nb\n");
    expectHistogramRefused("row_short", trace, "t.row: truncated: 1 names missing", "",
                           "LEVEL THREAD SIZE 1\n");
}

TEST_CASE("labels: invalid UTF-8 in .pcf and .row becomes U+FFFD, so histogram --json writes them") {
    auto dir = tempDir("prv_utf8");
    writeFile(dir / "t.prv", "#Paraver (d):100_ns:1(1):1:1(1:1)\n1:1:1:1:1:0:60:1\n");
    writeFile(dir / "t.row", "LEVEL THREAD SIZE 1\nworker\xff\xfe\n");
    writeFile(dir / "t.pcf", "STATES\n0 Idle\n1 Run\xc3\x28ning\n");
    auto r = run(gpueffBinary().string() + " histogram -q --json " + (dir / "t.prv").string() + " " +
                 cfg("total_runtime.cfg").string() + " -o " + (dir / "out").string());
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    auto json = readText(dir / "out" / "total_runtime.json");
    CHECK_MESSAGE(json.find("\"worker\xEF\xBF\xBD\xEF\xBF\xBD\"") != std::string::npos, json);

    paraver::TraceLabels labels;
    std::istringstream pcf("STATES\n1 Run\xc3\x28ning\n2 caf\xc3\xa9\n3 \xed\xa0\x80\n");
    paraver::readPcf(pcf, "t.pcf", labels);
    CHECK(labels.states[1] == "Run\xEF\xBF\xBD(ning");                 // a lead byte without its continuation
    CHECK(labels.states[2] == "caf\xc3\xa9");                          // valid UTF-8 is kept as it is
    CHECK(labels.states[3] == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"); // a UTF-16 surrogate is not UTF-8
}

TEST_CASE("prv: the in-memory reader reads what the file reader reads") {
    auto dir = tempDir("prv_memory");
    const std::string text = "#Paraver (d):100_ns:1(2):1:2(1:1,1:1)\n1:1:1:1:1:0:60:1\n"
                             "2:2:1:2:1:70:5:9\n3:1:1:1:1:10:11:2:1:2:1:20:21:8:1\n";
    writeFile(dir / "t.prv", text);
    auto fromFile = paraver::readPrv(dir / "t.prv");
    auto fromMemory = paraver::readPrvText(text, "t.prv");
    CHECK(fromMemory.threads.size() == fromFile.threads.size());
    CHECK(fromMemory.communications.size() == 1);
    CHECK(fromMemory.threads[1].eventTime == fromFile.threads[1].eventTime);
    CHECK(fromMemory.endTime() == 100);
    CHECK_THROWS_WITH_AS(paraver::readPrvText(text + "1:1:1:1:1:5:4:1\n", "m.prv"),
                         doctest::Contains("m.prv:5: state ends at 4, before it begins at 5"), gpueff::Error);
}

TEST_CASE("histogram: an event value near 2^63 labels its column without an out-of-range conversion") {
    // The value becomes the double 2^63, which no int64 holds: the label lookup used to convert it anyway
    // (undefined behaviour, caught by the sanitizer build). The column is labelled by its number instead.
    auto dir = tempDir("prv_value_label");
    writeFile(dir / "t.prv", "#Paraver (d):100_ns:1(1):1:1(1:1)\n2:1:1:1:1:10:7:9223372036854775807\n");
    writeFile(dir / "t.pcf", "EVENT_TYPE\n0 7 big\nVALUES\n9223372036854775807 largest\n");
    writeFile(dir / "v.cfg", "#ParaverCFG\nwindow_name v\nwindow_type single\nwindow_level thread\n"
                             "window_units Nanoseconds\nwindow_selected_functions { 2, { {thread, Last Evt Val}, {evt_type, =} } }\n"
                             "window_filter_module evt_type 1 7\n< NEW ANALYZER2D >\n"
                             "Analyzer2D.ControlWindow: 1\nAnalyzer2D.Statistic: Time\n"
                             "Analyzer2D.ComputeYScale: True\n");
    auto r = run(gpueffBinary().string() + " histogram -q " + (dir / "t.prv").string() + " " +
                 (dir / "v.cfg").string() + " -o " + (dir / "out").string());
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    auto text = readText(dir / "out" / "v.txt");
    CHECK_MESSAGE(text.find("value 9,223,372,036,854,775,808") != std::string::npos, text);
    CHECK_MESSAGE(text.find("THREAD 1.1.1\t90.00\t") != std::string::npos, text); // 10 .. 100 ns
}
