// NCCL's NVTX payload attached to the kernel the collective launched (synthetic fixture).
#include "tests/TestSupport.h"

#include <doctest/doctest.h>

using namespace testsupport;

TEST_CASE("NCCL payload fields land on the NCCL kernel launched inside the ncclAllReduce range") {
    auto dir = tempDir("nccl-payload");
    auto db = buildDatabase(sourceDir() / "data" / "synthetic" / "nccl_payload.sql", dir / "nccl.sqlite");
    auto r =
        run(gpueffBinary().string() + " translate --quiet " + db.string() + " -o " + (dir / "t").string());
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    auto prv = readPrv(dir / "t.prv");
    auto pcf = readPcfValues(dir / "t.pcf");
    int ncclBegins = 0, gemmBegins = 0;
    for (const auto& e : prv.events) {
        if (e.pairs.empty() || e.pairs[0].second == 0) continue;
        std::map<std::uint32_t, std::int64_t> f(e.pairs.begin(), e.pairs.end());
        if (e.pairs[0].first == 63000007) {
            ++ncclBegins;
            // Time 0 is the NVTX range start (1000 ns): the kernel starts at 4000 - 1000.
            CHECK(e.time == 3000);
            CHECK(f[9501] == 4096);
            CHECK(f[9505] == 77);
            REQUIRE(f.count(9502));
            CHECK(pcf[9502][f[9502]] == "sum");
        } else if (e.pairs[0].first == 63000006) {
            ++gemmBegins;
            CHECK(f.count(9501) == 0);
            CHECK(f.count(9505) == 0);
        }
    }
    CHECK(ncclBegins == 1);
    CHECK(gemmBegins == 1);
    // The range itself is an NVTX range of the NCCL domain (type 9500), named ncclAllReduce.
    bool range = false;
    for (const auto& e : prv.events)
        if (!e.pairs.empty() && e.pairs[0].first == 9500 && e.pairs[0].second != 0)
            range = pcf[9500][e.pairs[0].second] == "ncclAllReduce";
    CHECK(range);
}
