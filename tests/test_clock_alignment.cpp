// Clock alignment of merged exports says what it did, per input (docs/events.md "Time"): by the UTC session
// start, refined by MPI_Init or the first collective, by the sync point alone for an export without a session
// start, or not at all; with the uncertainty of a sync point over the collectives every input made.
// Expected values are worked by hand in the header of data/synthetic/clocks_rank0.sql and in the comments.
// The sidecars of the translations that need no CLI (no session start on either or on one input, both with
// one) are cases: tests/cases/translate-clocks-*.
#include "engine/common/Error.h"
#include "engine/nsys/ClockAlignment.h"
#include "tests/TestSupport.h"

#include <doctest/doctest.h>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace testsupport;
using json = nlohmann::json;
namespace nsys = gpueff::nsys;

namespace {

const std::string kNoSessionStart = "DELETE FROM TARGET_INFO_SESSION_START_TIME;";
const std::string kNoSyncPoint =
    "DELETE FROM MPI_OTHER_EVENTS WHERE textId = 3; DELETE FROM MPI_COLLECTIVES_EVENTS;";

struct Pair {
    std::filesystem::path dir, rank0, rank1;
};

// The two ranks of data/synthetic/clocks_rank*.sql, each with its variant's SQL applied.
Pair ranks(const std::string& name, const std::string& sql0, const std::string& sql1) {
    Pair p;
    p.dir = tempDir("clocks-" + name);
    auto fixture = [&p](const std::string& rank, const std::string& sql) {
        return buildDatabase(sourceDir() / "data" / "synthetic" / ("clocks_" + rank + ".sql"),
                             p.dir / (rank + ".sqlite"), sql);
    };
    p.rank0 = fixture("rank0", sql0);
    p.rank1 = fixture("rank1", sql1);
    return p;
}

CommandResult translate(const Pair& p, const std::string& options = "") {
    return run(gpueffBinary().string() + " translate --quiet " + options + " " + quoted(p.rank0) + " " +
               quoted(p.rank1) + " -o " + quoted(p.dir / "m"));
}

json readJson(const std::filesystem::path& path) {
    std::ifstream in(path);
    REQUIRE(in.good());
    return json::parse(in);
}

std::size_t occurrences(const std::string& text, const std::string& part) {
    std::size_t n = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
    return n;
}

// One input of the sidecar as the hand-worked values say it.
void checkInput(const json& in, const std::string& method, std::int64_t utcShift, std::int64_t syncShift,
                std::int64_t offset) {
    CAPTURE(in.dump());
    CHECK(in.at("alignment") == method);
    CHECK(in.at("utc_shift_ns") == utcShift);
    CHECK(in.at("sync_shift_ns") == syncShift);
    CHECK(in.at("offset_ns") == offset);
}

const std::string kNoStartWarning = ": no session start (TARGET_INFO_SESSION_START_TIME)";

} // namespace

TEST_CASE("clock alignment: exports that nothing places are refused, naming them, unless --unaligned") {
    auto p = ranks("unplaceable", kNoSessionStart + kNoSyncPoint, kNoSessionStart + kNoSyncPoint);
    auto refused = translate(p);
    CAPTURE(refused.output);
    CHECK(refused.exitCode == 1);
    CHECK(refused.output.find("gpueff: error: cannot align the clocks of " + p.rank0.string() + " and " +
                              p.rank1.string() + ": no session start") != std::string::npos);
    CHECK(refused.output.find("--unaligned") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(p.dir / "m.prv"));

    auto merged = translate(p, "--unaligned");
    CAPTURE(merged.output);
    REQUIRE(merged.exitCode == 0);
    for (const auto& db : {p.rank0, p.rank1})
        CHECK(occurrences(merged.output, "gpueff: warning: " + db.string() + kNoStartWarning +
                                             " and no sync point shared by every input: not aligned") == 1);
    auto side = readJson(p.dir / "m.json");
    checkInput(side.at("inputs")[0], "none", 0, 0, -18000);
    checkInput(side.at("inputs")[1], "none", 0, 0, -18000);
    CHECK(side.at("inputs")[0].at("alignment_uncertainty_ns").is_null());

    // One export that nothing places, beside one with a session start: merged, with a warning naming it.
    auto one = ranks("one-unplaceable", kNoSyncPoint, kNoSessionStart + kNoSyncPoint);
    auto r = translate(one);
    CAPTURE(r.output);
    REQUIRE(r.exitCode == 0);
    CHECK(occurrences(r.output, "gpueff: warning: " + one.rank1.string() + kNoStartWarning) == 1);
    CHECK(r.output.find(one.rank0.string() + kNoStartWarning) == std::string::npos);
    auto oneSide = readJson(one.dir / "m.json");
    checkInput(oneSide.at("inputs")[0], "utc", 0, 0, -18000);
    checkInput(oneSide.at("inputs")[1], "none", 0, 0, -18000);
}

