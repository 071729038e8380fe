#pragma once
// The record pipeline (docs/architecture.md): an importer (nsys exports, a Paraver trace) produces one
// time-ordered stream of typed records; stages (cut, filter) and sinks (the Paraver writer, the analysis)
// consume it. A sink learns the stream's object model before the first record and its labels after the last.
#include "engine/paraver/Provenance.h"
#include "engine/paraver/PrvWriter.h"
#include "engine/paraver/TraceHeader.h"
#include "engine/paraver/TraceLayout.h"
#include "engine/paraver/TraceRecord.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace gpueff::pipeline {

using paraver::RowAddress;
using paraver::TraceRecord;

// What a stream says about itself before its first record.
struct StreamInfo {
    std::string source;          // the input(s), for messages
    paraver::TraceHeader header; // Paraver's resource and process model, the end time, the unit
    std::vector<std::string> communicatorLines; // "c:..." lines, kept verbatim
    // Where the stream comes from (gpueff's translation, its sidecar, the cuts made), as data: written as
    // gpueff's own comment lines and read from them by the .prv importer only (engine/paraver/Provenance).
    paraver::Provenance provenance;
    std::vector<std::string> comments; // other writers' '#' lines after the header, kept verbatim
    std::vector<RowAddress> rows;      // per record row (TraceRecord::row): its place in the header
    // What the rows are (kind, task, device, stream, host): filled by importers that know it (gpueff's own
    // traces, nsys exports); empty for a foreign trace whose .row does not tell.
    paraver::TraceLayout layout;
    // Records come in time order over the whole stream, not only on each row (gpueff's merge; a .prv that
    // says gpueff wrote it, writtenInTimeOrder): a stage may stop the stream once past what it needs.
    bool timeOrdered = false;
};

// What a stream knows once it has ended: the .pcf and .row content (labels of types, values and objects).
// Writers call these to write the files; the analysis parses them, so it reads the labels a user sees.
// The writers are valid until end() returns.
struct StreamLabels {
    std::function<void(std::FILE*)> writePcf, writeRow;
    // The same .pcf with full names where writePcf gives Paraver `short [full]` labels (kernels,
    // engine/paraver/ShortLabels.h): what readers of names (the analysis) take, so that reports name kernels
    // as the export does without reading the short form back. Empty when writePcf has no short labels.
    std::function<void(std::FILE*)> writeFullNamesPcf;
    const std::function<void(std::FILE*)>& fullNamesPcf() const {
        return writeFullNamesPcf ? writeFullNamesPcf : writePcf;
    }
};

// What one of the label writers writes, as text.
std::string labelText(const std::function<void(std::FILE*)>& write);
// What one of the label writers writes, a line at a time (without its '\n', as std::getline gives it), never
// held whole: a reader of the labels (paraver::PcfReader) then holds what it keeps of them only.
void forEachLabelLine(const std::function<void(std::FILE*)>& write,
                      const std::function<void(std::string_view line)>& onLine);

// Each record row's thread in the header's order (Paraver's global thread index, the order of a trace's
// columns), and the stream's layout with its rows in that order (as is when the layout is empty).
std::vector<std::uint32_t> threadOfRows(const StreamInfo& info);
paraver::TraceLayout layoutInThreadOrder(const StreamInfo& info,
                                         const std::vector<std::uint32_t>& threadOfRow);

class RecordSink {
public:
    virtual ~RecordSink() = default;
    virtual void begin(const StreamInfo& info) = 0;
    virtual void consume(const TraceRecord& record) = 0;
    virtual void end(const StreamLabels& labels) = 0;
    // Whether the sink needs no more records (a cut past its window's end): a source polls it after each
    // record and may stop reading there; it still calls end(), with the same labels.
    virtual bool satisfied() const { return false; }
    // Parts of a stream that needs each row's order only (reports read in turn) may reach the sink from
    // several threads at once, part p through lane p, opened after begin() and closed before end(): the sink
    // then holds what it would have had from part 0's records, then part 1's, and so on, through consume().
    // Null when the sink cannot: its records come through consume() alone. Open and close are thread-safe;
    // one thread at a time uses a lane.
    virtual RecordSink* openLane(std::size_t) { return nullptr; }
    virtual void closeLane(std::size_t) {}
};

// A stage between a stream and a sink (cut, filter): it may change the stream's description and passes on
// the records it keeps.
class Stage : public RecordSink {
public:
    explicit Stage(RecordSink& next) : next_(next) {}
    bool satisfied() const override { return next_.satisfied(); }

protected:
    RecordSink& next_;
};

// One stream into several sinks (the .prv writer and the analysis in one pass).
class Tee : public RecordSink {
public:
    explicit Tee(std::vector<RecordSink*> sinks) : sinks_(std::move(sinks)) {}
    void begin(const StreamInfo& info) override {
        for (auto* s : sinks_) s->begin(info);
    }
    void consume(const TraceRecord& record) override {
        for (auto* s : sinks_) s->consume(record);
    }
    void end(const StreamLabels& labels) override {
        for (auto* s : sinks_) s->end(labels);
    }
    bool satisfied() const override {
        return !sinks_.empty() &&
               std::all_of(sinks_.begin(), sinks_.end(), [](auto* s) { return s->satisfied(); });
    }
    // Lanes of a tee of one sink are that sink's.
    RecordSink* openLane(std::size_t part) override {
        return sinks_.size() == 1 ? sinks_.front()->openLane(part) : nullptr;
    }
    void closeLane(std::size_t part) override {
        if (sinks_.size() == 1) sinks_.front()->closeLane(part);
    }

private:
    std::vector<RecordSink*> sinks_;
};

} // namespace gpueff::pipeline
