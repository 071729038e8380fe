#pragma once
#include "engine/common/Parallel.h"
#include "engine/import/Importers.h"
#include "engine/nsys/ClockAlignment.h"
#include "engine/nsys/SkippedRows.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace gpueff::pipeline {
class RecordSink;
class SinkChain;
} // namespace gpueff::pipeline

namespace gpueff::nsys {

class Distribution;

struct TranslateOptions {
    // nsys exports (.sqlite; a .nsys-rep is exported first) and Kineto traces (read as exports): the
    // nsys importer's inputs (engine/import).
    std::vector<std::filesystem::path> inputs;
    std::set<std::string> only, skip; // kinds (see sourceKinds())
    // When not empty: only the records of these kinds (among the selected ones) are read and streamed, while
    // the layout, the header and the time origin still come from every selected kind: the records are those
    // the full translation has, in its trace time, at the cost of the pre-pass and these kinds alone (a
    // first pass that needs some records only, e.g. the span of an NVTX region for `gpueff cut --region`).
    std::set<std::string> streamedKinds;
    bool threadNames = false; // nsys thread names in the .row instead of THREAD a.t.n
    bool progress = false;
    // Reports read in parallel by this many workers (0: one per core, std::thread::hardware_concurrency);
    // 1 reads them one after the other on the calling thread. The output does not depend on it.
    unsigned jobs = 0;
    // Called once per table and reason for rows skipped or text repaired (after the outputs are written),
    // and for each input whose clock could not be aligned by its session start (before any record is
    // read); the CLI prints each as "gpueff: warning: <line>" whatever --quiet says.
    std::function<void(const std::string&)> warn;
    // Several inputs that can be placed neither by their session start nor by a shared sync point are
    // merged anyway, each with its session start taken as the earliest input's (refused otherwise).
    bool unaligned = false;
    // When not empty: the exports themselves, serialized SQLite images (one per input, which then only names
    // it in messages), opened in memory (sqlite3_deserialize). For the fuzz harness.
    std::vector<std::vector<unsigned char>> images;
    // A translation shared by several processes (Distribution.h): this process reads its own reports'
    // records only. No stages then.
    Distribution* distribution = nullptr;
    // When every report open in the one time-ordered merge would take more than `memoryLimit` bytes (about
    // kOpenReportBytes each: SQLite's schema, statements and caches), the reports are read in turn, `jobs`
    // at a time, their records waiting in a temporary file in `spillDirectory` until the merge reads them
    // back (ReportStreams' spill). 0: never. Not in a distributed translation.
    std::uint64_t memoryLimit = 0;
    std::filesystem::path spillDirectory;
};

// What one report open in the merge holds, measured with 128 rank exports (bench/memory.sh): 1.7 MB.
inline constexpr std::uint64_t kOpenReportBytes = 2u << 20;

// Where the merged records go: the sink chain the caller built (stages, the trace files, the analysis; the
// records in one time order across rows when it writes a .prv), and the files that are the nsys importer's
// own.
struct TranslateOutputs {
    pipeline::SinkChain* chain = nullptr;
    // The sinks need each row's records in time order, not one order across rows (the analysis without the
    // trace files): the reports are read in turn, `jobs` at a time, each one's sources closed at its end,
    // so memory does not grow with the number of reports. Not with trace files or stages.
    bool rowOrderOnly = false;
    // Of the root of a distributed run that writes the trace from every process's records: the analysis of
    // this process's own records, beside the chain (which then writes the trace files only).
    pipeline::RecordSink* localOnly = nullptr;
    // A sink beside the chain that needs each row's order only and has lanes (RecordSink::openLane; the
    // analysis while the trace is written): with workers reading the reports, each report's records reach it
    // on its worker, in turn order (reports in order, then the MPI messages), so the thread writing the trace
    // does not also feed it; with one worker, from the merge. Not in a distributed run.
    pipeline::RecordSink* rowOrder = nullptr;
    std::string application; // the .row's application name (default: the first input's stem)
    // PREFIX.json: written to sidecarPath (a temporary file of the caller's output set; empty: no sidecar),
    // named sidecarFile (its file name in the trace's comment line, the whole path in errors); it names the
    // trace prvName and gives its size.
    std::filesystem::path sidecarPath, sidecarFile;
    std::string prvName;
};

struct ReportOffset {
    std::filesystem::path input; // as read (a .nsys-rep: its export)
    import::InputFormat format = import::InputFormat::NsysExport;
    InputAlignment alignment;  // how its clock was placed (ClockAlignment.h)
    std::int64_t offsetNs = 0; // output time = export time + offsetNs
    std::string nsysVersion, host;
    std::optional<std::int64_t> utcStartNs; // the session's start (UTC), when the input records it
    bool gpuActivity = true;
    SkippedRows skippedRows;
    std::map<std::string, std::uint64_t> repairedText; // table -> strings with invalid UTF-8 repaired
};

// One line per table and reason ("x.sqlite: CUPTI_ACTIVITY_KIND_KERNEL: 1 row skipped (end before start)",
// "x.sqlite: NVTX_EVENTS: 2 rows kept without the numeric payload (...)"): the warnings of `translate` and
// the notes of report.json say the same.
std::vector<std::string> dataNotes(const std::string& input, const SkippedRows& skipped,
                                   const std::map<std::string, std::uint64_t>& repaired);

struct TranslateSummary {
    std::uint64_t records = 0, bytes = 0;
    std::int64_t durationNs = 0;
    std::int64_t originUtcNs = 0; // wall clock of time 0 (0 when the exports have none)
    std::vector<ReportOffset> offsets;
    std::map<std::string, std::uint64_t> recordsByKind;
    std::map<std::uint32_t, std::uint64_t> beginsByType; // records with a non-zero value, by first event type
    std::map<std::int64_t, std::uint64_t> communicationsByTag;
    std::size_t tasks = 0, threads = 0, nodes = 0;
    double importSeconds = 0; // reading inputs of other formats (Kineto) into memory, summed over inputs
    std::vector<std::string> notes; // about the inputs as a whole (e.g. ranks of a larger job), for reports
    // About how the inputs were merged (an input whose clock could not be aligned by its session start):
    // printed as warnings by translate, listed in the sidecar and in the notes of reports.
    std::vector<std::string> warnings;
    std::vector<StageTime> stages; // where the time went (--stats)
};

// The nsys importer: Nsight Systems SQLite exports (and Kineto traces, read as exports) merged into one
// record stream into `outputs`, in trace time. Throws gpueff::Error on bad input (the caller's output set is
// then not committed: no output file exists unless the whole translation succeeded).
TranslateSummary translate(const TranslateOptions& options,
                           const std::function<void(const std::string&)>& log,
                           const TranslateOutputs& outputs);

std::vector<std::string> kindNames();

} // namespace gpueff::nsys
