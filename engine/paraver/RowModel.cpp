#include "engine/paraver/RowModel.h"

#include <cctype>
#include <charconv>
#include <string_view>

namespace gpueff::paraver {

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

// "CUDA-D<gpu>.S<stream>[.<lane>]" -> gpu and stream (gpu -1 when the label has another form).
void parseStreamLabel(const std::string& label, std::int64_t& gpu, std::int64_t& stream) {
    gpu = stream = -1;
    if (label.rfind("CUDA-D", 0) != 0) return;
    std::size_t i = 6, start = i;
    while (i < label.size() && std::isdigit(static_cast<unsigned char>(label[i]))) ++i;
    if (i == start || i >= label.size() || label[i] != '.') return;
    int g = -1;
    if (!parseDigits(std::string_view(label).substr(start, i - start), g)) return;
    gpu = g;
    if (i + 1 < label.size() && label[i + 1] == 'S') {
        std::size_t s = i + 2, e = s;
        while (e < label.size() && std::isdigit(static_cast<unsigned char>(label[e]))) ++e;
        if (!parseDigits(std::string_view(label).substr(s, e - s), stream)) stream = -1;
    }
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

TraceLayout layoutFromLabels(const TraceHeader& header, const TraceLabels& labels) {
    TraceLayout layout;
    for (std::size_t n = 0; n < header.cpusPerNode.size(); ++n) {
        auto name = labels.rowName("NODE", n);
        layout.nodes.push_back(name.empty() ? "node " + std::to_string(n + 1) : name);
    }
    if (layout.nodes.empty()) layout.nodes.emplace_back(); // no resource section: one node, unnamed
    std::size_t taskIndex = 0, threadIndex = 0;
    for (const auto& appl : header.applications)
        for (const auto& task : appl) {
            auto label = labels.rowName("TASK", taskIndex);
            auto t = layout.addTask(label.empty() ? "task " + std::to_string(taskIndex + 1) : label,
                                    task.node > 0 ? task.node - 1 : 0);
            parseTaskLabel(layout.tasks[t].label, layout.tasks[t].pid, layout.tasks[t].host);
            for (std::uint32_t th = 0; th < task.threads; ++th, ++threadIndex) {
                auto row = labels.rowName("THREAD", threadIndex);
                std::int64_t gpu = -1, stream = -1;
                parseStreamLabel(row, gpu, stream);
                if (gpu >= 0) {
                    layout.addRow(t, RowKind::CudaStream, row, gpu, stream);
                } else if (int k = metricsGpu(row); k >= 0) {
                    layout.addRow(t, RowKind::GpuMetrics, row, k);
                } else {
                    layout.addRow(t, RowKind::CpuThread, row);
                }
            }
            ++taskIndex;
        }
    return layout;
}

} // namespace gpueff::paraver
