#include "metrics/DeviceActivity.h"

#include "engine/common/Error.h"
#include "engine/semantic/Window.h"
#include "metrics/EmbeddedCfgs.h"

#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <string_view>

namespace gpueff::metrics {

struct CfgRows::State {
    semantic::Cfg cfg;
    std::unique_ptr<semantic::WindowSet> windows;
    std::int64_t end = 0;
};

CfgRows::CfgRows(const semantic::LoadedTrace& trace, const std::string& embeddedName)
    : state_(std::make_unique<State>()) {
    const auto* text = embeddedCfg(embeddedName);
    if (!text) throw Error("cfg " + embeddedName + " is not compiled into this gpueff");
    state_->cfg = semantic::parseCfgText(*text, "cfgs/" + embeddedName);
    state_->windows = std::make_unique<semantic::WindowSet>(state_->cfg, trace.context());
    state_->end = trace.context().endTime;
    for (std::size_t w = 0; w < state_->windows->size(); ++w)
        if (state_->windows->level(w) != semantic::Level::Thread)
            throw Error("cfgs/" + embeddedName + ": window '" + state_->windows->name(w) +
                        "' must be a thread-level window");
}

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

Spans CfgRows::row(std::size_t window, std::size_t thread, bool keepZeros) const {
    Spans out;
    auto cursor = state_->windows->makeRow(window, thread);
    cursor->init();
    while (true) {
        if (cursor->end > cursor->begin && (keepZeros || cursor->value != 0)) {
            // Not merged with an equal neighbour: back-to-back instances of one kernel stay two instances.
            out.push_back(
                {cursor->begin, cursor->end, static_cast<std::int64_t>(std::llround(cursor->value))});
        }
        if (cursor->end >= state_->end) break;
        cursor->next();
    }
    return out;
}

namespace {
// A decimal number that fits `T` (labels are text: a number too large for an id is no id).
template <typename T>
bool parseDigits(std::string_view digits, T& out) {
    T v{};
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (ec != std::errc() || end != digits.data() + digits.size()) return false;
    out = v;
    return true;
}
} // namespace

void parseTaskLabel(const std::string& label, std::int64_t& pid, std::string& host) {
    pid = -1;
    host.clear();
    auto space = label.rfind(' ');
    auto at = label.find('@', space == std::string::npos ? 0 : space);
    if (space == std::string::npos || at == std::string::npos || at == space + 1) return;
    auto digits = label.substr(space + 1, at - space - 1);
    if (digits.find_first_not_of("0123456789") != std::string::npos) return;
    if (!parseDigits(digits, pid)) return;
    host = label.substr(at + 1);
}

namespace {

// "CUDA-D<gpu>.S<stream>[.<lane>]" -> gpu, or -1.
int streamGpu(const std::string& label) {
    if (label.rfind("CUDA-D", 0) != 0) return -1;
    std::size_t i = 6, start = i;
    while (i < label.size() && std::isdigit(static_cast<unsigned char>(label[i]))) ++i;
    if (i == start || i >= label.size() || label[i] != '.') return -1;
    int gpu = -1;
    return parseDigits(std::string_view(label).substr(start, i - start), gpu) ? gpu : -1;
}

int metricsGpu(const std::string& label) {
    const std::string prefix = "Metrics GPU";
    if (label.rfind(prefix, 0) != 0 || label.size() == prefix.size()) return -1;
    auto digits = label.substr(prefix.size());
    if (digits.find_first_not_of("0123456789") != std::string::npos) return -1;
    int gpu = -1;
    return parseDigits(digits, gpu) ? gpu : -1;
}

} // namespace

DeviceActivity readDeviceActivity(const semantic::LoadedTrace& trace) {
    const auto& ctx = trace.context();
    DeviceActivity out;
    out.traceEnd = ctx.endTime;
    std::size_t threads = ctx.objects.count(semantic::Level::Thread);
    std::size_t tasks = ctx.objects.count(semantic::Level::Task);
    out.tasks.resize(tasks);
    for (std::size_t t = 0; t < tasks; ++t) {
        auto& info = out.tasks[t];
        info.label = ctx.labels.rowName("TASK", t);
        if (info.label.empty()) info.label = "task " + std::to_string(t + 1);
        parseTaskLabel(info.label, info.pid, info.host);
    }
    std::map<std::pair<std::size_t, int>, std::size_t> byTaskGpu;
    std::map<std::pair<std::size_t, int>, std::size_t> metricRows; // (task, k) -> row
    for (std::size_t th = 0; th < threads; ++th) {
        auto label = ctx.labels.rowName("THREAD", th);
        auto task = ctx.objects.ownerOfThread(semantic::Level::Task, static_cast<std::uint32_t>(th));
        if (int gpu = streamGpu(label); gpu >= 0) {
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
        } else if (int k = metricsGpu(label); k >= 0) {
            metricRows[{task, k}] = th;
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
    // One cfg per class: wxparaver asks a question when a cfg filters on a type the trace lacks, and NCCL
    // kernels, graph launches and copies are each absent from some traces.
    static const std::array<const char*, kClassCount> classCfgs = {
        "model/device_activity.cfg", "model/cuda_graphs.cfg", "model/nccl_kernels.cfg",
        "model/memory_operations.cfg"};
    for (std::size_t c = 0; c < kClassCount; ++c) {
        CfgRows activity(trace, classCfgs[c]);
        if (activity.windows() != 1)
            throw Error(std::string("cfgs/") + classCfgs[c] + " must define 1 window");
        for (auto& d : out.devices)
            for (auto row : d.rows) d.work[c].push_back(activity.row(0, row));
    }
    return out;
}

} // namespace gpueff::metrics
