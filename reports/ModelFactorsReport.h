#pragma once
#include "metrics/ModelFactors.h"

#include <nlohmann/json.hpp>
#include <string>

namespace gpueff::reports {

// BSC basicanalysis' modelfactors.csv: the same row labels, ';'-separated, factors in percent with six
// decimals; rows that need an ideal-network (Dimemas) replay read n/a.
std::string modelFactorsCsv(const metrics::ModelFactors& factors);
nlohmann::json modelFactorsJson(const metrics::ModelFactors& factors);
std::string modelFactorsMarkdown(const metrics::ModelFactors& factors);

} // namespace gpueff::reports
