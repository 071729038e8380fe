#include "engine/semantic/LoadedTrace.h"

#include "engine/common/Error.h"
#include "engine/paraver/RowModel.h"
#include "engine/pipeline/ShardSpill.h"
#include "engine/pipeline/TraceBuilder.h"

#include <algorithm>
#include <sstream>

namespace gpueff::semantic {

std::filesystem::path traceStem(const std::filesystem::path& prv) {
    auto s = prv.string();
    for (const char* suffix : {".prv.gz", ".prv"})
        if (s.size() > std::string(suffix).size() &&
            s.compare(s.size() - std::string(suffix).size(), std::string::npos, suffix) == 0)
            return s.substr(0, s.size() - std::string(suffix).size());
    return prv;
}

LoadedTrace::LoadedTrace(paraver::Trace trace, paraver::TraceLabels labels,
                         std::optional<paraver::TraceLayout> layout,
                         std::optional<std::vector<std::uint32_t>> eventTypes)
    : LoadedTrace(std::move(trace), std::make_shared<const paraver::TraceLabels>(std::move(labels)),
                  std::move(layout), std::move(eventTypes)) {}

LoadedTrace::LoadedTrace(paraver::Trace trace, std::shared_ptr<const paraver::TraceLabels> labels,
                         std::optional<paraver::TraceLayout> layout,
                         std::optional<std::vector<std::uint32_t>> eventTypes)
    : trace_(std::move(trace)), labels_(std::move(labels)) {
    layout_ = layout && layout->rows.size() == trace_.threads.size()
                  ? std::move(*layout)
                  : paraver::layoutFromLabels(trace_.header, *labels_);
    objects_ = std::make_unique<ObjectModel>(trace_.header);
    std::vector<std::uint32_t> types;
    if (eventTypes) {
        types = std::move(*eventTypes);
    } else {
        for (const auto& t : trace_.threads)
            types.insert(types.end(), t.eventType.begin(), t.eventType.end());
        std::sort(types.begin(), types.end());
        types.erase(std::unique(types.begin(), types.end()), types.end());
    }
    context_ = std::make_unique<TraceContext>(
        TraceContext{trace_, *labels_, *objects_, trace_.endTime(), std::move(types)});
}

std::map<std::string, std::size_t> expectedRowSizes(const paraver::TraceHeader& header) {
    ObjectModel objects(header);
    std::map<std::string, std::size_t> expected = {{"THREAD", objects.count(Level::Thread)},
                                                   {"TASK", objects.count(Level::Task)},
                                                   {"APPL", objects.count(Level::Application)}};
    if (!header.cpusPerNode.empty()) {
        expected["CPU"] = objects.count(Level::Cpu);
        expected["NODE"] = objects.count(Level::Node);
    }
    return expected;
}

std::unique_ptr<LoadedTrace> LoadedTrace::load(const std::filesystem::path& prv,
                                               const paraver::ReadOptions& options,
                                               std::optional<std::vector<std::uint32_t>> eventTypes,
                                               void (*relabel)(paraver::TraceLabels&)) {
    if (!std::filesystem::exists(prv)) throw Error(prv.string() + ": no such trace");
    auto trace = paraver::readPrv(prv, options);
    paraver::TraceLabels labels;
    auto stem = traceStem(prv);
    paraver::readPcf(stem.string() + ".pcf", labels);
    if (relabel) relabel(labels);
    paraver::readRow(stem.string() + ".row", labels, expectedRowSizes(trace.header));
    auto loaded = std::make_unique<LoadedTrace>(std::move(trace), std::move(labels), std::nullopt,
                                                std::move(eventTypes));
    loaded->path = prv;
    return loaded;
}

std::shared_ptr<const paraver::TraceLabels> streamLabels(std::istream& pcfText, std::istream& rowText,
                                                         const paraver::TraceHeader& header,
                                                         const std::filesystem::path& shown) {
    auto labels = std::make_shared<paraver::TraceLabels>();
    auto stem = traceStem(shown).string();
    paraver::readPcf(pcfText, stem + ".pcf", *labels);
    paraver::readRow(rowText, stem + ".row", *labels, expectedRowSizes(header));
    return labels;
}

std::unique_ptr<LoadedTrace> LoadedTrace::fromStream(pipeline::TraceBuilder& builder,
                                                     const std::filesystem::path& shown,
                                                     const pipeline::StreamTotals* whole,
                                                     std::shared_ptr<const paraver::TraceLabels> shared) {
    auto trace = builder.takeTrace();
    std::optional<std::vector<std::uint32_t>> types;
    if (whole) {
        trace.lastRecordTime = whole->lastRecordTime;
        trace.recordsAfterEnd = whole->recordsAfterEnd;
        types = whole->eventTypes;
    }
    if (!shared) {
        std::istringstream pcf(builder.pcfText()), row(builder.rowText());
        shared = streamLabels(pcf, row, trace.header, shown);
    }
    auto loaded = std::make_unique<LoadedTrace>(std::move(trace), std::move(shared), builder.layout(),
                                                std::move(types));
    loaded->path = shown;
    return loaded;
}

} // namespace gpueff::semantic
