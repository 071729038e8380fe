// All-or-nothing outputs, the output directory lock, exit codes and scratch directories of every command.
// A failure at the final moves (a directory where one output goes) must leave the previous outputs
// byte-identical and nothing temporary behind; a second run into a locked directory fails at once.
#include "engine/common/Error.h"
#include "engine/output/OutputFiles.h"
#include "tests/TestSupport.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sys/file.h>
#include <unistd.h>

using namespace testsupport;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string bin() {
    return quoted(gpueffBinary());
}

void writeText(const fs::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
}

// Every entry under dir (hidden ones included): file contents, or "<dir>" for a directory.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
    std::map<std::string, std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        auto rel = fs::relative(e.path(), dir).string();
        out[rel] = e.is_directory() ? "<dir>" : readText(e.path());
    }
    return out;
}

// Names a failed or finished run must not leave: temporaries, staging directories, backups, the lock.
std::vector<std::string> leftovers(const fs::path& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        auto name = e.path().filename().string();
        if (name.find(".tmp") != std::string::npos || name.find(".gpueff") != std::string::npos ||
            name.find("previous") != std::string::npos)
            out.push_back(e.path().string());
    }
    return out;
}

fs::path fixture(const std::string& name, const fs::path& dir) {
    return buildDatabase(sourceDir() / "data" / "synthetic" / (name + ".sql"), dir / (name + ".sqlite"));
}

std::string analyzeCommand(const fs::path& input, const fs::path& out) {
    return bin() + " analyze " + quoted(input) + " -q --name run -o " + quoted(out);
}

json readJson(const fs::path& p) {
    std::ifstream in(p);
    return json::parse(in);
}

} // namespace

TEST_CASE("outputs: a failure in the middle of the moves restores every previous file") {
    auto dir = tempDir("outputs-rollback");
    writeText(dir / "a.txt", "old a");
    writeText(dir / "b.txt", "old b");
    auto before = snapshot(dir);
    {
        gpueff::output::OutputFiles out({dir / "a.txt", dir / "b.txt", dir / "c.txt"});
        for (std::size_t i = 0; i < out.size(); ++i) writeText(out.temporary(i), "new " + std::to_string(i));
        int moves = 0;
        out.setMoveForTesting([&moves](const fs::path& from, const fs::path& to, std::error_code& ec) {
            if (++moves == 3) {
                ec = std::make_error_code(std::errc::io_error); // the third move fails: two are in place
                return;
            }
            fs::rename(from, to, ec);
        });
        CHECK_THROWS_WITH_AS(out.commit(),
                             ((dir / "c.txt").string() + ": cannot move the output into place: " +
                              std::make_error_code(std::errc::io_error).message())
                                 .c_str(),
                             gpueff::Error);
    }
    CHECK(snapshot(dir) == before);
    CHECK(leftovers(dir).empty());
}

TEST_CASE("outputs: a directory in the way is refused before anything moves: new subdirectories go too") {
    auto dir = tempDir("outputs-directory");
    writeText(dir / "report.json", "old report");
    fs::create_directories(dir / "report.md");
    auto before = snapshot(dir);
    {
        gpueff::output::OutputFiles out({}, dir);
        for (const char* name : {"report.json", "plots/a.svg", "report.md"}) {
            auto i = out.add(dir / name);
            writeText(out.temporary(i), "new");
        }
        CHECK_THROWS_WITH_AS(out.commit(),
                             ((dir / "report.md").string() +
                              ": a directory is in the way of this output file (nothing was written)")
                                 .c_str(),
                             gpueff::Error);
    }
    CHECK(snapshot(dir) == before); // no plots/ directory either
    CHECK(leftovers(dir).empty());
}

TEST_CASE("outputs: two outputs of one run with the same name are refused") {
    auto dir = tempDir("outputs-same-name");
    gpueff::output::OutputFiles out({dir / "x.txt"});
    CHECK_THROWS_AS(out.add(dir / "." / "x.txt"), gpueff::Error);
}

