// A rank that did no GPU work joins a multi-report merge; alone it is an error (synthetic fixtures).
#include "tests/TestSupport.h"

#include <doctest/doctest.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace testsupport;

namespace {
std::filesystem::path fixtureWith(const std::filesystem::path& dir, const std::string& name,
                                  const std::string& extraSql) {
    return buildDatabase(sourceDir() / "data" / "synthetic" / (name + ".sql"), dir / (name + ".sqlite"),
                         extraSql);
}
} // namespace

TEST_CASE("a CPU-only rank is merged with a GPU rank, and rejected alone") {
    auto dir = tempDir("cpu-rank");
    auto rank0 = fixtureWith(dir, "mpi_rank0", "");
    auto rank1 = fixtureWith(dir, "mpi_rank1", "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL;");

    auto alone =
        run(gpueffBinary().string() + " translate --quiet " + rank1.string() + " -o " + (dir / "a").string());
    CHECK(alone.exitCode == 1);
    CHECK(alone.output.find("no GPU activity") != std::string::npos);

    auto merged = run(gpueffBinary().string() + " translate " + rank0.string() + " " + rank1.string() +
                      " -o " + (dir / "m").string());
    REQUIRE_MESSAGE(merged.exitCode == 0, merged.output);
    CHECK(merged.output.find("rank1.sqlite: no GPU activity") != std::string::npos);
    auto prv = readPrv(dir / "m.prv");
    CHECK(prv.threadsPerTask.size() == 2);
    nlohmann::json side;
    std::ifstream(dir / "m.json") >> side;
    CHECK(side["inputs"][0]["gpu_activity"] == true);
    CHECK(side["inputs"][1]["gpu_activity"] == false);
}

TEST_CASE(
    "without MPI_Init, the first collective aligns the ranks: an implausible correction is not applied") {
    auto dir = tempDir("sync-collective");
    const std::string dropInit =
        "DELETE FROM MPI_OTHER_EVENTS WHERE textId = (SELECT id FROM StringIds WHERE value = 'MPI_Init');";
    auto rank0 = fixtureWith(dir, "mpi_rank0", dropInit);
    auto rank1 = fixtureWith(dir, "mpi_rank1", dropInit);
    auto r = run(gpueffBinary().string() + " translate --quiet " + rank0.string() + " " + rank1.string() +
                 " -o " + (dir / "m").string());
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    nlohmann::json side;
    std::ifstream(dir / "m.json") >> side;
    // rank 0's MPI_Allreduce ends at 95000; rank 1's at 91500 in a clock that starts 3000 ns later: 94500.
    CHECK(side["inputs"][0]["sync_point"] == "end of the first MPI_Allreduce");
    CHECK(side["inputs"][0]["sync_shift_ns"] == 0);
    CHECK(side["inputs"][1]["sync_shift_ns"] == 500);

    // Rank 1 recorded 20 s later: a 20 s correction is not believed.
    auto late = tempDir("sync-late");
    auto plainRank0 = fixtureWith(late, "mpi_rank0", "");
    auto lateRank1 =
        fixtureWith(late, "mpi_rank1",
                    "UPDATE TARGET_INFO_SESSION_START_TIME SET utcEpochNs = utcEpochNs + 20000000000;");
    auto l = run(gpueffBinary().string() + " translate " + plainRank0.string() + " " + lateRank1.string() +
                 " -o " + (late / "m").string());
    REQUIRE_MESSAGE(l.exitCode == 0, l.output);
    CHECK(l.output.find("MPI_Init end differs by") != std::string::npos);
    CHECK(l.output.find("not refined") != std::string::npos);
    nlohmann::json lateSide;
    std::ifstream(late / "m.json") >> lateSide;
    CHECK(lateSide["inputs"][0]["sync_shift_ns"] == 0);
    CHECK(lateSide["inputs"][1]["sync_shift_ns"] == 0);
    CHECK(lateSide["inputs"][1]["utc_shift_ns"] == 20000003000LL);
}
