// analyze in bounded memory: with a memory limit too small for any two analysis units, the analysis reads
// the trace one device or one process at a time from its temporary file (pipeline::ShardSpill) and reduces
// the per-device partials; every figure of the report must be the one the whole trace in memory gives.
// Unit test of the spill: a replay of some units gives their records in stream order, a line between two
// chosen units once, a line to an unchosen unit from the sender's side only.
#include "engine/pipeline/ShardSpill.h"
#include "tests/TestSupport.h"

#include <doctest/doctest.h>

using namespace testsupport;

namespace {

// report.json of `analyze ARGS` (with --memory-limit LIMIT when given) and the command's stderr.
std::pair<std::string, std::string> report(const std::string& args, const std::string& name,
                                           const std::string& limit) {
    auto dir = tempDir("sharded-" + name + (limit.empty() ? "-whole" : "-parts"));
    auto r = run(gpueffBinary().string() + " analyze --no-trace " + args + " -o " + quoted(dir) +
                 (limit.empty() ? "" : " --memory-limit " + limit));
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    return {readText(dir / "report.json"), r.output};
}

class Collect : public gpueff::pipeline::RecordSink {
public:
    void begin(const gpueff::pipeline::StreamInfo&) override {}
    void consume(const gpueff::paraver::TraceRecord& r) override { records.push_back(r); }
    void end(const gpueff::pipeline::StreamLabels&) override {}
    std::vector<gpueff::paraver::TraceRecord> records;
};

} // namespace

TEST_CASE("analyze in parts (--memory-limit) gives the report of the whole trace, on every real export") {
    std::vector<std::pair<std::string, std::string>> cases;
    for (const auto& e : realExports()) cases.push_back({quoted(e), e.stem().string()});
    auto d = dataDir() / "nsys";
    cases.push_back(
        {quoted(d / "mfu_2gpu_h100_nccl.sqlite") + " " + quoted(d / "saxpy_mpi_a100_rank0.sqlite"),
         "two-reports"});
    cases.push_back(
        {quoted(d / "mfu_2gpu_h100_nccl.sqlite") + " --begin 1000000 --end 90000000", "begin-end"});
    for (const auto& [args, name] : cases) {
        CAPTURE(name);
        auto whole = report(args, name, "");
        auto parts = report(args, name, "1K");
        CHECK(whole.second.find(" parts of at most") == std::string::npos);
        CHECK(parts.second.find("analysis in ") != std::string::npos);
        CHECK(!whole.first.empty());
        CHECK(whole.first == parts.first);
    }
}

TEST_CASE("analyze --memory-limit: a value that is not a size is a usage error") {
    auto dir = tempDir("sharded-bad-limit");
    for (const char* bad : {"0", "-5M", "12Q", "lots", "1e30"}) {
        CAPTURE(bad);
        auto r =
            run(gpueffBinary().string() + " analyze " + quoted(dataDir() / "nsys/power_iteration_t4.sqlite") +
                " -o " + quoted(dir / "out") + " --memory-limit " + bad);
        CHECK(r.exitCode == 2);
        CHECK(r.output.find("--memory-limit") != std::string::npos);
        CHECK(!std::filesystem::exists(dir / "out"));
    }
}

