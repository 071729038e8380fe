#pragma once
// The cells of report.md's tables as its sections write them (ReportMarkdown, ConcurrencyMarkdown,
// KernelsMarkdown): the model's integers and optional figures in the formatters' terms, names shortened for a
// cell, and the sentence on launch coverage both the queued-kernel and the gap sections begin with.
#include "reports/ReportMarkdown.h"
#include "reports/model/Report.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

namespace gpueff::reports::cells {

constexpr std::size_t kTopKernels = 15, kMaxDetailRows = 50;
// A kernel name in a table of figures, at most this long and its words (shortenForTable) at most
// kKernelCellWord characters; the full names are listed under the tables that shorten them.
constexpr std::size_t kKernelCellChars = 60, kKernelCellWord = 36;

inline std::string na(const std::string& s) {
    return s.empty() ? "n/a" : s;
}
inline std::string count(std::optional<double> v) {
    return formatCount(v);
}
inline std::string fixed(std::optional<double> v, const char* format) {
    return formatFixed(v, format);
}
inline std::string kernelCell(const std::string& name, std::size_t max = kKernelCellChars) {
    return name.empty() ? "n/a" : escapeMarkdown(shortenForTable(name, max, kKernelCellWord));
}
// Integers and optional integers of the model as the formatters take them.
inline std::optional<double> value(std::int64_t v) {
    return static_cast<double>(v);
}
template <class T>
std::optional<double> value(const std::optional<T>& v) {
    return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
}
template <class T>
std::optional<double> value(const model::Omitted<T>& v) {
    if constexpr (requires { v->has_value(); })
        return v ? value(*v) : std::nullopt;
    else
        return v ? value(std::optional<T>(*v)) : std::nullopt;
}
// A double of the model as the formatters take it: none when not finite (null in report.json).
using model::finite;
inline std::string textOf(const model::Omitted<std::string>& v) {
    return v ? *v : std::string();
}

// A sentence naming the devices with fewer than 90 % of their kernels matched to a launch call, whose
// queued-kernel and gap-cause figures then stand on part of the work only ("" when every device has them).
std::string launchCoverage(const model::Report& m);

} // namespace gpueff::reports::cells
