// Per-GEMM tensor-core profile: the time-weighted mean of the Tensor Active samples of the device
// (hwcounters/tensor_active.cfg) over the executions of each GEMM kernel name.
#include "engine/common/Error.h"
#include "engine/nsys/DeviceSources.h"
#include "engine/paraver/EventTypes.h"
#include "metrics/Analysis.h"

#include <regex>

namespace gpueff::metrics {

void computeTensorCore(const semantic::LoadedTrace& trace, const std::string& gemmPattern, Analysis& a) {
    auto& p = a.tensorCore;
    p.metric = "Tensor Active [Throughput %]";
    std::regex gemm;
    try {
        gemm = std::regex(gemmPattern, std::regex::icase | std::regex::extended);
    } catch (const std::regex_error& e) {
        throw Error("--gemm-pattern '" + gemmPattern + "' is not a valid regular expression: " + e.what());
    }
    CfgRows tensor(trace, "hwcounters/tensor_active.cfg");
    bool anyMetricsRow = false;
    for (const auto& d : a.activity.devices) anyMetricsRow |= d.metrics.has_value();
    if (!tensor.hasEvents(0) || !anyMetricsRow) {
        p.reason = anyMetricsRow
                       ? "the GPU metrics samples have no Tensor Active metric (event types " +
                             std::to_string(nsys::gpuMetricType("Tensor Active [Throughput %]")) + "/" +
                             std::to_string(nsys::gpuMetricType("Tensor Active")) + ")"
                       : "the trace has no GPU metrics (profile with nsys --gpu-metrics-devices to get "
                         "Tensor Active samples)";
        return;
    }
    std::map<std::int64_t, bool> isGemm;
    for (std::size_t i = 0; i < a.activity.devices.size(); ++i) {
        const auto& d = a.activity.devices[i];
        if (!d.metrics) continue;
        // The first interval runs from time 0 to the first sample: no sample covers it.
        auto samples = tensor.row(0, *d.metrics, true);
        if (!samples.empty() && samples.front().begin == 0 && samples.front().value == 0)
            samples.erase(samples.begin());
        std::map<std::string, std::pair<double, std::int64_t>> sums; // kernel -> (integral, covered ns)
        for (const auto& rows : d.work[kCompute])
            for (const auto& k : clip(rows, a.window.begin, a.window.end)) {
                auto [it, fresh] = isGemm.try_emplace(k.value, false);
                if (fresh)
                    it->second = std::regex_search(valueName(trace, paraver::types::kKernel, k.value), gemm);
                if (!it->second) continue;
                auto& s = sums[valueName(trace, paraver::types::kKernel, k.value)];
                auto from = std::upper_bound(samples.begin(), samples.end(), k.begin,
                                             [](std::int64_t t, const Span& x) { return t < x.end; });
                for (; from != samples.end() && from->begin < k.end; ++from) {
                    auto covered = std::min(from->end, k.end) - std::max(from->begin, k.begin);
                    s.first += static_cast<double>(from->value) * static_cast<double>(covered);
                    s.second += covered;
                }
            }
        TensorCoreProfile::Row row{d.task, i, {}};
        for (const auto& [name, s] : sums) {
            if (std::find(p.kernels.begin(), p.kernels.end(), name) == p.kernels.end())
                p.kernels.push_back(name);
            if (s.second > 0) row.percent[name] = s.first / static_cast<double>(s.second);
        }
        p.rows.push_back(std::move(row));
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
