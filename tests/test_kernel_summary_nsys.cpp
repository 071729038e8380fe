// report.json's kernel_summary against the real `nsys stats -r cuda_gpu_kern_sum` output printed for the same
// profile (data/nsys/fuser_matmul_h100.nsys-stats.txt): the table nsys users already trust.
#include "tests/TestSupport.h"

#include <cmath>
#include <doctest/doctest.h>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace testsupport;
using nlohmann::json;

namespace {

constexpr std::int64_t kMissing = -1; // absent keys compare unequal instead of asserting
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct PrintedRow {
    double percent, avg, med, stddev;
    std::int64_t total, instances, min, max;
    std::string name; // without the '…' nsys appends to a truncated name
    bool truncated = false;
};

// The section starts at "Executing 'cuda_gpu_kern_sum'", its rows follow the dashed rule and end at the next
// "[k/n]" line; nsys intersperses blank lines.
std::vector<PrintedRow> readKernSum(const std::filesystem::path& path) {
    std::ifstream in(path);
    REQUIRE_MESSAGE(in.good(), path.string());
    std::string line;
    while (std::getline(in, line) && line.find("Executing 'cuda_gpu_kern_sum'") == std::string::npos) {
    }
    while (std::getline(in, line) && line.find("--------") == std::string::npos) {
    }
    const std::string ellipsis = "\xE2\x80\xA6";
    std::vector<PrintedRow> rows;
    while (std::getline(in, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        if (line[0] == '[' || line.rfind("Generated", 0) == 0) break;
        std::istringstream s(line);
        PrintedRow r;
        s >> r.percent >> r.total >> r.instances >> r.avg >> r.med >> r.min >> r.max >> r.stddev;
        REQUIRE_MESSAGE(!s.fail(), "unparsable row: " << line);
        std::getline(s >> std::ws, r.name);
        if (r.name.size() >= ellipsis.size() &&
            r.name.compare(r.name.size() - ellipsis.size(), ellipsis.size(), ellipsis) == 0) {
            r.name.resize(r.name.size() - ellipsis.size());
            r.truncated = true;
        }
        rows.push_back(r);
    }
    return rows;
}

bool matches(const PrintedRow& p, const json& r) {
    auto name = r.value("name", std::string());
    bool nameOk = p.truncated ? name.rfind(p.name, 0) == 0 : name == p.name;
    // nsys prints Time (%), Avg, Med and StdDev to one decimal.
    auto close = [](double ours, double printed) { return std::fabs(ours - printed) <= 0.05 + 1e-9; };
    return nameOk && r.value("total_ns", kMissing) == p.total &&
           r.value("instances", kMissing) == p.instances && r.value("min_ns", kMissing) == p.min &&
           r.value("max_ns", kMissing) == p.max && close(r.value("time_percent", kNaN), p.percent) &&
           close(r.value("avg_ns", kNaN), p.avg) && close(r.value("med_ns", kNaN), p.med) &&
           close(r.value("stddev_ns", kNaN), p.stddev);
}

} // namespace

TEST_CASE("kernel_summary equals nsys stats cuda_gpu_kern_sum on fuser_matmul_h100") {
    auto printed = readKernSum(dataDir() / "nsys" / "fuser_matmul_h100.nsys-stats.txt");
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
        CHECK_MESSAGE(ours[i].value("total_ns", kMissing) == p.total, "row order differs from nsys");
        bool found = false;
        for (std::size_t j = 0; j < ours.size() && !found; ++j) {
            if (used[j] || ours[j].value("total_ns", kMissing) != p.total || !matches(p, ours[j])) continue;
            used[j] = found = true;
        }
        CHECK_MESSAGE(found, "no row of report.json with this name prefix and these numbers; ours at "
                                 << i << ": " << ours[i].dump());
    }
}
