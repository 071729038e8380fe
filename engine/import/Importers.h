#pragma once
// The formats gpueff reads, registered once (Perfetto's trace reader registry and GuessTraceType are the
// model): each importer is a row with its name, the suffixes its files carry and a sniff of the first bytes.
// Every command recognises its inputs here and nowhere else: translate, analyze, cut and filter choose how to
// read them, compare tells a trace from a report.json, the translator tells a Kineto trace from an export,
// and the analysis reads a report's format from the translation's summary (ReportOffset::format), never by
// looking at the file again.
//
// Content decides when it is recognisable (an SQLite header, a Paraver header, a JSON document); the name
// decides otherwise (a file that cannot be read yet or is damaged), so the reader that owns the format gives
// the precise error ("truncated database", "not a Paraver trace: line 1 ..."), not a generic one.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace gpueff::import {

enum class InputFormat {
    NsysExport,  // Nsight Systems SQLite export (.sqlite)
    NsysReport,  // Nsight Systems report (.nsys-rep): exported to SQLite by nsys, then read as an export
    KinetoTrace, // PyTorch profiler (Kineto) Chrome-trace JSON (.json, .json.gz)
    ParaverTrace // Paraver trace of any writer (.prv, .prv.gz, with its .pcf and .row)
};

struct Importer {
    InputFormat format;
    std::string_view name;                  // "nsys", "nsys-rep", "kineto", "paraver"
    std::string_view what;                  // for messages and --help
    std::vector<std::string_view> suffixes; // the file name ends with one of them
    // The first bytes of the file (decompressed when gzip), at most kSniffBytes: whether they are this
    // format.
    bool (*sniff)(std::string_view head);
};

// JSON carries "traceEvents" near its start in every Kineto trace (after a few kB of device properties).
constexpr std::size_t kSniffBytes = 1 << 20;

// The registered importers, one row each.
const std::vector<Importer>& importers();

// The importer of a file: the first whose sniff accepts its content, or when no content is recognised (a file
// that cannot be read, an empty or damaged one) the one whose suffix it carries; nullptr when neither. A JSON
// document without "traceEvents" in its first MiB (a report.json) is no trace, whatever its name.
const Importer* sniffInput(const std::filesystem::path& path);

// The same, throwing gpueff::Error naming the file and the formats gpueff reads when it is none of them.
const Importer& importerOf(const std::filesystem::path& path);

// Exports a .nsys-rep with nsys into the .sqlite beside it (or takes that .sqlite when it exists): the nsys
// importer's first step. Other inputs are returned as they are.
std::filesystem::path exportedInput(const std::filesystem::path& input);

} // namespace gpueff::import
