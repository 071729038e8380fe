#pragma once
#include <CLI/CLI.hpp>
#include <filesystem>
#include <functional>
#include <string>

namespace gpueff::cli {

// Each subcommand registers its options and returns the action run when it is selected.
using Action = std::function<int()>;
Action addTranslate(CLI::App& app);
Action addAnalyze(CLI::App& app);
Action addHistogram(CLI::App& app);
Action addModelFactors(CLI::App& app);
Action addCompare(CLI::App& app);

// INPUT itself, or the .sqlite exported from a .nsys-rep (running nsys export when nsys is on PATH).
std::filesystem::path exportedSqlite(const std::filesystem::path& input);

// Writes `text` to `temporary` (renamed to `final` later by OutputFiles); errors name the final file.
void writeTextFile(const std::filesystem::path& temporary, const std::filesystem::path& final,
                   const std::string& text);

} // namespace gpueff::cli