TEST_CASE("analyze: a directory where a plot goes leaves the previous outputs byte-identical") {
    auto dir = tempDir("atomic-analyze");
    auto first = fixture("gpu_metrics", dir), second = fixture("cuda_graph_graph_mode", dir);
    auto out = dir / "out";
    auto good = run(analyzeCommand(first, out));
    REQUIRE_MESSAGE(good.exitCode == 0, good.output);
    REQUIRE(fs::is_regular_file(out / "plots" / "device_states.svg"));
    fs::remove(out / "plots" / "device_states.svg");
    fs::create_directories(out / "plots" / "device_states.svg");
    auto before = snapshot(out);

    auto r = run(analyzeCommand(second, out));
    CAPTURE(r.output);
    CHECK(r.exitCode == 1);
    CHECK(r.output.find("gpueff: error: " + (out / "plots" / "device_states.svg").string() +
                        ": a directory is in the way of this output file") != std::string::npos);
    CHECK(snapshot(out) == before); // run.prv/.pcf/.row/.json, report.json, report.md, other plots: old
    CHECK(leftovers(out).empty());
}

TEST_CASE("analyze: a failed run into a new directory leaves no directory") {
    auto dir = tempDir("atomic-analyze-new");
    auto input = fixture("gpu_metrics", dir);
    auto r = run(bin() + " analyze " + quoted(input) + " -q -o " + quoted(dir / "out") +
                 " --end 9223372036854775807");
    CAPTURE(r.output);
    CHECK(r.exitCode == 1);
    CHECK(r.output.find("--end 9223372036854775807 ns is outside the trace (0 .. ") != std::string::npos);
    CHECK(r.output.find("internal error") == std::string::npos);
    CHECK_FALSE(fs::exists(dir / "out"));
    r = run(bin() + " analyze " + quoted(input) + " -q -o " + quoted(dir / "out") + " --begin -1");
    CHECK(r.exitCode == 1);
    CHECK(r.output.find("--begin -1 ns is outside the trace") != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "out"));
}

TEST_CASE("translate: a directory where PREFIX.row goes leaves the previous trace byte-identical") {
    auto dir = tempDir("atomic-translate");
    auto first = fixture("gpu_metrics", dir), second = fixture("mpi_rank0", dir);
    fs::create_directories(dir / "out");
    auto prefix = dir / "out" / "t";
    auto good = run(bin() + " translate -q " + quoted(first) + " -o " + quoted(prefix));
    REQUIRE_MESSAGE(good.exitCode == 0, good.output);
    fs::remove(dir / "out" / "t.row");
    fs::create_directories(dir / "out" / "t.row");
    auto before = snapshot(dir / "out");
    auto r = run(bin() + " translate -q " + quoted(second) + " -o " + quoted(prefix));
    CAPTURE(r.output);
    CHECK(r.exitCode == 1);
    CHECK(r.output.find((dir / "out" / "t.row").string() + ": a directory is in the way") !=
          std::string::npos);
    CHECK(snapshot(dir / "out") == before);
    CHECK(leftovers(dir / "out").empty());
}

TEST_CASE("translate: PREFIX.cfgs/ ends with this trace's cfgs: an earlier trace's extra cfg goes, the "
          "user's stay") {
    auto dir = tempDir("atomic-translate-cfgs");
    auto mpi = fixture("mpi_rank0", dir), metrics = fixture("gpu_metrics", dir);
    fs::create_directories(dir / "out");
    fs::create_directories(dir / "fresh");
    auto names = [](const fs::path& cfgDir) {
        std::map<std::string, std::string> out;
        for (const auto& e : fs::directory_iterator(cfgDir)) out[e.path().filename()] = readText(e.path());
        return out;
    };
    auto first = run(bin() + " translate -q " + quoted(mpi) + " -o " + quoted(dir / "out" / "t"));
    REQUIRE_MESSAGE(first.exitCode == 0, first.output);
    auto before = names(dir / "out" / "t.cfgs");
    writeText(dir / "out" / "t.cfgs" / "mine.cfg", "a cfg of the user");
    auto second = run(bin() + " translate -q " + quoted(metrics) + " -o " + quoted(dir / "out" / "t"));
    REQUIRE_MESSAGE(second.exitCode == 0, second.output);
    auto alone = run(bin() + " translate -q " + quoted(metrics) + " -o " + quoted(dir / "fresh" / "t"));
    REQUIRE_MESSAGE(alone.exitCode == 0, alone.output);
    auto expected = names(dir / "fresh" / "t.cfgs");
    // Not vacuous: the MPI trace had a cfg (mpi_calls) the metrics trace does not get.
    CHECK(before.count("mpi_calls.cfg") == 1);
    CHECK(expected.count("mpi_calls.cfg") == 0);
    expected["mine.cfg"] = "a cfg of the user";
    CHECK(names(dir / "out" / "t.cfgs") == expected);
    CHECK(leftovers(dir / "out").empty());
}

