#include "jobs/TraceCfgs.h"

#include "engine/common/Error.h"
#include "engine/common/Text.h"
#include "engine/output/OutputFiles.h"
#include "engine/semantic/Cfg.h"
#include "jobs/StaleOutputs.h"
#include "metrics/EmbeddedCfgs.h"

#include <algorithm>
#include <sstream>

namespace gpueff::jobs {

namespace {

namespace fs = std::filesystem;
using paraver::RowKind;

// The cfgs of cfgs/ a trace may get, with the rows each is about, in the order of their file names: the
// order `wxparaver T.prv T.cfgs/*.cfg` opens them in, so that each frame opens below the one before and on
// top of it (a cascade). pypop's modelfactors cfgs are for CPU runs with states and PAPI counters: not
// written beside GPU traces.
struct TraceCfgKind {
    const char* generic; // path under cfgs/
    RowKind rows;
};
constexpr TraceCfgKind kTraceCfgs[] = {
    {"model/cuda_graphs.cfg", RowKind::CudaStream},
    {"model/device_activity.cfg", RowKind::CudaStream},
    {"views/device_state.cfg", RowKind::CudaStream},
    {"model/host_blocking.cfg", RowKind::CpuThread},
    {"analysis/kernels_in_flight.cfg", RowKind::CudaStream},
    {"analysis/kernels_queued.cfg", RowKind::CudaStream},
    {"analysis/launches_in_transit.cfg", RowKind::CudaStream},
    {"model/memory_operations.cfg", RowKind::CudaStream},
    {"model/mpi_calls.cfg", RowKind::CpuThread},
    {"model/nccl_kernels.cfg", RowKind::CudaStream},
    {"hwcounters/tensor_active.cfg", RowKind::GpuMetrics},
};

// Frames: timeline at the left of the free part of the screen, histogram at its right (wider: its columns
// are as wide as their kernel names), each cfg 30 px below the one before. Sizes are the drawing areas the
// cfg gives; a histogram's frame adds a 64-px toolbar, so with all eleven cfgs the last one ends at
// 30 + 10 x 30 + 464 = 794 px, room for the title bars and borders a window manager adds.
constexpr int kLeft = kMainWindowWidth + 10, kTop = 30, kCascade = 30;
constexpr int kTimelineWidth = 500, kHistogramWidth = 740, kFrameHeight = 400, kGap = 20;

struct Frame {
    int x, y, width, height;
};

// The rows of one kind: per task, which of its threads (in order) are of it, and their global indices
// (Paraver's thread order: the order of the .row file and of a histogram's rows).
struct RowChoice {
    std::vector<std::vector<bool>> threadsOfTask;
    std::vector<std::size_t> threads, tasks;
};

RowChoice rowsOfKind(const paraver::TraceLayout& layout, RowKind kind) {
    RowChoice out;
    out.threadsOfTask.resize(layout.tasks.size());
    for (std::size_t g = 0; g < layout.rows.size(); ++g) {
        const auto& row = layout.rows[g];
        auto& threads = out.threadsOfTask.at(row.task);
        if (threads.size() <= row.local) threads.resize(row.local + 1, false);
        threads[row.local] = row.kind == kind;
        if (row.kind == kind) out.threads.push_back(g);
    }
    for (std::size_t t = 0; t < out.threadsOfTask.size(); ++t) {
        const auto& on = out.threadsOfTask[t];
        if (std::find(on.begin(), on.end(), true) != on.end()) out.tasks.push_back(t);
    }
    return out;
}

// Paraver's object list "{ 1, 0, 1 }" at the window's own level, where it reads numbers (api/cfg.cpp
// genericParseObjects strips exactly one space around each item).
std::string objectList(const std::vector<bool>& on) {
    std::string out = "{ ";
    for (std::size_t i = 0; i < on.size(); ++i) out += std::string(i ? ", " : "") + (on[i] ? "1" : "0");
    return out + " }";
}

// The window_object lines selecting the rows at a window's level ("thread" or "task").
std::vector<std::string> objectLines(const RowChoice& rows, const std::string& level) {
    std::vector<std::string> out = {"window_object appl { 1, { All } }"};
    if (level == "task") {
        std::vector<bool> tasks(rows.threadsOfTask.size(), false);
        for (auto t : rows.tasks) tasks[t] = true;
        out.push_back("window_object task { 0, " + std::to_string(tasks.size()) + ", " + objectList(tasks) +
                      " }");
    } else if (level == "thread") {
        for (std::size_t t = 0; t < rows.threadsOfTask.size(); ++t) {
            const auto& on = rows.threadsOfTask[t];
            if (on.empty()) continue;
            out.push_back("window_object thread { 0, " + std::to_string(t) + ", " +
                          std::to_string(on.size()) + ", " + objectList(on) + " }");
        }
    } else {
        throw Error("internal error: a trace cfg window at level '" + level + "'");
    }
    return out;
}

std::string joinedIndices(const std::vector<std::size_t>& indices) {
    std::string out;
    for (auto i : indices) out += (out.empty() ? "" : ",") + std::to_string(i);
    return out;
}

// The types a window's filter picks in this trace: a label pattern the .pcf has stands for every type so
// labelled, otherwise the number beside it (paraver-kernel's EventTypeSymbolPicker).
std::vector<std::uint32_t> pickedTypes(const semantic::FilterSpec& f, const paraver::TraceLabels& pcf) {
    if (f.typeLabels.size() != f.types.size()) return f.types;
    std::vector<std::uint32_t> out;
    for (std::size_t i = 0; i < f.types.size(); ++i) {
        auto found =
            f.typeLabels[i].empty() ? std::vector<std::uint32_t>{} : pcf.typesLabelled(f.typeLabels[i]);
        if (found.empty()) found.push_back(f.types[i]);
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}

bool communicationFunction(const std::string& name) {
    for (const char* word : {"Send", "Recv", "Receive", "Messages"})
        if (name.find(word) != std::string::npos) return true;
    return false;
}

// Whether every window finds what it shows: all its filter types in the .prv (a `[x,y]` range: one type of
// it), and for a communication function a line of a tag it keeps. Then wxparaver asks nothing on load.
bool applies(const semantic::Cfg& cfg, const paraver::TraceLabels& pcf, const std::set<std::int64_t>& tags) {
    for (const auto& w : cfg.windows) {
        if (w.derived) continue;
        const auto& f = w.filter;
        if (f.typeFunction != "All" && f.typeFunction != "None") {
            auto types = pickedTypes(f, pcf);
            auto present = [&](std::uint32_t t) { return pcf.eventTypes.count(t) > 0; };
            if (f.typeFunction == "[x,y]" && types.size() >= 2) {
                auto lo = pcf.eventTypes.lower_bound(std::min(types[0], types[1]));
                if (lo == pcf.eventTypes.end() || lo->first > std::max(types[0], types[1])) return false;
            } else if (types.empty() || !std::all_of(types.begin(), types.end(), present)) {
                return false;
            }
        }
        auto thread = w.functions.find("thread");
        if (thread != w.functions.end() && communicationFunction(thread->second.name)) {
            bool any = std::any_of(tags.begin(), tags.end(), [&](std::int64_t tag) {
                return f.tagFunction == "All" ||
                       std::find(f.tags.begin(), f.tags.end(), static_cast<double>(tag)) != f.tags.end();
            });
            if (!any) return false;
        }
    }
    return true;
}

const char* rowsWord(RowKind kind) {
    switch (kind) {
    case RowKind::CudaStream:
        return "CUDA stream rows";
    case RowKind::GpuMetrics:
        return "GPU-metrics rows";
    case RowKind::CpuThread:
        break;
    }
    return "CPU thread rows";
}

struct Placement {
    Frame timeline, histogram;
    RowChoice rows;
    RowKind kind;
    std::string trace;
};

// Whether the line sets `key` (a window_ key followed by a space, an Analyzer2D key with its colon).
bool sets(const std::string& line, const std::string& key) {
    return line.rfind(key, 0) == 0 &&
           (line.size() == key.size() || line[key.size()] == ' ' || key.back() == ':');
}

// One line of the generic cfg as written for this trace: empty when dropped.
std::vector<std::string> placedLine(const std::string& line, const Placement& p,
                                    const std::vector<std::string>& levels, std::size_t& control) {
    const auto& t = p.timeline;
    const auto& h = p.histogram;
    auto with = [](const std::string& key, const std::string& value) {
        return std::vector{key + " " + value};
    };
    if (sets(line, "window_position_x")) return with("window_position_x", std::to_string(t.x));
    if (sets(line, "window_position_y")) return with("window_position_y", std::to_string(t.y));
    if (sets(line, "window_width")) return with("window_width", std::to_string(t.width));
    if (sets(line, "window_height")) return with("window_height", std::to_string(t.height));
    if (sets(line, "window_object")) {
        if (line.rfind("window_object appl", 0) != 0) return {}; // replaced by the appl line's selection
        if (levels.empty()) throw Error("internal error: a trace cfg's window_object before its window");
        return objectLines(p.rows, levels.back());
    }
    if (sets(line, "Analyzer2D.X:")) return with("Analyzer2D.X:", std::to_string(h.x));
    if (sets(line, "Analyzer2D.Y:")) return with("Analyzer2D.Y:", std::to_string(h.y));
    if (sets(line, "Analyzer2D.Width:")) return with("Analyzer2D.Width:", std::to_string(h.width));
    if (sets(line, "Analyzer2D.Height:")) return with("Analyzer2D.Height:", std::to_string(h.height));
    if (sets(line, "Analyzer2D.Zoom:")) return with("Analyzer2D.Zoom:", "Disabled");
    if (sets(line, "Analyzer2D.ShortHeaderLabels:")) return with("Analyzer2D.ShortHeaderLabels:", "True");
    if (sets(line, "Analyzer2D.Objects:")) return {};
    if (sets(line, "Analyzer2D.ControlWindow:")) control = std::stoul(trim(line.substr(25)));
    if (sets(line, "Analyzer2D.DataWindow:")) {
        // After the control window is set (which copies its row selection): the histogram's own rows.
        if (control < 1 || control > levels.size())
            throw Error("internal error: a trace cfg's control window");
        const auto& rows = levels[control - 1] == "task" ? p.rows.tasks : p.rows.threads;
        return {line, "Analyzer2D.Objects: " + joinedIndices(rows)};
    }
    return {line};
}

std::string placedCfg(const std::string& generic, const Placement& p) {
    std::istringstream in(generic);
    std::ostringstream out;
    std::vector<std::string> levels; // per window, from window_level (thread by default)
    std::size_t control = 0;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (sets(line, "window_name")) levels.push_back("thread");
        if (sets(line, "window_level") && !levels.empty()) levels.back() = trim(line.substr(12));
        for (const auto& l : placedLine(line, p, levels, control)) out << l << '\n';
        if (line == "ConfigFile.BeginDescription")
            out << "Written by gpueff for " << p.trace << ": its " << p.rows.threads.size() << " "
                << rowsWord(p.kind) << " only (generic cfg: cfgs/ of gpueff).\n";
    }
    return out.str();
}

} // namespace

void TraceCfgFacts::begin(const pipeline::StreamInfo& info) {
    layout = pipeline::layoutInThreadOrder(info, pipeline::threadOfRows(info));
}

void TraceCfgFacts::end(const pipeline::StreamLabels& labels) {
    // The .pcf Paraver reads: its types are those wxparaver's filters look for, picked by label too. Only
    // its EVENT_TYPE blocks are parsed: a trace may name millions of values (NVTX ranges), none needed here.
    pcf = {};
    paraver::PcfReader reader("(.pcf)", pcf);
    bool inTypes = false;
    pipeline::forEachLabelLine(labels.writePcf, [&](std::string_view line) {
        if (line == "EVENT_TYPE") inTypes = true;
        if (line.empty() || line == "VALUES") inTypes = false;
        if (inTypes)
            reader.line(line);
        else
            reader.skip();
    });
    reader.finish();
}

std::vector<TraceCfg> traceCfgs(const paraver::TraceLayout& layout, const paraver::TraceLabels& pcf,
                                const std::set<std::int64_t>& tags, const std::string& name) {
    std::vector<TraceCfg> out;
    for (const auto& kind : kTraceCfgs) {
        const std::string* generic = metrics::embeddedCfg(kind.generic);
        if (!generic) throw Error(std::string("internal error: no cfg ") + kind.generic);
        auto rows = rowsOfKind(layout, kind.rows);
        if (rows.threads.empty() || !applies(semantic::parseCfgText(*generic, kind.generic), pcf, tags))
            continue;
        const int y = kTop + kCascade * static_cast<int>(out.size());
        Placement p{{kLeft, y, kTimelineWidth, kFrameHeight},
                    {kLeft + kTimelineWidth + kGap, y, kHistogramWidth, kFrameHeight},
                    std::move(rows),
                    kind.rows,
                    name};
        out.push_back({fs::path(kind.generic).filename().string(), placedCfg(*generic, p)});
    }
    return out;
}

std::vector<std::string> traceCfgFiles() {
    std::vector<std::string> out;
    for (const auto& kind : kTraceCfgs) out.push_back(fs::path(kind.generic).filename().string());
    return out;
}

fs::path traceCfgDir(const fs::path& prefix) {
    auto dir = prefix;
    dir += ".cfgs";
    return dir;
}

std::unique_ptr<StaleOutputs> addTraceCfgs(output::OutputFiles& files, const fs::path& root,
                                           const fs::path& prefix, const TraceCfgFacts& facts,
                                           const std::map<std::int64_t, std::uint64_t>& communicationsByTag) {
    std::set<std::int64_t> tags;
    for (const auto& [tag, n] : communicationsByTag) tags.insert(tag);
    auto cfgs = traceCfgs(facts.layout, facts.pcf, tags, prefix.filename().string() + ".prv");
    auto dir = traceCfgDir(prefix);
    auto relative = dir.lexically_normal().lexically_relative(root.lexically_normal());
    std::set<std::string> written;
    for (const auto& cfg : cfgs) {
        auto i = files.add(dir / cfg.file);
        output::writeTextFile(files.temporary(i), files.final(i), cfg.text);
        written.insert((relative / cfg.file).string());
    }
    std::vector<std::string> candidates;
    for (const auto& file : traceCfgFiles()) candidates.push_back((relative / file).string());
    return std::make_unique<StaleOutputs>(root, candidates, written);
}

} // namespace gpueff::jobs
