// A rank that did no GPU work joins a multi-report merge; alone it is an error (synthetic fixtures).
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/TestSupport.h"

using namespace testsupport;

TEST_CASE("a CPU-only rank is merged with a GPU rank, and rejected alone") {
    auto dir = tempDir("cpu-rank");
    auto rank0 = buildDatabase(sourceDir() / "data" / "synthetic" / "mpi_rank0.sql", dir / "rank0.sqlite");
    std::ifstream in(sourceDir() / "data" / "synthetic" / "mpi_rank1.sql");
    std::stringstream script;
    script << in.rdbuf() << "\nDELETE FROM CUPTI_ACTIVITY_KIND_KERNEL;\n";
    std::ofstream(dir / "rank1_cpu.sql") << script.str();
    auto rank1 = buildDatabase(dir / "rank1_cpu.sql", dir / "rank1.sqlite");

    auto alone = run(gpueffBinary().string() + " translate --quiet " + rank1.string() + " -o " + (dir / "a").string());
    CHECK(alone.exitCode == 1);
    CHECK(alone.output.find("no GPU activity") != std::string::npos);

    auto merged = run(gpueffBinary().string() + " translate " + rank0.string() + " " + rank1.string() + " -o " +
                      (dir / "m").string());
    REQUIRE_MESSAGE(merged.exitCode == 0, merged.output);
    CHECK(merged.output.find("rank1.sqlite: no GPU activity") != std::string::npos);
    auto prv = readPrv(dir / "m.prv");
    CHECK(prv.threadsPerTask.size() == 2);
    nlohmann::json side;
    std::ifstream(dir / "m.json") >> side;
    CHECK(side["inputs"][0]["gpu_activity"] == true);
    CHECK(side["inputs"][1]["gpu_activity"] == false);
}