TEST_CASE("translate: a file where PREFIX.cfgs/ goes leaves the previous trace byte-identical") {
    auto dir = tempDir("atomic-translate-cfg-file");
    auto input = fixture("gpu_metrics", dir);
    fs::create_directories(dir / "out");
    auto prefix = dir / "out" / "t";
    auto good = run(bin() + " translate -q " + quoted(input) + " -o " + quoted(prefix));
    REQUIRE_MESSAGE(good.exitCode == 0, good.output);
    fs::remove_all(dir / "out" / "t.cfgs");
    writeText(dir / "out" / "t.cfgs", "not a directory");
    auto before = snapshot(dir / "out");
    auto r = run(bin() + " translate -q " + quoted(input) + " -o " + quoted(prefix));
    CAPTURE(r.output);
    CHECK(r.exitCode == 1);
    CHECK(r.output.find((dir / "out" / "t.cfgs").string() + ": not a directory") != std::string::npos);
    CHECK(snapshot(dir / "out") == before);
    CHECK(leftovers(dir / "out").empty());
}

TEST_CASE("histogram, modelfactors, compare: a directory where one output goes keeps the others") {
    auto dir = tempDir("atomic-others");
    auto db = fixture("gpu_metrics", dir);
    REQUIRE(run(bin() + " translate -q " + quoted(db) + " -o " + quoted(dir / "t")).exitCode == 0);
    auto cfgA = sourceDir() / "cfgs" / "analysis" / "kernels_in_flight.cfg";
    auto cfgB = sourceDir() / "cfgs" / "analysis" / "kernels_queued.cfg";

    SUBCASE("histogram") {
        auto out = dir / "hist";
        auto cmd = bin() + " histogram -q " + quoted(dir / "t.prv") + " " + quoted(cfgA) + " " +
                   quoted(cfgB) + " -o " + quoted(out);
        REQUIRE(run(cmd).exitCode == 0);
        writeText(out / "kernels_in_flight.txt", "previous");
        fs::remove(out / "kernels_queued.txt");
        fs::create_directories(out / "kernels_queued.txt");
        auto before = snapshot(out);
        auto r = run(cmd);
        CHECK_MESSAGE(r.exitCode == 1, r.output);
        CHECK(r.output.find("kernels_queued.txt: a directory is in the way") != std::string::npos);
        CHECK(snapshot(out) == before);
        CHECK(leftovers(out).empty());
    }
    SUBCASE("modelfactors --md") {
        auto trace = dataDir() / "paraver" / "epoch" / "epoch_1proc.prv.gz";
        auto out = dir / "mf";
        fs::create_directories(out / "f.md");
        writeText(out / "f.csv", "previous csv");
        auto before = snapshot(out);
        auto r = run(bin() + " modelfactors -q " + quoted(trace) + " --csv " + quoted(out / "f.csv") +
                     " --md " + quoted(out / "f.md"));
        CHECK_MESSAGE(r.exitCode == 1, r.output);
        CHECK(r.output.find("f.md: a directory is in the way") != std::string::npos);
        CHECK(snapshot(out) == before);
        CHECK(leftovers(out).empty());
    }
    SUBCASE("compare") {
        auto a = dir / "a", b = dir / "b";
        REQUIRE(run(bin() + " analyze -q " + quoted(db) + " -o " + quoted(a)).exitCode == 0);
        REQUIRE(run(bin() + " analyze -q " + quoted(db) + " -o " + quoted(b)).exitCode == 0);
        auto out = dir / "cmp";
        fs::create_directories(out / "compare.json");
        writeText(out / "compare.md", "previous comparison");
        auto before = snapshot(out);
        auto r = run(bin() + " compare -q " + quoted(a) + " " + quoted(b) + " -o " + quoted(out));
        CHECK_MESSAGE(r.exitCode == 1, r.output);
        CHECK(r.output.find("compare.json: a directory is in the way") != std::string::npos);
        CHECK(snapshot(out) == before);
        CHECK(leftovers(out).empty());
    }
}

