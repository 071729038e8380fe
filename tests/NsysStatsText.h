#pragma once
// The tables `nsys stats` printed (data/nsys/fuser_matmul_h100.nsys-stats.txt), read back for the tests that
// hold report.json's kernel summary and nsys_stats against them (test_kernel_summary_nsys.cpp,
// test_nsys_stats.cpp). Nothing here calls gpueff's code.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace nsysstatstext {

struct PrintedRow {
    std::vector<std::string> numbers; // the numeric columns, as printed
    std::string style;                // nvtx_sum's Style column
    std::string name;                 // without the '…' nsys appends to a truncated name
    bool truncated = false;
    double at(std::size_t i) const { return std::stod(numbers.at(i)); }
    std::int64_t integer(std::size_t i) const { return std::stoll(numbers.at(i)); }
};

// The rows of report `report` ("Executing 'nvtx_sum'" ...): after the dashed rule, up to the next "[k/n]"
// line; `numbers` numeric columns, then (nvtx_sum) the style, then the name. nsys intersperses blank lines.
std::vector<PrintedRow> readSection(const std::filesystem::path& path, const std::string& report,
                                    std::size_t numbers, bool style);

// nsys prints Time (%), Avg, Med and StdDev to one decimal, sizes in MB to three.
bool close(double ours, double printed, double half);

bool sameName(const PrintedRow& p, const std::string& ours);

// Time (%), Total, Instances, Avg, Med, Min, Max, StdDev of a duration table against a JSON row.
bool sameDurations(const PrintedRow& p, const nlohmann::json& r);

} // namespace nsysstatstext
