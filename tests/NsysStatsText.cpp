#include "tests/NsysStatsText.h"

#include <cmath>
#include <doctest/doctest.h>
#include <fstream>
#include <limits>
#include <sstream>

namespace nsysstatstext {

namespace {
constexpr std::int64_t kMissing = -1; // absent keys compare unequal instead of asserting
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
} // namespace

// The rows of report `report` ("Executing 'nvtx_sum'" ...): after the dashed rule, up to the next "[k/n]"
// line; `numbers` numeric columns, then (nvtx_sum) the style, then the name. nsys intersperses blank lines.
std::vector<PrintedRow> readSection(const std::filesystem::path& path, const std::string& report,
                                    std::size_t numbers, bool style) {
    std::ifstream in(path);
    REQUIRE_MESSAGE(in.good(), path.string());
    std::string line;
    while (std::getline(in, line) && line.find("Executing '" + report + "'") == std::string::npos) {
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
        r.numbers.resize(numbers);
        for (auto& n : r.numbers) s >> n;
        if (style) s >> r.style;
        REQUIRE_MESSAGE(!s.fail(), "unparsable row: " << line);
        std::getline(s >> std::ws, r.name);
        while (!r.name.empty() && (r.name.back() == ' ' || r.name.back() == '\r')) r.name.pop_back();
        if (r.name.size() >= ellipsis.size() &&
            r.name.compare(r.name.size() - ellipsis.size(), ellipsis.size(), ellipsis) == 0) {
            r.name.resize(r.name.size() - ellipsis.size());
            r.truncated = true;
        }
        rows.push_back(r);
    }
    return rows;
}

// nsys prints Time (%), Avg, Med and StdDev to one decimal, sizes in MB to three.
bool close(double ours, double printed, double half) {
    return std::fabs(ours - printed) <= half + 1e-9;
}

bool sameName(const PrintedRow& p, const std::string& ours) {
    return p.truncated ? ours.rfind(p.name, 0) == 0 : ours == p.name;
}

// Time (%), Total, Instances, Avg, Med, Min, Max, StdDev of a duration table against a JSON row.
bool sameDurations(const PrintedRow& p, const nlohmann::json& r) {
    return r.value("total_ns", kMissing) == p.integer(1) && r.value("instances", kMissing) == p.integer(2) &&
           r.value("min_ns", kMissing) == p.integer(5) && r.value("max_ns", kMissing) == p.integer(6) &&
           close(r.value("time_percent", kNaN), p.at(0), 0.05) &&
           close(r.value("avg_ns", kNaN), p.at(3), 0.05) && close(r.value("med_ns", kNaN), p.at(4), 0.05) &&
           close(r.value("stddev_ns", kNaN), p.at(7), 0.05);
}

} // namespace nsysstatstext
