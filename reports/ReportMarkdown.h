#pragma once
// POP-assessment-style Markdown report rendered from the report model (docs/report.md) alone, so it can be
// rendered again from a saved report.json (model::readReport) without the trace. Parts the report does not
// hold (null or left out) print "n/a".
#include "reports/model/Report.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpueff::reports {

struct RenderedReport {
    std::string markdown;
    // Relative path under the report directory (e.g. "plots/efficiency.svg") and content; the markdown links
    // to these paths.
    std::vector<std::pair<std::string, std::string>> files;
};

RenderedReport renderMarkdownReport(const model::Report& report);

// Formatting shared by the report and the comparison.

// The device efficiency factors of report.json, in the order and with the (indented) labels both print.
struct EfficiencyFactor {
    const char* key;
    const char* label;
};
inline constexpr EfficiencyFactor kEfficiencyFactors[] = {
    {"parallel_efficiency", "Parallel efficiency"},
    {"load_balance", "&emsp;Load balance"},
    {"communication_efficiency", "&emsp;Communication efficiency"},
    {"orchestration_efficiency", "&emsp;Orchestration efficiency"}};

// POP colour scale as an emoji square (GitHub strips inline styles): >= 80 % green, >= 70 % yellow,
// >= 60 % orange, below red; "" for no value.
std::string efficiencyColour(std::optional<double> fraction);
// "87.50 %" (two decimals), or "n/a" for no or non-finite value.
std::string formatPercent(std::optional<double> fraction);
// formatPercent with the colour square in front: "🟩 87.50 %".
std::string formatEfficiency(std::optional<double> fraction);
// A count rounded to an integer, or "n/a".
std::string formatCount(std::optional<double> v);
// printf `format` of one double (e.g. "%.2fx"), or "n/a".
std::string formatFixed(std::optional<double> v, const char* format);
// Nanoseconds in the unit that suits the magnitude: "812 ns", "12.345 µs", "1.234 ms", "2.500 s"; "n/a".
std::string formatDuration(std::optional<double> ns);
// Escapes text for a Markdown table cell: | and Markdown emphasis/link characters, and < > & as entities
// (GitHub would take <float> for an HTML tag and drop it).
std::string escapeMarkdown(std::string_view text);
// `text` as a Markdown code span, shown as it is: inside one nothing is escaped (a backslash or an entity
// would show), so the fence is one backtick more than the longest run of them in the text.
std::string codeSpan(std::string_view text);
// A readable short form of a (demangled) kernel name: no "void " return type, no parameter list, nested
// template arguments collapsed to <…> and namespaces dropped inside template arguments, each only while the
// name is longer than maxLength; then cut to maxLength characters, the last one "…". Not escaped.
std::string shortenKernelName(std::string_view name, std::size_t maxLength = 80);
// A name for a table cell: a cell wraps at spaces only, so one long word sets its column's width, and a table
// wider than the page (GitHub: 900 px) scrolls sideways. shortenKernelName, then, while a word (the
// characters between two spaces) is longer than maxWord: the name's own namespaces dropped, its nested
// template arguments collapsed and their qualifiers dropped, and at last the word cut ("…").
std::string shortenForTable(std::string_view name, std::size_t maxLength, std::size_t maxWord);

} // namespace gpueff::reports
