#pragma once
// The cfgs written beside a trace (PREFIX.cfgs/, docs/wxparaver.md): the cfgs of cfgs/ that apply to this
// trace, made for it, so that wxparaver opens each one without a question, on the rows it is about, in a
// frame next to its main window, histograms as numbers headed by short kernel names. cfgs/ keeps the generic
// ones.
//  - Only kinds the trace has: a cfg whose filter types (numbers, `[x,y]` ranges, .pcf label patterns) are
//  not
//    all in the .prv, whose communication windows find no line of their tags, or whose rows the trace lacks
//    is left out (wxparaver would ask "Some/None of the events ... appear" or show nothing).
//  - Rows: paraver-kernel selects rows in a cfg by position only (`window_object thread { appl, task, n,
//    { 1, 0, ... } }` per task, api/cfg.cpp WindowObject); the layout is known when the trace is written, so
//    GPU views select the CUDA stream rows, Tensor Active the GPU-metrics rows, host views the CPU threads,
//    and each histogram counts over those rows only (`Analyzer2D.Objects`), not over empty host rows.
//  - Frames cascade 30 pixels apart inside a 1600x1000 screen, right of wxparaver's main window (300 px):
//    timeline left, histogram right; histograms as numbers (Zoom Disabled) with ShortHeaderLabels.
#include "engine/paraver/TraceLabels.h"
#include "engine/paraver/TraceLayout.h"
#include "engine/pipeline/RecordSink.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace gpueff::output {
class OutputFiles;
}

namespace gpueff::jobs {

class StaleOutputs;

// What a trace's cfgs are made from, gathered as the trace is written: its rows (in Paraver's global thread
// order) from the stream's start, and its event types with their labels from the .pcf at its end (a gpueff
// .pcf lists exactly the types the .prv has events of).
class TraceCfgFacts : public pipeline::RecordSink {
public:
    void begin(const pipeline::StreamInfo& info) override;
    void consume(const pipeline::TraceRecord&) override {}
    void end(const pipeline::StreamLabels& labels) override;

    paraver::TraceLayout layout;
    paraver::TraceLabels pcf;
};

struct TraceCfg {
    std::string file; // name inside PREFIX.cfgs/
    std::string text;
};

// Screen geometry the frames are laid out for.
inline constexpr int kScreenWidth = 1600, kScreenHeight = 1000, kMainWindowWidth = 300;

// The cfgs of cfgs/ that apply to the trace `name` (its .prv file name, for the descriptions), in opening
// order; `tags`: the communication tags its .prv has.
std::vector<TraceCfg> traceCfgs(const paraver::TraceLayout& layout, const paraver::TraceLabels& pcf,
                                const std::set<std::int64_t>& tags, const std::string& name);
// Every file name traceCfgs may give.
std::vector<std::string> traceCfgFiles();

// PREFIX.cfgs: where a trace's cfgs go.
std::filesystem::path traceCfgDir(const std::filesystem::path& prefix);

// Adds the cfgs of the trace written at PREFIX (`facts` gathered from its stream, `communicationsByTag` the
// lines its .prv has per tag) to `files`, whose root directory `root` holds PREFIX; the cfgs an earlier run
// wrote there and this one does not are returned as stale outputs (moveAside() before files.commit(),
// commit() after).
std::unique_ptr<StaleOutputs> addTraceCfgs(output::OutputFiles& files, const std::filesystem::path& root,
                                           const std::filesystem::path& prefix, const TraceCfgFacts& facts,
                                           const std::map<std::int64_t, std::uint64_t>& communicationsByTag);

} // namespace gpueff::jobs
