// `gpueff compare ... -o DIR`: the directory (created when missing) holds compare.md, compare.json and the
// plots they list, all written or none; a failure leaves a previous DIR byte-identical and a DIR it created
// absent. The reports are hand-made (tests/CompareFixtures.h): the JSON's numbers are checked against them.
#include "tests/CompareFixtures.h"
#include "tests/TestSupport.h"

#include <doctest/doctest.h>
#include <fstream>
#include <map>
#include <set>

using namespace testsupport;
using namespace comparefixtures;
namespace fs = std::filesystem;

namespace {

std::string bin() {
    return quoted(gpueffBinary());
}

void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

std::map<std::string, std::string> snapshot(const fs::path& dir) {
    std::map<std::string, std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        out[fs::relative(e.path(), dir).string()] = e.is_directory() ? "<dir>" : readText(e.path());
    return out;
}

// Three scaling runs at 1, 2 and 4 devices: directories as `analyze -o` leaves them, and a bare file.
std::vector<fs::path> writeRuns(const fs::path& dir, std::vector<Run>& runs) {
    runs.clear();
    for (int n : {1, 2, 4}) {
        Run r;
        r.devices = n;
        r.window = 1200000 / n;
        r.usefulSum = {800000 + 20000 * n, 850000};
        r.factors[0][0] = 0.9 - 0.05 * n;
        r.kernels = {{"gemm", 100000 * n, 10, 10000.0}};
        r.gaps = std::vector<Gap>(static_cast<std::size_t>(n), Gap{2, 400, 1, 100, 1, 300});
        r.offload = {{1, 0.5 + 0.1 * n}};
        runs.push_back(r);
    }
    std::vector<fs::path> paths{dir / "one", dir / "two", dir / "four.json"};
    write(paths[0] / "report.json", report(runs[0]).dump());
    write(paths[1] / "report.json", report(runs[1]).dump());
    write(paths[2], report(runs[2]).dump());
    return paths;
}

std::string command(const std::vector<fs::path>& inputs, const fs::path& out) {
    std::string cmd = bin() + " compare -q";
    for (const auto& p : inputs) cmd += " " + quoted(p);
    return cmd + " -o " + quoted(out);
}

} // namespace

TEST_CASE("compare -o DIR: compare.md, compare.json and the plots, in a directory created on the way") {
    auto dir = tempDir("compare-outputs");
    std::vector<Run> runs;
    auto inputs = writeRuns(dir, runs);
    auto out = dir / "results" / "cmp"; // two levels missing
    auto r = run(command(inputs, out));
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    CHECK(r.output == ""); // -q
    auto json = nlohmann::json::parse(readText(out / "compare.json"));
    std::string md = readText(out / "compare.md");
    CHECK(md.rfind("# Comparison of 3 runs", 0) == 0);
    // Exactly the plots compare.json lists, each linked from compare.md and well-formed.
    std::set<std::string> listed, present;
    for (const auto& p : json["plots"]) listed.insert(p["file"].get<std::string>());
    for (const auto& e : fs::directory_iterator(out / "plots"))
        present.insert("plots/" + e.path().filename().string());
    CHECK(listed == present);
    CHECK(listed.count("plots/scaling_nccl_as_communication.svg") == 1);
    CHECK(listed.count("plots/efficiency_nccl_as_useful.svg") == 1);
    for (const auto& p : listed) {
        CAPTURE(p);
        CHECK(md.find("](" + p + ")") != std::string::npos);
        CHECK(xmlProblem(readText(out / p)) == "");
    }
    // Nothing but the outputs: no staging directory, lock or temporary.
    std::set<std::string> entries;
    for (const auto& e : fs::directory_iterator(out)) entries.insert(e.path().filename().string());
    CHECK(entries == std::set<std::string>{"compare.json", "compare.md", "plots"});
    // Labels from the directory names, else the file name; the numbers are the fixtures'.
    REQUIRE(json["runs"].size() == 3);
    CHECK(json["runs"][0]["label"] == "one");
    CHECK(json["runs"][2]["label"] == "four");
    CHECK(json["gaps"][2]["count"] == 4 * 2);
    CHECK(json["gaps"][2]["kernel_wait_ns"] == 4 * 300);
    CHECK(json["kernel_deltas"][1]["kernels"][0]["difference"]["total_ns"] == 400000 - 100000);
    CHECK(json["host"][1]["offload_mean"].get<double>() == 0.5 + 0.1 * 2);
    double cs = 820000.0 / (800000.0 + 20000 * 4);
    CHECK(json["scaling"]["runs"][2]["computational_scalability"]["nccl_as_communication"].get<double>() ==
          cs);
    CHECK(json["scaling"]["fits"]["nccl_as_communication"]["parallel_efficiency"]["points"] == 3);

    // Again into the same directory: replaced, still nothing else.
    r = run(command(inputs, out));
    CHECK_MESSAGE(r.exitCode == 0, r.output);
    entries.clear();
    for (const auto& e : fs::directory_iterator(out)) entries.insert(e.path().filename().string());
    CHECK(entries == std::set<std::string>{"compare.json", "compare.md", "plots"});
}