TEST_CASE("a second run into a locked output directory fails at once, naming the lock") {
    auto dir = tempDir("atomic-lock");
    auto input = fixture("gpu_metrics", dir);
    auto out = dir / "out";
    fs::create_directories(out);
    writeText(out / "report.json", "previous");
    auto lockFile = out / ".gpueff.lock";
    int fd = ::open(lockFile.c_str(), O_RDWR | O_CREAT, 0666);
    REQUIRE(fd >= 0);
    REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
    // A staging directory left by a run that was killed: removed by the next run that takes the lock.
    fs::create_directories(out / ".gpueff-staging-1-abcdef");
    writeText(out / ".gpueff-staging-1-abcdef" / "run.prv", "half-written");
    auto before = snapshot(out);
    auto r = run(analyzeCommand(input, out));
    CHECK(r.exitCode == 1);
    CHECK(r.output == "gpueff: error: " + out.string() + ": another gpueff run is writing here (lock " +
                          lockFile.string() + " held)\n");
    CHECK(snapshot(out) == before);
    ::close(fd); // released: the next run proceeds, and removes the lock file when done
    r = run(analyzeCommand(input, out));
    CHECK_MESSAGE(r.exitCode == 0, r.output);
    CHECK(readText(out / "report.json") != "previous");
    CHECK(leftovers(out).empty());
}

TEST_CASE("concurrent analyses: two exports into two directories each report their own input") {
    auto dir = tempDir("atomic-concurrent");
    auto a = fixture("gpu_metrics", dir), b = fixture("cuda_graph_graph_mode", dir);
    for (int round = 0; round < 3; ++round) {
        CAPTURE(round);
        auto r = run("(" + analyzeCommand(a, dir / "A") + " & p=$!; " + analyzeCommand(b, dir / "B") +
                     "; q=$?; wait $p; echo \"codes $? $q\")");
        REQUIRE_MESSAGE(r.output.find("codes 0 0") != std::string::npos, r.output);
        for (auto [out, input] : {std::pair{dir / "A", a}, std::pair{dir / "B", b}}) {
            auto report = readJson(out / "report.json");
            CHECK(report["inputs"][0]["path"] == input.string());
            CHECK(report["trace"]["prv"] == (out / "run.prv").string());
            CHECK(readJson(out / "run.json")["inputs"][0]["path"] == input.string());
            CHECK(leftovers(out).empty());
        }
    }
}

TEST_CASE("concurrent analyses into one directory: either refused by the lock or a consistent result") {
    auto dir = tempDir("atomic-concurrent-same");
    std::vector<fs::path> inputs{fixture("gpu_metrics", dir), fixture("cuda_graph_graph_mode", dir),
                                 fixture("cuda_graph_node_mode", dir), fixture("mpi_rank0", dir)};
    auto out = dir / "D";
    for (int round = 0; round < 3; ++round) {
        std::string cmd;
        for (std::size_t i = 0; i < inputs.size(); ++i)
            cmd += "(" + analyzeCommand(inputs[i], out) + "; echo \"exit " + std::to_string(i) + " $?\") & ";
        auto r = run("(" + cmd + "wait)"); // one group, so its stderr is captured too
        CAPTURE(r.output);
        int succeeded = 0;
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            bool ok = r.output.find("exit " + std::to_string(i) + " 0") != std::string::npos;
            bool locked = r.output.find("exit " + std::to_string(i) + " 1") != std::string::npos;
            CHECK((ok || locked));
            succeeded += ok;
        }
        CHECK(succeeded >= 1);
        // Every refusal is the lock's message; no other error.
        std::size_t errors = 0, lockErrors = 0;
        for (auto at = r.output.find("gpueff: error:"); at != std::string::npos;
             at = r.output.find("gpueff: error:", at + 1))
            ++errors;
        for (auto at = r.output.find("another gpueff run is writing here"); at != std::string::npos;
             at = r.output.find("another gpueff run is writing here", at + 1))
            ++lockErrors;
        CHECK(errors == lockErrors);
        CHECK(errors == inputs.size() - static_cast<std::size_t>(succeeded));
        // The report describes the trace beside it.
        auto report = readJson(out / "report.json");
        CHECK(report["inputs"][0]["path"] == readJson(out / "run.json")["inputs"][0]["path"]);
        CHECK(leftovers(out).empty());
    }
}

