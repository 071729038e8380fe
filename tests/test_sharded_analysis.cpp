// analyze in bounded memory: with a memory limit too small for any two analysis units, the analysis reads
// the trace one device or one process at a time from its temporary file (pipeline::ShardSpill) and reduces
// the per-device partials; every figure of the report must be the one the whole trace in memory gives.
// Unit test of the spill: a replay of some units gives their records in stream order, a line between two
// chosen units once, a line to an unchosen unit from the sender's side only.
#include "engine/pipeline/ShardSpill.h"
#include "tests/TestSupport.h"

#include <doctest/doctest.h>
#include <thread>
#include <tuple>

using namespace testsupport;

namespace {

// report.json of `analyze -j JOBS ARGS` (with --memory-limit LIMIT when given) and the command's stderr.
std::pair<std::string, std::string> report(const std::string& args, const std::string& name,
                                           const std::string& jobs, const std::string& limit) {
    auto dir = tempDir("sharded-" + name + "-j" + jobs + (limit.empty() ? "-whole" : "-parts"));
    auto r = run(gpueffBinary().string() + " analyze --no-trace -j " + jobs + " " + args + " -o " +
                 quoted(dir) + (limit.empty() ? "" : " --memory-limit " + limit));
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

TEST_CASE("ShardSpill: events set apart replay alone or are left out, on the marked rows only") {
    namespace paraver = gpueff::paraver;
    using gpueff::pipeline::ReplayPart;
    gpueff::pipeline::StreamInfo info;
    info.source = "test";
    info.header.endTime = 100;
    info.header.applications = {{paraver::TraceHeader::Task{2, 1}}};
    for (std::uint32_t t = 1; t <= 2; ++t) info.rows.push_back({t, 1, 1, t});
    // Both rows in unit 0; types 10..19 may be set apart.
    gpueff::pipeline::ShardSpill spill(paraver::ReadOptions{},
                                       [](const paraver::TraceLayout&) {
                                           return std::vector<std::uint32_t>{0, 0};
                                       },
                                       tempDir("sharded-spill-apart"), {{10, 19}});
    spill.begin(info);
    auto record = [&](std::int64_t time, std::uint32_t row, std::vector<std::uint32_t> types) {
        paraver::TraceRecord r;
        r.time = time;
        r.row = row;
        for (auto t : types) r.add(t, time * 100 + t);
        spill.consume(r);
    };
    record(1, 0, {10});    // apart alone
    record(2, 0, {1, 11}); // mixed
    record(3, 1, {12});    // apart type on a row not marked
    record(4, 0, {2});     // nothing apart
    paraver::TraceRecord state;
    state.time = 5;
    state.row = 0;
    state.isState = true;
    state.state = {6, 1};
    spill.consume(state);
    spill.end({});
    const std::vector<bool> marked{true, false};

    // (time, row, type) of every event a replay gives, and its states.
    auto replayed = [&](ReplayPart part) {
        Collect c;
        spill.replay({0}, c, part, &marked);
        std::vector<std::tuple<std::int64_t, std::uint32_t, std::uint32_t>> events;
        std::size_t states = 0;
        for (const auto& r : c.records) {
            states += r.isState;
            for (std::uint8_t i = 0; i < r.pairCount; ++i) {
                CHECK(r.pairs[i].value == r.time * 100 + r.pairs[i].type);
                events.push_back({r.time, r.row, r.pairs[i].type});
            }
        }
        return std::pair{events, states};
    };
    using E = std::vector<std::tuple<std::int64_t, std::uint32_t, std::uint32_t>>;
    CHECK(replayed(ReplayPart::Apart) == std::pair{E{{1, 0, 10}, {2, 0, 11}}, std::size_t{0}});
    CHECK(replayed(ReplayPart::Rest) == std::pair{E{{2, 0, 1}, {3, 1, 12}, {4, 0, 2}}, std::size_t{1}});
    CHECK(replayed(ReplayPart::All) ==
          std::pair{E{{1, 0, 10}, {2, 0, 1}, {2, 0, 11}, {3, 1, 12}, {4, 0, 2}}, std::size_t{1}});
    // The Rest's sizes: row 0 keeps 2 of its 4 events; the unit 4 of its 5 records (one held only type 10).
    auto rest = spill.expected({0}, &marked);
    CHECK(rest.rows.at(0).events == 2);
    CHECK(rest.rows.at(1).events == 1);
    CHECK(spill.expected({0}).rows.at(0).events == 4);
    CHECK(spill.records(0) == 5);
    CHECK(spill.recordsLeft(0, marked) == 4);
    CHECK(spill.recordsLeft(0, {false, false}) == 5);
    Collect none;
    CHECK_THROWS_AS(spill.replay({0}, none, ReplayPart::Apart), std::logic_error);
}

TEST_CASE(
    "analyze in parts (--memory-limit) and on workers (-j) gives the report of the whole trace, on every "
    "real export") {
    // -j 1 with the trace in memory reads it in one look; -j 3 deals the units into three shards kept in
    // memory and looked at by three workers; with a tiny limit every unit is a shard, read one at a time
    // (-j 1) or three at a time (-j 3).
    std::vector<std::pair<std::string, std::string>> cases;
    for (const auto& e : realExports()) cases.push_back({quoted(e), e.stem().string()});
    auto d = dataDir() / "nsys";
    cases.push_back(
        {quoted(d / "mfu_2gpu_h100_nccl.sqlite") + " " + quoted(d / "saxpy_mpi_a100_rank0.sqlite"),
         "two-reports"});
    cases.push_back(
        {quoted(d / "mfu_2gpu_h100_nccl.sqlite") + " --begin 1000000 --end 90000000", "begin-end"});
    // Under a limit the host events (NVTX ranges, API calls) stream from the temporary file to the window's
    // --region and markers, HTA's evidence (a Kineto trace's ProfilerSteps and stream payloads) and
    // nsys_stats' host summaries.
    cases.push_back({quoted(d / "mfu_2gpu_h100_nccl.sqlite") + " --region ncclSend", "region"});
    cases.push_back({quoted(dataDir() / "kineto" / "trace_filter_sampled_rank-0.json.gz") + " " +
                         quoted(dataDir() / "kineto" / "trace_filter_sampled_rank-1.json.gz"),
                     "kineto"});
    for (const auto& [args, name] : cases) {
        CAPTURE(name);
        auto whole = report(args, name, "1", "");
        CHECK(whole.second.find(" parts of at most") == std::string::npos);
        CHECK(!whole.first.empty());
        for (const char* jobs : {"1", "3"}) {
            CAPTURE(jobs);
            auto parts = report(args, name, jobs, "1K");
            CHECK(parts.second.find("analysis in ") != std::string::npos);
            CHECK(whole.first == parts.first);
        }
        auto workers = report(args, name, "3", "");
        CHECK(workers.second.find(" parts of at most") == std::string::npos);
        CHECK(whole.first == workers.first);
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

TEST_CASE(
    "ShardSpill: parts spilled through lanes from threads at once replay as if consumed one after another") {
    // Three parts (reports read in turn) over four rows, each row its own unit: part 1 shares row 1 with
    // part 0, part 2 sends lines between rows of other parts. Blocks of 32 KiB fill and are written while
    // the other lanes write theirs, so the file interleaves the parts' runs.
    namespace paraver = gpueff::paraver;
    gpueff::pipeline::StreamInfo info;
    info.source = "test";
    info.header.endTime = 1'000'000;
    info.header.applications = {{paraver::TraceHeader::Task{4, 1}}};
    for (std::uint32_t t = 1; t <= 4; ++t) info.rows.push_back({t, 1, 1, t});
    paraver::ReadOptions keep;
    keep.eventTypes = {{1, 9}};
    auto part = [](std::size_t p) {
        std::vector<paraver::TraceRecord> out;
        for (std::int64_t i = 0; i < 5000; ++i) {
            paraver::TraceRecord r;
            r.time = i * 10 + static_cast<std::int64_t>(p);
            if (p == 2 && i % 3 == 0) {
                r.isCommunication = true;
                auto from = static_cast<std::uint32_t>(i % 4), to = static_cast<std::uint32_t>((i + 1) % 4);
                r.comm = {from, to, r.time, r.time, r.time + 1, r.time + 1, 8, 7};
            } else {
                r.row = static_cast<std::uint32_t>(p == 0 ? i % 2 : 1 + i % 2 + (p == 2 ? 1 : 0));
                r.add(static_cast<std::uint32_t>(1 + (i + p) % 8), i);
                if (i % 5 == 0) r.add(20, i); // not kept
            }
            out.push_back(r);
        }
        return out;
    };
    auto spillOf = [&](const std::string& name) {
        return std::make_unique<gpueff::pipeline::ShardSpill>(
            keep,
            [](const paraver::TraceLayout&) {
                return std::vector<std::uint32_t>{0, 1, 2, 3};
            },
            tempDir("spill-lanes-" + name));
    };
    auto inTurn = spillOf("in-turn"), lanes = spillOf("lanes");
    inTurn->begin(info);
    for (std::size_t p = 0; p < 3; ++p)
        for (const auto& r : part(p)) inTurn->consume(r);
    inTurn->end({});
    lanes->begin(info);
    std::vector<std::thread> threads;
    for (std::size_t p : {2, 0, 1})
        threads.emplace_back([&, p] {
            auto* lane = lanes->openLane(p);
            for (const auto& r : part(p)) lane->consume(r);
            lanes->closeLane(p);
        });
    for (auto& t : threads) t.join();
    lanes->end({});

    REQUIRE(lanes->units() == inTurn->units());
    for (std::uint32_t u = 0; u < 4; ++u) CHECK(lanes->records(u) == inTurn->records(u));
    CHECK(lanes->totals().eventTypes == inTurn->totals().eventTypes);
    CHECK(lanes->totals().eventTypes.size() == 8);
    CHECK(lanes->totals().communications.at(7).lines == inTurn->totals().communications.at(7).lines);
    CHECK(lanes->totals().lastRecordTime == inTurn->totals().lastRecordTime);
    auto key = [](const paraver::TraceRecord& r) {
        return std::tuple{r.time,
                          r.row,
                          r.isCommunication,
                          r.pairCount,
                          r.pairCount ? r.pairs[0].type : 0,
                          r.isCommunication ? r.comm.recvRow : 0};
    };
    for (const auto& units : std::vector<std::vector<std::uint32_t>>{{0, 1, 2, 3}, {1}, {0, 3}}) {
        Collect a, b;
        inTurn->replay(units, a);
        lanes->replay(units, b);
        REQUIRE(a.records.size() == b.records.size());
        CHECK(!a.records.empty());
        std::size_t same = 0;
        for (std::size_t i = 0; i < a.records.size(); ++i) same += key(a.records[i]) == key(b.records[i]);
        CHECK(same == a.records.size());
    }
}

TEST_CASE("analyze --no-trace reads the reports in turn and gives the report of the merged stream") {
    // With the trace files, every report is open at once and merged into one time order; without them the
    // reports are read one after the other (-j at a time, each on a worker into its lane of the analysis'
    // spill) and only each row's order is kept. Every figure must be the same, with one worker and with
    // two, on several reports of one run.
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
        // With the trace and one worker, the analysis gets the merged stream itself; with two, each report's
        // records from its worker, in turn.
        auto withTrace = [&](const char* jobs) {
            auto merged = tempDir("in-turn-merged-" + name + "-" + jobs);
            auto r = run(gpueffBinary().string() + " analyze -q --name t -j " + jobs + " " + args + " -o " +
                         quoted(merged));
            REQUIRE_MESSAGE(r.exitCode == 0, r.output);
            auto report = readText(merged / "report.json");
            auto prv = (merged / "t.prv").string();
            for (std::size_t at; (at = report.find(prv)) != std::string::npos;)
                report.replace(at, prv.size(), "");
            return std::pair{report, readText(merged / "t.prv")};
        };
        auto [expected, prv] = withTrace("1");
        auto [fromWorkers, prvFromWorkers] = withTrace("2");
        CHECK(fromWorkers == expected);
        CHECK(prvFromWorkers == prv);
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

TEST_CASE("analyze with the trace: many reports under a memory limit are read in turn into a temporary file, "
          "the same trace and report") {
    // Every real export as one run: each open report would take kOpenReportBytes, far above a 1 KB limit,
    // so the workers read them one after the other into a temporary file, and the merge reads it back.
    std::string inputs;
    for (const auto& e : realExports()) inputs += " " + quoted(e);
    auto outputs = [&](const std::string& name, const char* jobs, const std::string& limit) {
        auto dir = tempDir("spilled-reports-" + name);
        auto r = run(gpueffBinary().string() + " analyze --name t -j " + jobs + inputs + " -o " +
                     quoted(dir) + (limit.empty() ? "" : " --memory-limit " + limit));
        REQUIRE_MESSAGE(r.exitCode == 0, r.output);
        std::map<std::string, std::string> files;
        for (const char* f : {"t.prv", "t.pcf", "t.row", "t.json", "report.json", "report.md"}) {
            auto text = readText(dir / f);
            // The report names its trace: the same file name in another directory.
            for (auto at = text.find(dir.string()); at != std::string::npos; at = text.find(dir.string()))
                text.replace(at, dir.string().size(), "DIR");
            files[f] = text;
        }
        return std::pair{files, r.output};
    };
    auto whole = outputs("whole", "3", "");
    CHECK(whole.second.find("read in turn") == std::string::npos);
    for (const char* jobs : {"1", "3"}) {
        CAPTURE(jobs);
        auto spilled = outputs(std::string("spilled-j") + jobs, jobs, "1K");
        CHECK_MESSAGE(spilled.second.find("read in turn, their records kept on disk") != std::string::npos,
                      spilled.second);
        for (const auto& [file, text] : whole.first) {
            CAPTURE(file);
            CHECK(spilled.first.at(file) == text);
        }
    }
}
