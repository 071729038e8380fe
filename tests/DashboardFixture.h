#pragma once
// What the dashboard tests share: the sample's two runs analyzed once per test process, the data of a site's
// script files, and the oracle of a run's figures computed from its report.json alone (arithmetic written
// here, apart from reports/CompareUnit.cpp).
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace testsupport {

// DIR/before and DIR/after: `gpueff analyze` of data/nsys/mfu_2gpu_h100_nccl{,_after}.sqlite, with traces.
const std::filesystem::path& analyzedPair();

// The JSON a site's data script passes to its function: `function(JSON);`.
nlohmann::json scriptData(const std::filesystem::path& file, const std::string& function);

// A run's figures over its steady iterations taken together, from report.json: the mean steady iteration
// and the four factors per convention from the summed useful, useful-max and active-max times.
struct UnitOracle {
    double iterationNs = 0;
    std::size_t steady = 0;
    nlohmann::json factors; // {"nccl_as_communication": {"parallel_efficiency": ..., ...}, ...}
};
UnitOracle unitOracle(const nlohmann::json& report);

} // namespace testsupport
