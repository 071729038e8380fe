#pragma once
// The nsys importer's pre-pass: each input recognised (engine/import) and opened as an export (a Kineto
// trace read into memory as one, engine/kineto and KinetoRows.h; a .nsys-rep exported first), its processes,
// threads, streams, GPUs and ranks found, the evidence its clock is aligned by read; the inputs checked
// together (ranks, GPU activity); and, once the clocks are aligned, each report placed on the trace clock.
// One report per worker: each writes only its own slots.
#include "engine/import/Importers.h"
#include "engine/nsys/ClockAlignment.h"
#include "engine/nsys/NsysExport.h"
#include "engine/nsys/ReportContext.h"
#include "engine/nsys/Translator.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gpueff::nsys {

// What reading a Kineto trace learnt.
struct ImportFacts {
    double seconds = 0;
    std::int64_t worldSize = 0; // distributedInfo.world_size of a Kineto trace, 0 when unknown
};

// What the pre-pass learns of each report, one slot per input (a worker writes only its report's slots).
struct PrePass {
    std::vector<std::filesystem::path> inputs; // as read: a .nsys-rep's export
    std::vector<import::InputFormat> formats;
    std::vector<std::unique_ptr<NsysExport>> reports;
    std::vector<ReportObjects> objects;
    std::vector<char> gpuActivity;
    std::vector<ImportFacts> imports;
    std::vector<ClockEvidence> clockEvidence;
};

// Each input's format; a .nsys-rep exported first, on the calling thread (nsys prints as it goes).
void recogniseInputs(const TranslateOptions& options, PrePass& pass);

// The pre-pass proper, `jobs` reports at a time: every input opened, and those of `scanned` (every one when
// null) scanned (scanReport). Throws gpueff::Error naming the input at fault.
void scanReports(const TranslateOptions& options, const std::vector<const SourceKind*>& kinds, bool wantMpi,
                 unsigned jobs, int cacheKiB, std::int64_t mapBytes, bool tty, PrePass& pass,
                 const std::vector<std::size_t>* scanned = nullptr);
// One opened report's processes, threads, streams, GPUs and ranks, into `objects` (empty), and its clock
// evidence. The export keeps what its scans learnt (storage order, rows left out): a report scanned by
// another process of a distributed run is scanned again by the one that reads its records.
void scanReport(const std::vector<const SourceKind*>& kinds, bool wantMpi, const NsysExport& report,
                bool severalInputs, ReportObjects& objects, ClockEvidence& clock);

// The inputs together: one rank per process, at least one with GPU work, notes on a partial job.
void checkInputs(const PrePass& pass, const std::function<void(const std::string&)>& log,
                 TranslateSummary& summary);

// Each report's place on the trace clock (output time = export time + offset: time 0 is the earliest record
// of all), the trace's duration and the wall clock of its time 0.
void placeReports(const ClockAlignment& clocks, const std::vector<ReportObjects>& objects,
                  const std::vector<std::filesystem::path>& inputs, const std::vector<char>& gpuActivity,
                  TranslateSummary& summary);

} // namespace gpueff::nsys
