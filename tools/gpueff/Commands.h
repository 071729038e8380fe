#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace gpueff::cli {

// Each subcommand registers its options and returns the action run when it is selected.
using Action = std::function<int()>;
Action addTranslate(CLI::App& app);
Action addHistogram(CLI::App& app);
Action addModelFactors(CLI::App& app);

} // namespace gpueff::cli