TEST_CASE(
    "compare -o DIR: plots of an earlier comparison that this one does not draw are removed, nothing else") {
    auto dir = tempDir("compare-outputs-stale");
    std::vector<Run> runs;
    auto inputs = writeRuns(dir, runs);
    auto out = dir / "cmp";
    REQUIRE(run(command(inputs, out)).exitCode == 0); // 1, 2 and 4 devices: scaling plots
    REQUIRE(fs::exists(out / "plots" / "scaling_nccl_as_communication.svg"));
    // What a user keeps beside the outputs, and a directory under a plot's name: neither is compare's.
    write(out / "plots" / "mine.svg", "<svg/>");
    write(out / "notes.txt", "keep");
    auto plotsOf = [](const fs::path& d) {
        std::set<std::string> names;
        for (const auto& e : fs::directory_iterator(d / "plots"))
            names.insert("plots/" + e.path().filename().string());
        return names;
    };
    auto listedIn = [](const fs::path& d) {
        std::set<std::string> files;
        auto json = nlohmann::json::parse(readText(d / "compare.json"));
        for (const auto& p : json["plots"]) files.insert(p["file"].get<std::string>());
        return files;
    };
    auto listedBefore = listedIn(out);

    SUBCASE("fewer plots: the ones not drawn go, in the same commit") {
        auto r = run(command({inputs[0], inputs[0]}, out)); // one device count: no scaling
        REQUIRE_MESSAGE(r.exitCode == 0, r.output);
        auto listed = listedIn(out);
        CHECK(listed.count("plots/scaling_nccl_as_communication.svg") == 0);
        CHECK(listed.count("plots/efficiency_nccl_as_communication.svg") == 1);
        auto expected = listed;
        expected.insert("plots/mine.svg");
        CHECK(plotsOf(out) == expected); // the scaling plots gone, the user's file kept
        CHECK(readText(out / "plots" / "mine.svg") == "<svg/>");
        CHECK(readText(out / "notes.txt") == "keep");
        std::set<std::string> entries; // no directory set aside left behind
        for (const auto& e : fs::directory_iterator(out)) entries.insert(e.path().filename().string());
        CHECK(entries == std::set<std::string>{"compare.json", "compare.md", "notes.txt", "plots"});
    }
    SUBCASE("a name compare writes, held by a directory it would not write now: kept") {
        fs::remove(out / "plots" / "scaling_nccl_as_useful.svg");
        fs::create_directories(out / "plots" / "scaling_nccl_as_useful.svg");
        REQUIRE(run(command({inputs[0], inputs[0]}, out)).exitCode == 0);
        CHECK(fs::is_directory(out / "plots" / "scaling_nccl_as_useful.svg"));
        CHECK_FALSE(fs::exists(out / "plots" / "scaling_nccl_as_communication.svg"));
    }
    SUBCASE("a failed comparison removes nothing") {
        // A directory in the way of a plot the new comparison writes: refused before anything moves.
        fs::remove(out / "plots" / "efficiency_nccl_as_useful.svg");
        fs::create_directories(out / "plots" / "efficiency_nccl_as_useful.svg");
        auto before = snapshot(out);
        auto r = run(command({inputs[0], inputs[0]}, out));
        CHECK(r.exitCode == 1);
        CHECK(snapshot(out) == before); // the scaling plots of the earlier comparison included
        CHECK(plotsOf(out).count("plots/scaling_nccl_as_communication.svg") == 1);
    }
    CHECK(listedBefore.count("plots/scaling_nccl_as_useful.svg") == 1);
}

