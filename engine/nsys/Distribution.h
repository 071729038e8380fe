#pragma once
// A translation shared by several processes (`mpirun -n R gpueff analyze`, jobs/Distributed.h). Every
// process opens every report and runs the pre-pass over its share of them; what each found is exchanged
// (ScanFacts), so that all of them build the same layout and clock alignment. Each runs the names pass over
// its own reports (scanned again first where another process scanned them), whose names are exchanged
// before values are numbered (NameFacts); then each reads the records of its own reports only. The root
// process merges the MPI messages and, when trace files are written, the records the others relay with their
// merge keys: the one stream a single process would have written.
#include "engine/nsys/ClockAlignment.h"
#include "engine/nsys/RecordSource.h"
#include "engine/nsys/ReportContext.h"
#include "engine/nsys/Translator.h"
#include "engine/paraver/EventCatalog.h"
#include "engine/paraver/PrvWriter.h"
#include "engine/paraver/TraceLayout.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gpueff::nsys {

// What one process learnt while reading its own reports that the trace as a whole needs: records by kind,
// the rows skipped and text repaired per report, the labels its reports gave while their
// records were read (GPU metric names, MPI calls), the event types its records used.
struct PartFacts {
    std::map<std::string, std::uint64_t> recordsByKind;
    struct Report {
        std::uint32_t index = 0;
        SkippedRows skippedRows;
        std::map<std::string, std::uint64_t> repairedText;
        static void fields(auto& s, auto&& f) {
            f("index", s.index);
            f("skippedRows", s.skippedRows);
            f("repairedText", s.repairedText);
        }
    };
    std::vector<Report> reports;
    struct TypeLabel {
        std::uint32_t type = 0, from = 0;
        std::string label;
        static void fields(auto& s, auto&& f) {
            f("type", s.type);
            f("from", s.from);
            f("label", s.label);
        }
    };
    struct ValueLabel {
        std::uint32_t type = 0, from = 0;
        std::int64_t value = 0;
        std::string label;
        static void fields(auto& s, auto&& f) {
            f("type", s.type);
            f("from", s.from);
            f("value", s.value);
            f("label", s.label);
        }
    };
    std::vector<TypeLabel> typeLabels;
    std::vector<ValueLabel> valueLabels;
    std::vector<std::uint32_t> usedTypes;
    static void fields(auto& s, auto&& f) {
        f("recordsByKind", s.recordsByKind);
        f("reports", s.reports);
        f("typeLabels", s.typeLabels);
        f("valueLabels", s.valueLabels);
        f("usedTypes", s.usedTypes);
    }
};

// What the pre-pass found in the reports one process scanned, for every other process.
struct ScanFacts {
    struct Report {
        std::uint32_t index = 0;
        ReportObjects objects;
        ClockEvidence clock;
        static void fields(auto& s, auto&& f) {
            f("index", s.index);
            f("objects", s.objects);
            f("clock", s.clock);
        }
    };
    std::vector<Report> reports;
    static void fields(auto& s, auto&& f) { f("reports", s.reports); }
};

// The names one process's reports use, by family of event types (types sharing one value space), gathered
// by its names pass: every process adds every other's before values are numbered, so all number alike.
struct NameFacts {
    struct Family {
        std::vector<std::uint32_t> types; // the family's types; the first is the one names are added under
        std::vector<std::string> names;
        static void fields(auto& s, auto&& f) {
            f("types", s.types);
            f("names", s.names);
        }
    };
    std::vector<Family> families;
    static void fields(auto& s, auto&& f) { f("families", s.families); }
};

class Distribution {
public:
    virtual ~Distribution() = default;
    // Before the pre-pass, alike on every process: the reports whose pre-pass this process runs.
    virtual std::vector<std::size_t> scanShare() = 0;
    // After its share of the pre-pass, on every process: the other processes' findings.
    virtual std::vector<ScanFacts> exchangeScans(const ScanFacts& mine) = 0;
    // The reports whose records this process reads, chosen from the layout every process computed alike.
    virtual std::vector<std::size_t> ownReports(const paraver::TraceLayout& layout) = 0;
    // The root merges the MPI messages (lines between reports) and writes the trace files when asked to.
    virtual bool root() const = 0;
    // Whether the root writes trace files: the others then relay every record they merge.
    virtual bool traceWritten() const = 0;
    // Root, writing the trace: the other processes' record streams, merged into the trace files only.
    virtual std::vector<std::unique_ptr<RecordSource>> remoteStreams() = 0;
    // The others, when the trace is written: where each row's records go in a .prv line (the records are
    // relayed formatted, so that the root does not format them), then each record merged here with its merge
    // key, then the end.
    virtual void beginRelay(std::vector<paraver::RowAddress> rows) = 0;
    virtual void relay(const TraceRecord& record, std::uint64_t sequence, std::uint64_t origin) = 0;
    virtual void endRelay() = 0;
    // After the names pass of its own reports, on every process: the other processes' names.
    virtual std::vector<NameFacts> exchangeNames(const NameFacts& mine) = 0;
    // After the merge, on every process: the other processes' facts.
    virtual std::vector<PartFacts> exchange(const PartFacts& mine) = 0;
};

// The names `catalog` has collected, by family; another process's names added to `catalog` (still
// collecting: before EventCatalog::assignValues).
NameFacts collectNameFacts(const paraver::EventCatalog& catalog);
void applyNameFacts(const NameFacts& facts, paraver::EventCatalog& catalog);

// The labels of `catalog` given by the writers of `reports` (EventCatalog's `from`: 1 + report index), and
// the event types it marked used.
void collectCatalogFacts(const paraver::EventCatalog& catalog, const std::vector<std::size_t>& reports,
                         PartFacts& facts);
// Another process's facts into this one's catalogue and summary: the result does not depend on the order
// in which processes' facts are applied (the catalogue's writer ranks decide between labels).
void applyPartFacts(const PartFacts& facts, paraver::EventCatalog& catalog, TranslateSummary& summary);

} // namespace gpueff::nsys
