// Per-GEMM tensor-core profile: the time-weighted mean of the Tensor Active samples of the device
// (hwcounters/tensor_active.cfg) over the executions of each GEMM kernel name.
#include "engine/paraver/EventTypes.h"
#include "engine/paraver/GpuMetricTypes.h"
#include "metrics/AnalysisParts.h"

#include <algorithm>

namespace gpueff::metrics {

bool ShardReader::isGemm(std::int64_t value) const {
    auto [it, fresh] = isGemm_.try_emplace(value, false);
    if (fresh) it->second = gemm_.foundIn(valueName(trace, paraver::types::kKernel, value));
    return it->second;
}

std::optional<Spans> tensorSamples(const ShardReader& shard, const Device& d) {
    if (!shard.tensorSamples || !d.metrics) return std::nullopt;
    // The first interval runs from time 0 to the first sample: no sample covers it.
    auto samples = shard.tensor.row(0, *d.metrics, true);
    if (!samples.empty() && samples.front().begin == 0 && samples.front().value == 0)
        samples.erase(samples.begin());
    return samples;
}

void addTensorActivity(const Spans& samples, std::int64_t begin, std::int64_t end, double& integral,
                       std::int64_t& covered) {
    auto from = std::upper_bound(samples.begin(), samples.end(), begin,
                                 [](std::int64_t t, const Span& x) { return t < x.end; });
    for (; from != samples.end() && from->begin < end; ++from) {
        auto ns = std::min(from->end, end) - std::max(from->begin, begin);
        integral += static_cast<double>(from->value) * static_cast<double>(ns);
        covered += ns;
    }
}

void tensorCoreOf(const ShardReader& shard, std::size_t index, const Device& d, DevicePartial& out) {
    auto samples = tensorSamples(shard, d);
    if (!samples) return;
    std::map<std::string, std::pair<double, std::int64_t>> sums; // kernel -> (integral, covered ns)
    for (const auto& rows : d.work[kCompute])
        for (const auto& k : clip(rows, shard.window.begin, shard.window.end)) {
            if (!shard.isGemm(k.value)) continue;
            auto& s = sums[valueName(shard.trace, paraver::types::kKernel, k.value)];
            addTensorActivity(*samples, k.begin, k.end, s.first, s.second);
        }
    TensorCoreProfile::Row row{d.task, index, {}};
    for (const auto& [name, s] : sums) {
        out.gemms.push_back(name); // a column of the table, sampled or not
        if (s.second > 0) row.percent[name] = s.first / static_cast<double>(s.second);
    }
    out.tensorCore = std::move(row);
}

void reduceTensorCore(Analysis& a, const std::string& gemmPattern, const std::vector<DevicePartial>& partials,
                      const ShardAnswers& answers) {
    auto& p = a.tensorCore;
    p.metric = "Tensor Active [Throughput %]";
    bool anyMetricsRow = false;
    for (const auto& d : a.activity.devices) anyMetricsRow |= d.metrics.has_value();
    if (!answers.tensorSamples || !anyMetricsRow) {
        p.reason = anyMetricsRow
                       ? "the GPU metrics samples have no Tensor Active metric (event types " +
                             std::to_string(paraver::types::gpuMetricType("Tensor Active [Throughput %]")) +
                             "/" + std::to_string(paraver::types::gpuMetricType("Tensor Active")) + ")"
                       : "the trace has no GPU metrics (profile with nsys --gpu-metrics-devices to get "
                         "Tensor Active samples)";
        return;
    }
    for (const auto& partial : partials) {
        if (!partial.tensorCore) continue;
        for (const auto& name : partial.gemms)
            if (std::find(p.kernels.begin(), p.kernels.end(), name) == p.kernels.end())
                p.kernels.push_back(name);
        p.rows.push_back(*partial.tensorCore);
    }
    std::sort(p.kernels.begin(), p.kernels.end());
    p.available = !p.rows.empty();
    if (!p.available)
        p.reason = "no device has a GPU metrics row";
    else if (p.kernels.empty()) {
        p.available = false;
        p.reason = "no kernel name matches the GEMM pattern '" + gemmPattern + "'";
    }
}

} // namespace gpueff::metrics