TEST_CASE("ShardSpill: a replay gives the chosen units' records in stream order, each line once") {
    namespace paraver = gpueff::paraver;
    gpueff::pipeline::StreamInfo info;
    info.source = "test";
    info.header.endTime = 100;
    info.header.applications = {{paraver::TraceHeader::Task{3, 1}}};
    for (std::uint32_t t = 1; t <= 3; ++t) info.rows.push_back({t, 1, 1, t});
    // Each row is its own unit; event type 7 is not kept.
    paraver::ReadOptions keep;
    keep.eventTypes = {{1, 5}};
    gpueff::pipeline::ShardSpill spill(
        keep,
        [](const paraver::TraceLayout&) {
            return std::vector<std::uint32_t>{0, 1, 2};
        },
        tempDir("sharded-spill"));
    spill.begin(info);
    auto event = [&](std::int64_t time, std::uint32_t row, std::uint32_t type) {
        paraver::TraceRecord r;
        r.time = time;
        r.row = row;
        r.add(type, time);
        spill.consume(r);
    };
    auto line = [&](std::int64_t time, std::uint32_t from, std::uint32_t to) {
        paraver::TraceRecord r;
        r.time = time;
        r.isCommunication = true;
        r.comm = {from, to, time, time, time + 1, time + 1, 8, 42};
        spill.consume(r);
    };
    event(1, 0, 1);
    event(2, 1, 2);
    event(3, 2, 7); // dropped: type not kept
    line(4, 0, 1);
    line(5, 2, 0);
    event(6, 1, 3);
    event(150, 2, 4); // after the header's end
    spill.end({});
    CHECK(spill.records(0) == 2); // event 1, line 4 (line 5 is unit 2's, mirrored here)
    CHECK(spill.records(1) == 2);
    CHECK(spill.records(2) == 2);
    CHECK(spill.totals().eventTypes == std::vector<std::uint32_t>{1, 2, 3, 4});
    CHECK(spill.totals().recordsAfterEnd == 1);
    CHECK(spill.totals().lastRecordTime == 150);
    CHECK(spill.totals().communications.at(42).lines == 2);

    Collect both;
    spill.replay({0, 1}, both);
    std::vector<std::int64_t> times;
    for (const auto& r : both.records) times.push_back(r.time);
    CHECK(times == std::vector<std::int64_t>{1, 2, 4, 5, 6}); // line 4 once; line 5 from its receiver's side
    REQUIRE(both.records.size() == 5);
    CHECK(both.records[2].isCommunication);
    CHECK(both.records[2].comm.recvRow == 1);
    CHECK(both.records[3].comm.sendRow == 2);
    CHECK(both.records[4].pairs[0].type == 3);

    Collect third;
    spill.replay({2}, third);
    times.clear();
    for (const auto& r : third.records) times.push_back(r.time);
    CHECK(times == std::vector<std::int64_t>{5, 150});
}

TEST_CASE("analyze --no-trace reads the reports in turn and gives the report of the merged stream") {
    // With the trace files, every report is open at once and merged into one time order; without them the
    // reports are read one after the other (-j at a time) and only each row's order is kept. Every figure
    // must be the same, with one worker and with two, on several reports of one run.
    auto d = dataDir() / "nsys";
    std::string all;
    for (const auto& e : realExports()) all += " " + quoted(e);
    auto dir = tempDir("in-turn-inputs");
    auto pair =
        quoted(buildDatabase(sourceDir() / "data" / "synthetic" / "mpi_rank0.sql", dir / "r0.sqlite")) + " " +
        quoted(buildDatabase(sourceDir() / "data" / "synthetic" / "mpi_rank1.sql", dir / "r1.sqlite"));
    for (const auto& [args, name] : std::vector<std::pair<std::string, std::string>>{
             {all, "all"}, {pair, "mpi-pair"}, {all + " --region saxpy", "region"}}) {
        CAPTURE(name);
        auto merged = tempDir("in-turn-merged-" + name);
        auto r = run(gpueffBinary().string() + " analyze -q --name t " + args + " -o " + quoted(merged));
        REQUIRE_MESSAGE(r.exitCode == 0, r.output);
        auto expected = readText(merged / "report.json");
        auto prv = (merged / "t.prv").string();
        for (std::size_t at; (at = expected.find(prv)) != std::string::npos;)
            expected.replace(at, prv.size(), "");
        for (const char* jobs : {"1", "2"}) {
            CAPTURE(jobs);
            auto inTurn = tempDir("in-turn-" + name + "-" + jobs);
            auto s = run(gpueffBinary().string() + " analyze -q --no-trace -j " + jobs + " " + args + " -o " +
                         quoted(inTurn));
            REQUIRE_MESSAGE(s.exitCode == 0, s.output);
            // The report names the trace it describes: the .prv, none without one.
            auto got = readText(inTurn / "report.json");
            CHECK(got == expected);
        }
    }
}
