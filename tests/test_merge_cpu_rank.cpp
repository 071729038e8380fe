// A rank that did no GPU work joins a multi-report merge; alone it is an error (synthetic fixtures). The
// clock alignment of the same fixtures without MPI_Init, or 20 s apart: tests/cases/translate-sync-*.
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