TEST_CASE("clock alignment: uncertainty over several collectives in the sidecar, report.json and report.md") {
    auto p = ranks("uncertainty", "", "");
    auto out = p.dir / "out";
    auto r = run(gpueffBinary().string() + " analyze --quiet " + quoted(p.rank0) + " " + quoted(p.rank1) +
                 " -o " + quoted(out) + " --name m");
    CAPTURE(r.output);
    REQUIRE(r.exitCode == 0);
    CHECK(r.output.find("warning") == std::string::npos);
    auto side = readJson(out / "m.json");
    checkInput(side.at("inputs")[0], "utc+MPI_Init", 0, 0, -1000);
    checkInput(side.at("inputs")[1], "utc+MPI_Init", 2000, 1000, 2000);
    auto report = readJson(out / "report.json");
    CHECK(reportSchemaViolation(report) == "");
    const auto& in = report.at("inputs");
    REQUIRE(in.size() == 2);
    for (const auto& i : in) {
        CAPTURE(i.dump());
        CHECK(i.at("alignment") == "utc+MPI_Init");
        CHECK(i.at("sync_point") == "MPI_Init end");
        CHECK(i.at("alignment_uncertainty_ns") == 400);
        CHECK(i.at("alignment_evidence") == 3);
    }
    CHECK(in[1].at("offset_ns") == 2000);
    auto md = plainSpaces(readText(out / "report.md"));
    CHECK(md.find("| Offset | Clock | Uncertainty |") != std::string::npos);
    CHECK(md.find("| 2.000 µs | utc+MPI\\_Init | 400 ns |") != std::string::npos);
}

// The decision itself, on evidence written here (ns in each export's own clock).
TEST_CASE("clock alignment: methods, shifts and uncertainty decided from the evidence") {
    using nsys::ClockEvidence;
    const std::vector<std::string> names = {"a", "b", "c"};
    SUBCASE("MPI_Init alone: the uncertainty is the correction the session starts disagree by") {
        // UTC shifts 0, 500, 100; MPI_Init ends after them 10000, 9700, 10100: target 10100, corrections 100,
        // 400, 0. Largest distances between the UTC-aligned ends: a 300 (to b), b 400 (to c), c 400 (to b).
        std::vector<ClockEvidence> ev(3);
        ev[0] = {1000, 10000, {}};
        ev[1] = {1500, 9200, {}};
        ev[2] = {1100, 10000, {}};
        auto a = nsys::alignClocks(ev, names, false);
        CHECK(a.originUtcNs == 1000);
        CHECK(a.warnings.empty());
        for (std::size_t i = 0; i < 3; ++i) {
            CAPTURE(i);
            CHECK(a.inputs[i].method == "utc+MPI_Init");
            CHECK(a.inputs[i].evidence == 0);
        }
        CHECK(a.inputs[0].uncertaintyNs == 300);
        CHECK(a.inputs[1].uncertaintyNs == 400);
        CHECK(a.inputs[2].uncertaintyNs == 400);
        CHECK(a.inputs[0].shiftNs() == 100);
        CHECK(a.inputs[1].shiftNs() == 500 + 400);
        CHECK(a.inputs[2].shiftNs() == 100);
    }
    SUBCASE("first collective: it is no evidence of its own; the next ones are") {
        // Same session start. First collectives end at 5000 / 5600 / 5300: target 5600, shifts 600, 0, 300.
        // Second ones (the same call) end at 7000 / 7500 / 7400 -> 7600, 7500, 7700: a's distances 100, 100;
        // b's 100, 200; c's 100, 200. A third collective differs in name on c: not compared.
        std::vector<ClockEvidence> ev(3);
        ev[0] = {0, std::nullopt, {{"MPI_Barrier", 5000}, {"MPI_Allreduce", 7000}, {"MPI_Bcast", 9000}}};
        ev[1] = {0, std::nullopt, {{"MPI_Barrier", 5600}, {"MPI_Allreduce", 7500}, {"MPI_Bcast", 9000}}};
        ev[2] = {0, std::nullopt, {{"MPI_Barrier", 5300}, {"MPI_Allreduce", 7400}, {"MPI_Reduce", 9000}}};
        auto a = nsys::alignClocks(ev, names, false);
        CHECK(a.inputs[0].method == "utc+first collective");
        CHECK(a.inputs[0].syncPoint == "end of the first MPI_Barrier");
        CHECK(a.inputs[0].syncShiftNs == 600);
        CHECK(a.inputs[1].syncShiftNs == 0);
        CHECK(a.inputs[2].syncShiftNs == 300);
        for (std::size_t i = 0; i < 3; ++i) CHECK(a.inputs[i].evidence == 1);
        CHECK(a.inputs[0].uncertaintyNs == 100);
        CHECK(a.inputs[1].uncertaintyNs == 200);
        CHECK(a.inputs[2].uncertaintyNs == 200);
    }
    SUBCASE(
        "a correction beyond the limit is not applied, and an input without session start is then unplaced") {
        std::vector<ClockEvidence> ev(3);
        ev[0] = {0, 1000, {}};
        ev[1] = {20'000'000'000, 1000, {}};
        ev[2] = {std::nullopt, 1000, {}};
        auto a = nsys::alignClocks(ev, names, false);
        CHECK(a.inputs[0].method == "utc");
        CHECK(a.inputs[1].method == "utc");
        CHECK(a.inputs[1].shiftNs() == 20'000'000'000);
        CHECK(a.inputs[2].method == "none");
        CHECK_FALSE(a.inputs[0].uncertaintyNs);
        REQUIRE(a.warnings.size() == 2);
        CHECK(a.warnings[0].find("not refined") != std::string::npos);
        CHECK(a.warnings[1].rfind("c: no session start", 0) == 0);
    }
    SUBCASE("a single input needs no alignment; two unplaceable ones are refused unless told") {
        auto single = nsys::alignClocks({ClockEvidence{}}, {"a"}, false);
        CHECK(single.inputs[0].method == "single input");
        CHECK_FALSE(single.originUtcNs);
        std::vector<ClockEvidence> two(2);
        CHECK_THROWS_AS(nsys::alignClocks(two, {"a", "b"}, false), gpueff::Error);
        auto merged = nsys::alignClocks(two, {"a", "b"}, true);
        CHECK(merged.inputs[0].method == "none");
        CHECK(merged.inputs[1].method == "none");
        CHECK(merged.warnings.size() == 2);
    }
}