TEST_CASE("compare -o DIR: a failure leaves nothing (a new DIR absent, a previous DIR byte-identical)") {
    auto dir = tempDir("compare-outputs-error");
    std::vector<Run> runs;
    auto inputs = writeRuns(dir, runs);
    auto bad = report(runs[1]);
    bad["efficiency"]["nccl_as_communication"]["parallel_efficiency"] = 57.0;
    write(dir / "bad.json", bad.dump());

    SUBCASE("a bad report, DIR missing") {
        auto r = run(command({inputs[0], dir / "bad.json"}, dir / "new"));
        CHECK(r.exitCode == 1);
        CHECK(r.output ==
              "gpueff: error: " + (dir / "bad.json").string() +
                  ": efficiency.nccl_as_communication.parallel_efficiency: must be a number in [0, 1] "
                  "or null, got 57.0\n");
        CHECK_FALSE(fs::exists(dir / "new"));
    }
    SUBCASE("a bad report, DIR holding a previous comparison") {
        auto out = dir / "previous";
        REQUIRE(run(command(inputs, out)).exitCode == 0);
        auto before = snapshot(out);
        auto r = run(command({inputs[0], dir / "bad.json"}, out));
        CHECK(r.exitCode == 1);
        CHECK(snapshot(out) == before);
    }
    SUBCASE("a directory in the way of one plot: refused before anything moves") {
        auto out = dir / "blocked";
        REQUIRE(run(command(inputs, out)).exitCode == 0);
        fs::remove(out / "plots" / "scaling_nccl_as_useful.svg");
        fs::create_directories(out / "plots" / "scaling_nccl_as_useful.svg");
        write(out / "compare.md", "previous");
        auto before = snapshot(out);
        auto r = run(command(inputs, out));
        CHECK(r.exitCode == 1);
        CHECK(r.output.find("scaling_nccl_as_useful.svg: a directory is in the way") != std::string::npos);
        CHECK(snapshot(out) == before);
    }
    SUBCASE("-o naming a file: refused, the file untouched") {
        write(dir / "file", "not a directory");
        auto r = run(command(inputs, dir / "file"));
        CHECK(r.exitCode == 1);
        CHECK(r.output.find((dir / "file").string() + ": cannot create the output directory") !=
              std::string::npos);
        CHECK(readText(dir / "file") == "not a directory");
    }
}

TEST_CASE("compare usage: -o DIR required, --json gone, exit 2 before any output") {
    auto dir = tempDir("compare-usage");
    std::vector<Run> runs;
    auto inputs = writeRuns(dir, runs);
    auto r = run(bin() + " compare " + quoted(inputs[0]) + " " + quoted(inputs[1]));
    CHECK(r.exitCode == 2);
    CHECK(r.output.find("--output is required") != std::string::npos);
    r = run(command({inputs[0], inputs[1]}, dir / "out") + " --json " + quoted(dir / "c.json"));
    CHECK(r.exitCode == 2);
    CHECK_FALSE(fs::exists(dir / "out"));
    CHECK_FALSE(fs::exists(dir / "c.json"));
    r = run(bin() + " compare --help");
    CHECK(r.exitCode == 0);
    CHECK(r.output.find("compare.md, compare.json, plots/*.svg") != std::string::npos);
}