TEST_CASE("exit codes: usage errors 2, --help and --version 0, bad input 1, no internal error") {
    auto dir = tempDir("exit-codes");
    auto db = fixture("gpu_metrics", dir);
    auto r = run(bin() + " --help");
    CHECK(r.exitCode == 0);
    CHECK(r.output.find("analyze") != std::string::npos);
    r = run(bin() + " --version");
    CHECK(r.exitCode == 0);
    CHECK(r.output == "gpueff " GPUEFF_VERSION "\n");
    r = run(bin() + " analyze --help");
    CHECK(r.exitCode == 0);
    CHECK(r.output.find("--name") != std::string::npos);

    CHECK(run(bin()).exitCode == 2);                                           // no subcommand
    CHECK(run(bin() + " analyze --no-such-option").exitCode == 2);             // unknown option
    CHECK(run(bin() + " translate " + quoted(db)).exitCode == 2);              // -o missing
    CHECK(run(bin() + " analyze " + quoted(db) + " --begin x").exitCode == 2); // not a number
    r = run(bin() + " analyze " + quoted(db) + " -o " + quoted(dir / "o") + " --begin 99999999999999999999");
    CHECK(r.exitCode == 2); // not clamped to INT64_MAX
    CHECK(
        r.output.find("--begin: must be an integer number of ns within int64, got '99999999999999999999'") !=
        std::string::npos);
    CHECK(run(bin() + " analyze " + quoted(db) + " -o " + quoted(dir / "o") + " --end 0x10").exitCode == 2);
    r = run(bin() + " histogram " + quoted(db) + " " + quoted(db) + " --precision 99");
    CHECK(r.exitCode == 2);
    r = run(bin() + " analyze " + quoted(db) + " -o " + quoted(dir / "o") + " --name a/b");
    CHECK(r.exitCode == 2);
    CHECK(r.output.find("must be a file name without '/', got 'a/b'") != std::string::npos);
    r = run(bin() + " analyze " + quoted(db) + " -o " + quoted(dir / "o") + " --name ''");
    CHECK(r.exitCode == 2);
    CHECK(r.output.find("must not be empty") != std::string::npos);
    r = run(bin() + " compare " + quoted(dir) + " " + quoted(dir) + " -o " + quoted(dir / "cmp") +
            " --labels one");
    CHECK(r.exitCode == 2);
    CHECK(r.output == "gpueff: error: --labels gives 1 labels for 2 reports\n");
    r = run(bin() + " compare " + quoted(dir) + " " + quoted(dir) + " -o " + quoted(dir / "cmp") +
            " --labels one,");
    CHECK(r.exitCode == 2);
    CHECK(r.output == "gpueff: error: --labels: label 2 is empty\n");
    CHECK_FALSE(fs::exists(dir / "o"));
    CHECK_FALSE(fs::exists(dir / "cmp"));
}

TEST_CASE("compare: the scratch analysis of a trace is removed even when the comparison fails") {
    auto dir = tempDir("compare-scratch");
    auto scratch = tempDir("compare-scratch-tmp");
    auto good = fixture("gpu_metrics", dir);
    auto bad = dir / "bad.sqlite";
    writeText(bad, "not a database");
    auto r = run("TMPDIR=" + quoted(scratch) + " " + bin() + " compare -q " + quoted(good) + " " +
                 quoted(bad) + " -o " + quoted(dir / "cmp"));
    CAPTURE(r.output);
    CHECK(r.exitCode == 1);
    CHECK(r.output.find("bad.sqlite") != std::string::npos);
    CHECK(fs::is_empty(scratch));
    CHECK_FALSE(fs::exists(dir / "cmp"));
}

TEST_CASE("names that are not UTF-8 never stop a command: JSON outputs carry U+FFFD instead") {
    auto dir = tempDir("non-utf8");
    auto db = buildDatabase(sourceDir() / "data" / "synthetic" / "gpu_metrics.sql", dir / "g.sqlite",
                            "UPDATE StringIds SET value = value || CAST(X'FF' AS TEXT);");
    auto r = run(bin() + " analyze -q " + quoted(db) + " -o " + quoted(dir / "out"));
    CAPTURE(r.output);
    REQUIRE(r.exitCode == 0);
    auto report = readJson(dir / "out" / "report.json"); // parses: valid UTF-8
    CHECK_FALSE(report["kernel_summary"]["overall"].empty());
    r = run(bin() + " histogram -q --json " + quoted(dir / "out" / "g.prv") + " " +
            quoted(sourceDir() / "cfgs" / "analysis" / "kernels_in_flight.cfg") + " -o " + quoted(dir / "h"));
    CHECK_MESSAGE(r.exitCode == 0, r.output);
    CHECK_NOTHROW(readJson(dir / "h" / "kernels_in_flight.json"));
    CHECK(r.output.find("internal error") == std::string::npos);
}
