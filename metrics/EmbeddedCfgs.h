#pragma once
#include <string>

namespace gpueff::metrics {

// The text of a cfg shipped in cfgs/ (compiled into the binary), by its path under cfgs/; null if absent.
const std::string* embeddedCfg(const std::string& name);

} // namespace gpueff::metrics
