#pragma once
#include "engine/paraver/PrvReader.h"
#include "engine/paraver/Trace.h"
#include "engine/paraver/TraceLabels.h"
#include "engine/paraver/TraceLayout.h"
#include "engine/semantic/Interval.h"
#include "engine/semantic/ObjectModel.h"

#include <filesystem>
#include <istream>
#include <map>
#include <memory>
#include <optional>

namespace gpueff::pipeline {
class TraceBuilder;
struct StreamTotals;
} // namespace gpueff::pipeline

namespace gpueff::semantic {

// A Paraver trace ready for evaluation: records, labels from the .pcf and .row beside it, the object model.
class LoadedTrace {
public:
    // `eventTypes` (sorted, distinct) stands for the event types the trace has when `options` keeps only
    // some threads' records: what a window's filter finds is a property of the whole trace, not of the rows
    // loaded (gpueff histogram's passes count them in their first pass).
    // `relabel`, when given, changes the .pcf's labels as read before anything uses them (analyze names
    // kernels labelled `short [full]` by their full names, paraver::useFullKernelNames).
    static std::unique_ptr<LoadedTrace> load(const std::filesystem::path& prv,
                                             const paraver::ReadOptions& options = {},
                                             std::optional<std::vector<std::uint32_t>> eventTypes = {},
                                             void (*relabel)(paraver::TraceLabels&) = nullptr);
    // The trace a TraceBuilder kept of a record stream, labelled by the stream's .pcf and .row content;
    // `shown` names it in messages (the .prv written beside it, or the input). With `whole`, the builder saw
    // a part of the stream (a shard): the end time and the event types are the whole stream's, so windows
    // evaluate on the part as they would on the whole.
    // With `labels`, the trace takes those (its stream's, read once for all its parts) and the builder's
    // are not read (TraceBuilder::skipLabels).
    static std::unique_ptr<LoadedTrace> fromStream(pipeline::TraceBuilder& builder,
                                                   const std::filesystem::path& shown,
                                                   const pipeline::StreamTotals* whole = nullptr,
                                                   std::shared_ptr<const paraver::TraceLabels> labels = {});
    // From a trace and labels already in memory; `eventTypes` (sorted, distinct), when given, are the types
    // the trace is said to have instead of those its records have.
    LoadedTrace(paraver::Trace trace, paraver::TraceLabels labels,
                std::optional<paraver::TraceLayout> layout = std::nullopt,
                std::optional<std::vector<std::uint32_t>> eventTypes = std::nullopt);
    // The same with labels shared with other traces (the parts of one stream).
    LoadedTrace(paraver::Trace trace, std::shared_ptr<const paraver::TraceLabels> labels,
                std::optional<paraver::TraceLayout> layout = std::nullopt,
                std::optional<std::vector<std::uint32_t>> eventTypes = std::nullopt);

    const TraceContext& context() const { return *context_; }
    const paraver::Trace& trace() const { return trace_; }
    // What each thread row is (kind, task, device, stream; tasks' host and pid): from the importer when it
    // knows (nsys exports), else from the .row labels (paraver/RowModel.h). Rows in global thread order.
    const paraver::TraceLayout& layout() const { return layout_; }
    std::filesystem::path path;

private:
    paraver::Trace trace_;
    std::shared_ptr<const paraver::TraceLabels> labels_;
    paraver::TraceLayout layout_;
    std::unique_ptr<ObjectModel> objects_;
    std::unique_ptr<TraceContext> context_;
};

// The SIZE each level of the .row file must have for this header (levels the header cannot tell, CPU and
// NODE of a trace without resource section, are absent: any size is accepted).
std::map<std::string, std::size_t> expectedRowSizes(const paraver::TraceHeader& header);

// The labels of a record stream's .pcf and .row text (TraceBuilder's, ShardSpill's), read from the streams a
// line at a time; `shown` names the trace in messages.
std::shared_ptr<const paraver::TraceLabels> streamLabels(std::istream& pcfText, std::istream& rowText,
                                                         const paraver::TraceHeader& header,
                                                         const std::filesystem::path& shown);

// NAME.prv or NAME.prv.gz -> NAME (the stem shared by .pcf and .row).
std::filesystem::path traceStem(const std::filesystem::path& prv);
// Whether the path names a .prv or .prv.gz file.
inline bool isParaverTrace(const std::filesystem::path& path) {
    return traceStem(path) != path;
}

} // namespace gpueff::semantic
