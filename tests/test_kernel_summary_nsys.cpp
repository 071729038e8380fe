// report.json's kernel_summary against the real `nsys stats -r cuda_gpu_kern_sum` output printed for the same
// profile (data/nsys/fuser_matmul_h100.nsys-stats.txt): the table nsys users already trust.
#include "tests/NsysStatsText.h"
#include "tests/TestSupport.h"

#include <doctest/doctest.h>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

using namespace testsupport;
using nlohmann::json;

namespace {

using namespace nsysstatstext;

constexpr std::int64_t kMissing = -1; // absent keys compare unequal instead of asserting

} // namespace

TEST_CASE("kernel_summary equals nsys stats cuda_gpu_kern_sum on fuser_matmul_h100") {
    // Time (%), Total (ns), Instances, Avg, Med, Min, Max, StdDev (ns), Name.
    auto printed =
        readSection(dataDir() / "nsys" / "fuser_matmul_h100.nsys-stats.txt", "cuda_gpu_kern_sum", 8, false);
    REQUIRE(printed.size() == 15); // the parser read the whole table

    auto db = dataDir() / "nsys" / "fuser_matmul_h100.sqlite";
    auto dir = tempDir("kernel-summary-nsys");
    auto r = run(gpueffBinary().string() + " analyze " + db.string() + " -o " + dir.string());
    REQUIRE_MESSAGE(r.exitCode == 0, "gpueff analyze exited with " << r.exitCode
                                                                   << " (is the analyze subcommand built?):\n"
                                                                   << r.output);
    std::ifstream in(dir / "report.json");
    REQUIRE_MESSAGE(in.good(), "gpueff analyze exited 0 but wrote no report.json");
    json report;
    try {
        report = json::parse(in);
    } catch (const std::exception& e) {
        FAIL("report.json is not valid JSON: " << e.what());
    }
    REQUIRE_MESSAGE(report.contains("kernel_summary"), "report.json has no kernel_summary");
    const json& ours = report["kernel_summary"]["overall"];
    REQUIRE(ours.is_array());
    REQUIRE(ours.size() == printed.size());

    // Rows of equal total time may come in either order: match each printed row within its run of ties.
    std::vector<bool> used(ours.size(), false);
    for (std::size_t i = 0; i < printed.size(); ++i) {
        const auto& p = printed[i];
        CAPTURE(i);
        CAPTURE(p.name);
        CHECK_MESSAGE(ours[i].value("total_ns", kMissing) == p.integer(1), "row order differs from nsys");
        bool found = false;
        for (std::size_t j = 0; j < ours.size() && !found; ++j) {
            if (used[j] || ours[j].value("total_ns", kMissing) != p.integer(1) ||
                !sameName(p, ours[j].value("name", std::string())) || !sameDurations(p, ours[j]))
                continue;
            used[j] = found = true;
        }
        CHECK_MESSAGE(found, "no row of report.json with this name prefix and these numbers; ours at "
                                 << i << ": " << ours[i].dump());
    }
}
