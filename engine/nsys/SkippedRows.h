#pragma once
#include <cstdint>
#include <map>
#include <string>

namespace gpueff::nsys {

// table -> reason -> rows of one input that the trace leaves out, whatever found them (the SQL rule of
// RowValidity.h, a record source while reading, the pre-pass, the MPI message matching). A reason that
// starts with "kept" is about rows translated without one of their values ("kept without the numeric
// payload (...)"). Each is counted in the sidecar, printed as a warning and listed in report.json's notes
// (dataNotes, Translator.h; docs/events.md "Rows that cannot be translated").
using SkippedRows = std::map<std::string, std::map<std::string, std::uint64_t>>;

inline void addSkipped(SkippedRows& into, const SkippedRows& from) {
    for (const auto& [table, reasons] : from)
        for (const auto& [why, rows] : reasons) into[table][why] += rows;
}

} // namespace gpueff::nsys
