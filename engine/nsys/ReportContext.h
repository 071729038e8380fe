#pragma once
#include "engine/nsys/NsysExport.h"
#include "engine/nsys/RecordSource.h"
#include "engine/paraver/EventCatalog.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace gpueff::nsys {

struct StreamKey {
    std::int64_t globalPid, device, stream;
    auto operator<=>(const StreamKey&) const = default;
    static void fields(auto& s, auto&& f) {
        f("globalPid", s.globalPid);
        f("device", s.device);
        f("stream", s.stream);
    }
};

// One GPU activity, to find the extra row ("lane") of an activity that overlaps an earlier one of the same
// table on its stream: Paraver's last-value semantics would end the first one's value at the second's end.
struct LaneKey {
    StreamKey stream;
    std::int64_t correlationId, start;
    auto operator<=>(const LaneKey&) const = default;
    static void fields(auto& s, auto&& f) {
        f("stream", s.stream);
        f("correlationId", s.correlationId);
        f("start", s.start);
    }
};

// What a report contains, found by the pre-pass before any record is written: the header needs every
// thread and the time span up front.
struct ReportObjects {
    struct Process {
        std::set<std::int64_t> threads; // globalTid
        std::set<StreamKey> streams;
        std::map<StreamKey, std::uint32_t> lanes; // streams needing more than one row: row count
        std::set<std::int64_t> metricGpus;        // GPU_METRICS typeId
        std::int64_t mpiRank = -1;
        static void fields(auto& s, auto&& f) {
            f("threads", s.threads);
            f("streams", s.streams);
            f("lanes", s.lanes);
            f("metricGpus", s.metricGpus);
            f("mpiRank", s.mpiRank);
        }
    };
    std::map<std::int64_t, Process> processes; // by globalPid
    std::int64_t firstTime = INT64_MAX, lastTime = INT64_MIN;
    std::set<std::string> scanned;           // tables already discovered (several kinds share tables)
    std::map<LaneKey, std::uint32_t> laneOf; // activities on a lane > 0 (rare: overlapping activities)
    // The names of the report's NVTX domains numbered across the trace (nvtxDomainBases), when NVTX was
    // discovered: from the domains of the rows translated, which the scan finds (a process that did not
    // scan the report would find others in the domains' meta rows).
    std::optional<std::vector<std::string>> nvtxNumbered;
    static void fields(auto& s, auto&& f) {
        f("processes", s.processes);
        f("firstTime", s.firstTime);
        f("lastTime", s.lastTime);
        f("scanned", s.scanned);
        f("laneOf", s.laneOf);
        f("nvtxNumbered", s.nvtxNumbered);
    }

    bool firstScan(const std::string& table) { return scanned.insert(table).second; }

    Process& process(std::int64_t globalId) { return processes[globalPidOf(globalId)]; }
    void span(std::int64_t first, std::int64_t last) {
        firstTime = std::min(firstTime, first);
        lastTime = std::max(lastTime, last);
    }
};

// The catalogue of event types and values shared by the whole trace, as one report writes to it: its labels
// carry the report's rank, so that where reports disagree the label kept does not depend on which parallel
// worker wrote first (EventCatalog).
class ReportCatalog {
public:
    ReportCatalog(paraver::EventCatalog& catalog, std::size_t report)
        : catalog_(catalog), from_(static_cast<std::uint32_t>(report + 1)) {}
    void declare(std::uint32_t type, std::string label) { catalog_.declare(type, std::move(label), from_); }
    void labelValue(std::uint32_t type, std::int64_t value, std::string label) {
        catalog_.labelValue(type, value, std::move(label), from_);
    }
    bool declared(std::uint32_t type) const { return catalog_.declared(type); }
    void joinFamily(std::uint32_t type, std::uint32_t member) { catalog_.joinFamily(type, member); }
    NameDictionary& names(std::uint32_t type) { return catalog_.names(type); }
    std::int64_t nameValue(std::uint32_t type, std::string_view name) {
        return catalog_.nameValue(type, name);
    }

private:
    paraver::EventCatalog& catalog_;
    std::uint32_t from_;
};

// Everything a record source of one report needs: the export, its clock shift, the rows of the layout and
// the catalogue of event types and values shared by the whole trace. One report's sources run on one thread
// at a time; only the catalogue is shared between reports.
class ReportContext {
public:
    // `index`: the report's place among the inputs.
    ReportContext(const NsysExport& ex, std::size_t index, std::int64_t clockShift,
                  paraver::EventCatalog& types)
        : report(ex), shift(clockShift), catalog(types, index) {}

    const NsysExport& report;
    std::int64_t shift; // output time = export time + shift
    ReportCatalog catalog;
    std::unordered_map<std::int64_t, std::uint32_t> threadRows;
    std::map<StreamKey, std::uint32_t> streamRows;
    std::map<std::pair<StreamKey, std::uint32_t>, std::uint32_t> laneRows; // (stream, lane > 0) -> row
    std::map<LaneKey, std::uint32_t> laneOf;
    std::unordered_map<std::int64_t, std::uint32_t> metricRows;
    // Rows its sources left out or translated without a value (SkippedRows.h), counted while they are
    // opened and read; the translator adds them to the export's after the merge.
    SkippedRows skipped;
    // Base event type of each NVTX domain that is neither the default, NCCL nor neSmiK, by name: nsys2prv's
    // 9600 + 100 * k for the k-th name in byte order over the whole trace (every report), set before sources
    // open.
    const std::map<std::string, std::uint32_t>* nvtxDomainBases = nullptr;

    std::uint32_t threadRow(std::int64_t globalTid) const;
    std::uint32_t streamRow(const StreamKey& key) const;
    // The row of one activity: its stream's, or an extra lane's when it overlaps an earlier activity.
    std::uint32_t activityRow(const StreamKey& key, std::int64_t correlationId, std::int64_t start) const;

    // Value of the name behind string id `id` under `type`, cached per report (no string work per record).
    std::int64_t stringValue(std::uint32_t type, std::int64_t id);
    // The ORDER BY of a query on `table` (columns qualified by `alias`): by start for the records
    // (NsysExport::startOrder); in storage order for the names pass, whose names do not depend on order.
    std::string order(const std::string& table, const std::string& alias = "") const {
        return naming_ ? (alias.empty() ? "rowid" : alias + ".rowid") : report.startOrder(table, alias);
    }
    // Before the names pass opens its sources.
    void startNaming() { naming_ = true; }
    // After the names pass: what it counted is forgotten, and cached values were provisional.
    void startWriting() {
        stringValues_.clear();
        skipped.clear();
        naming_ = false;
    }
    std::int64_t textValue(std::uint32_t type, std::string_view text) {
        return catalog.nameValue(type, text);
    }

private:
    std::map<std::pair<std::uint32_t, std::int64_t>, std::int64_t> stringValues_;
    bool naming_ = false;
};

// The kinds of records `translate` knows (--only/--skip take these names).
struct SourceKind {
    const char* name;
    const char* description;
    // Pre-pass: the objects (threads, streams, GPUs) and time span this kind contributes.
    void (*discover)(const NsysExport&, ReportObjects&);
    // Opens this kind's record sources for one report (none when its tables are absent).
    void (*open)(ReportContext&, std::vector<std::unique_ptr<RecordSource>>&);
    // Whether its records carry values derived from names: such kinds also run in the names pass, before
    // any record is written, so that values can be numbered in the names' order (docs/events.md).
    bool namesValues;
};

const std::vector<SourceKind>& sourceKinds();

} // namespace gpueff::nsys
