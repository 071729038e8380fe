#include "metrics/DeviceActivity.h"

#include "engine/common/Error.h"
#include "engine/semantic/TypesRead.h"
#include "engine/semantic/Window.h"
#include "metrics/EmbeddedCfgs.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <map>
#include <stdexcept>

namespace gpueff::metrics {

namespace {

// Every cfg the analysis evaluates. CfgRows refuses any other: a shard's record streams hold only the event
// types these cfgs walk (eventTypesWalked), so a cfg evaluated without being listed would miss events.
constexpr std::array<std::string_view, 9> kAnalysisCfgs = {
    "model/device_activity.cfg",    "model/cuda_graphs.cfg",       "model/nccl_kernels.cfg",
    "model/memory_operations.cfg",  "analysis/kernels_queued.cfg", "analysis/launches_in_transit.cfg",
    "hwcounters/tensor_active.cfg", "model/host_blocking.cfg",     "model/mpi_calls.cfg"};

semantic::Cfg parseEmbedded(const std::string& name) {
    const auto* text = embeddedCfg(name);
    if (!text) throw Error("cfg " + name + " is not compiled into this gpueff");
    return semantic::parseCfgText(*text, "cfgs/" + name);
}

} // namespace

std::span<const std::string_view> analysisCfgs() {
    return kAnalysisCfgs;
}

std::optional<std::vector<std::pair<std::uint32_t, std::uint32_t>>>
eventTypesWalked(const paraver::TraceLabels& labels) {
    std::vector<semantic::Cfg> cfgs;
    for (auto name : kAnalysisCfgs) cfgs.push_back(parseEmbedded(std::string(name)));
    return semantic::eventTypesWalked(cfgs, labels);
}

struct CfgRows::State {
    semantic::Cfg cfg;
    std::unique_ptr<semantic::WindowSet> windows;
    std::int64_t end = 0;
};

CfgRows::CfgRows(const semantic::LoadedTrace& trace, const std::string& embeddedName)
    : state_(std::make_unique<State>()) {
    if (std::find(kAnalysisCfgs.begin(), kAnalysisCfgs.end(), embeddedName) == kAnalysisCfgs.end())
        throw std::logic_error("cfgs/" + embeddedName +
                               " is evaluated by the analysis but not in kAnalysisCfgs");
    state_->cfg = parseEmbedded(embeddedName);
    state_->windows = std::make_unique<semantic::WindowSet>(state_->cfg, trace.context());
    state_->end = trace.context().endTime;
    for (std::size_t w = 0; w < state_->windows->size(); ++w)
        if (state_->windows->level(w) != semantic::Level::Thread)
            throw Error("cfgs/" + embeddedName + ": window '" + state_->windows->name(w) +
                        "' must be a thread-level window");
}

CfgRows::CfgRows(CfgRows&&) noexcept = default;
CfgRows::~CfgRows() = default;

std::size_t CfgRows::windows() const {
    return state_->windows->size();
}

bool CfgRows::hasEvents(std::size_t window) const {
    try {
        state_->windows->requireEvents(window);
        return true;
    } catch (const Error&) {
        return false;
    }
}

void CfgRows::walk(std::size_t window, std::size_t thread, bool keepZeros,
                   const std::function<void(const Span&)>& use) const {
    auto cursor = state_->windows->makeRow(window, thread);
    cursor->init();
    while (true) {
        // Not merged with an equal neighbour: back-to-back instances of one kernel stay two instances.
        if (cursor->end > cursor->begin && (keepZeros || cursor->value != 0))
            use({cursor->begin, cursor->end, static_cast<std::int64_t>(std::llround(cursor->value))});
        if (cursor->end >= state_->end) break;
        cursor->next();
    }
}

Spans CfgRows::row(std::size_t window, std::size_t thread, bool keepZeros) const {
    Spans out;
    walk(window, thread, keepZeros, [&](const Span& s) { out.push_back(s); });
    return out;
}

DeviceActivity deviceLayout(const paraver::TraceLayout& layout) {
    DeviceActivity out;
    // Devices, streams and tasks come as data from the trace's layout (the importer's objects, or the
    // .row labels of a trace read from a file): nothing here parses a label.
    out.tasks.resize(layout.tasks.size());
    for (std::size_t t = 0; t < layout.tasks.size(); ++t) {
        auto& info = out.tasks[t];
        info.label = layout.tasks[t].label;
        info.pid = layout.tasks[t].pid;
        info.host = layout.tasks[t].host;
        info.input = layout.tasks[t].input;
    }
    std::map<std::pair<std::size_t, int>, std::size_t> byTaskGpu;
    std::map<std::pair<std::size_t, int>, std::size_t> metricRows; // (task, k) -> row
    for (std::size_t th = 0; th < layout.rows.size(); ++th) {
        const auto& row = layout.rows[th];
        std::size_t task = row.task;
        // Device numbers beyond int are no device a CUDA process has (a corrupt export): CPU rows.
        bool device = row.device >= 0 && row.device <= INT_MAX;
        if (row.kind == paraver::RowKind::CudaStream && device) {
            int gpu = static_cast<int>(row.device);
            auto [it, fresh] = byTaskGpu.try_emplace({task, gpu}, out.devices.size());
            if (fresh) {
                Device d;
                const auto& info = out.tasks[task];
                d.task = task;
                d.gpu = gpu;
                d.host = info.host;
                d.id = info.pid >= 0 ? info.host + ":" + std::to_string(info.pid) + ":" + std::to_string(gpu)
                                     : "task" + std::to_string(task + 1) + ":" + std::to_string(gpu);
                d.name = "CUDA-D" + std::to_string(gpu) + " " + info.label;
                out.devices.push_back(std::move(d));
            }
            out.devices[it->second].rows.push_back(th);
        } else if (row.kind == paraver::RowKind::GpuMetrics && device) {
            metricRows[{task, static_cast<int>(row.device)}] = th;
            out.tasks[task].metricRows.push_back(th);
        } else {
            out.tasks[task].cpuRows.push_back(th);
        }
    }
    // A GPU's metrics row sits on the task that used it first; a task with one GPU and one metrics row owns
    // it, otherwise the k of "Metrics GPU<k>" is matched with the device number on the same host.
    for (auto& d : out.devices) {
        std::size_t own = 0, ownRow = 0, ownGpus = 0;
        for (const auto& [key, row] : metricRows)
            if (key.first == d.task) ++own, ownRow = row;
        for (const auto& other : out.devices) ownGpus += other.task == d.task;
        if (own == 1 && ownGpus == 1) {
            d.metrics = ownRow;
            continue;
        }
        for (const auto& [key, row] : metricRows)
            if (key.second == d.gpu && out.tasks[key.first].host == d.host) d.metrics = row;
    }
    return out;
}

struct WorkReader::State {
    std::vector<CfgRows> classes;
};

WorkReader::WorkReader(const semantic::LoadedTrace& trace) : state_(std::make_unique<State>()) {
    // One cfg per class: wxparaver asks a question when a cfg filters on a type the trace lacks, and NCCL
    // kernels, graph launches and copies are each absent from some traces.
    static const std::array<const char*, kClassCount> classCfgs = {
        "model/device_activity.cfg", "model/cuda_graphs.cfg", "model/nccl_kernels.cfg",
        "model/memory_operations.cfg"};
    for (std::size_t c = 0; c < kClassCount; ++c) {
        state_->classes.emplace_back(trace, classCfgs[c]);
        if (state_->classes.back().windows() != 1)
            throw Error(std::string("cfgs/") + classCfgs[c] + " must define 1 window");
    }
}

WorkReader::~WorkReader() = default;

void WorkReader::read(Device& d) const {
    for (std::size_t c = 0; c < kClassCount; ++c) {
        d.work[c].clear();
        for (auto row : d.rows) d.work[c].push_back(state_->classes[c].row(0, row));
    }
}

DeviceActivity readDeviceActivity(const semantic::LoadedTrace& trace) {
    auto out = deviceLayout(trace.layout());
    WorkReader reader(trace);
    for (auto& d : out.devices) reader.read(d);
    return out;
}

AnalysisUnits analysisUnits(const DeviceActivity& layout, std::size_t rows) {
    // Union-find over the units: a task's host rows first, then one unit per device; a device joins the
    // unit of any other device whose GPU-metrics row it reads (processes sharing a GPU on one host).
    const std::size_t tasks = layout.tasks.size(), devices = layout.devices.size();
    std::vector<std::size_t> parent(tasks + devices);
    for (std::size_t i = 0; i < parent.size(); ++i) parent[i] = i;
    auto root = [&](std::size_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    std::map<std::size_t, std::size_t> metricsUnit; // metrics row -> the first device unit reading it
    for (std::size_t d = 0; d < devices; ++d) {
        const auto& m = layout.devices[d].metrics;
        if (!m) continue;
        auto [it, fresh] = metricsUnit.try_emplace(*m, tasks + d);
        if (!fresh) {
            auto a = root(it->second), b = root(tasks + d);
            parent[std::max(a, b)] = std::min(a, b);
        }
    }
    // Numbered by their smallest member, so every view of one layout numbers them alike.
    std::map<std::size_t, std::uint32_t> number;
    for (std::size_t i = 0; i < parent.size(); ++i) number.try_emplace(root(i), 0);
    std::uint32_t next = 0;
    for (auto& [member, n] : number) n = next++;
    AnalysisUnits out;
    out.ofRow.assign(rows, 0);
    out.devices.resize(number.size());
    out.tasks.resize(number.size());
    for (std::size_t t = 0; t < tasks; ++t) {
        auto u = number[root(t)];
        out.tasks[u].push_back(t);
        for (auto r : layout.tasks[t].cpuRows) out.ofRow.at(r) = u;
        for (auto r : layout.tasks[t].metricRows) out.ofRow.at(r) = u;
    }
    for (std::size_t d = 0; d < devices; ++d) {
        auto u = number[root(tasks + d)];
        out.devices[u].push_back(d);
        for (auto r : layout.devices[d].rows) out.ofRow.at(r) = u;
    }
    // A metrics row read by a device goes with the device (its task's unit otherwise).
    for (const auto& [row, unit] : metricsUnit) out.ofRow.at(row) = number[root(unit)];
    return out;
}

} // namespace gpueff::metrics
