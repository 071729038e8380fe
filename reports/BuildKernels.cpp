// The kernel families of the report model (reports/model/KernelFamilies.h, docs/report.md): tensor_core,
// kernel_summary, kernel_durations, gaps and kernel_categories, from an analysis.
#include "metrics/KernelCategories.h"
#include "reports/BuildReport.h"
#include "reports/Spread.h"

#include <algorithm>
#include <cmath>

namespace gpueff::reports {

model::KernelRow kernelRow(const metrics::KernelRow& r) {
    model::KernelRow out;
    out.name = r.name;
    out.timePercent = r.timePercent;
    out.totalNs = r.total;
    out.instances = static_cast<std::int64_t>(r.instances);
    out.avgNs = r.average;
    out.medNs = r.median;
    out.minNs = r.min;
    out.maxNs = r.max;
    out.stddevNs = r.stddev;
    return out;
}

namespace {

model::TensorCore tensorCore(const metrics::Analysis& a) {
    const auto& p = a.tensorCore;
    model::TensorCore out;
    out.available = p.available;
    if (!p.available) {
        out.reason = p.reason;
        return out;
    }
    out.metric = p.metric;
    out.kernels = p.kernels;
    std::vector<model::TensorTask> tasks;
    for (const auto& row : p.rows) {
        model::TensorTask task{
            static_cast<std::int64_t>(row.task) + 1, a.activity.devices[row.device].id, {}};
        for (const auto& k : p.kernels) {
            auto it = row.percent.find(k);
            task.tensorActivePercent[k] = it == row.percent.end() ? std::nullopt : model::finite(it->second);
        }
        tasks.push_back(std::move(task));
    }
    out.tasks = std::move(tasks);
    // Statistics over the tasks that ran each kernel; a kernel no task ran has none.
    model::TensorStats stats;
    for (const auto& k : p.kernels) {
        std::vector<double> present;
        for (const auto& row : p.rows)
            if (auto it = row.percent.find(k); it != row.percent.end()) present.push_back(it->second);
        if (present.empty()) continue;
        auto s = spreadOf(present); // as the statistics rows of overlap_table
        stats.average[k] = model::finite(s.average);
        stats.maximum[k] = model::finite(s.maximum);
        stats.minimum[k] = model::finite(s.minimum);
        stats.stddev[k] = model::finite(s.stddev);
        stats.avgMax[k] = s.avgMax;
    }
    out.rows = std::move(stats);
    return out;
}

model::KernelSummary kernelSummary(const metrics::Analysis& a) {
    model::KernelSummary out;
    for (const auto& r : a.kernelSummary) out.overall.push_back(kernelRow(r));
    for (std::size_t i = 0; i < a.kernelSummaryByDevice.size(); ++i) {
        model::DeviceKernelRows device{a.activity.devices[i].id, {}};
        for (const auto& r : a.kernelSummaryByDevice[i]) device.rows.push_back(kernelRow(r));
        out.devices.push_back(std::move(device));
    }
    return out;
}

std::vector<model::KernelDurations> kernelDurations(const metrics::Analysis& a) {
    std::vector<model::KernelDurations> out;
    for (const auto& d : a.durations) {
        model::KernelDurations k{d.name, static_cast<std::int64_t>(d.instances), {}, d.modes};
        for (const auto& b : d.bins) k.bins.push_back({b.lower, b.upper, static_cast<std::int64_t>(b.count)});
        out.push_back(std::move(k));
    }
    return out;
}

// Gap bins with their bounds: [lower, upper) ns, the last one open.
std::vector<model::GapBin> gapBins(const metrics::GapSummary& g) {
    std::vector<model::GapBin> out;
    std::int64_t lower = 0, upper = metrics::GapSummary::kGapBinBase;
    for (std::size_t b = 0; b < g.binCount.size(); ++b, lower = upper, upper *= 4)
        out.push_back({lower, b + 1 < g.binCount.size() ? std::optional<std::int64_t>(upper) : std::nullopt,
                       static_cast<std::int64_t>(g.binCount[b]), g.binTime[b]});
    return out;
}

std::vector<model::DeviceGaps> deviceGaps(const metrics::Analysis& a) {
    std::vector<model::DeviceGaps> out;
    for (std::size_t i = 0; i < a.gaps.size(); ++i) {
        const auto& g = a.gaps[i];
        model::DeviceGaps d;
        d.device = a.activity.devices[i].id;
        d.count = static_cast<std::int64_t>(g.count);
        d.totalNs = g.total;
        d.hostWaitCount = static_cast<std::int64_t>(g.hostWaitCount);
        d.hostWaitNs = g.hostWait;
        d.kernelWaitCount = static_cast<std::int64_t>(g.kernelWaitCount);
        d.kernelWaitNs = g.kernelWait;
        d.byDuration = gapBins(g);
        out.push_back(std::move(d));
    }
    return out;
}

} // namespace

void addKernelFamilies(model::Report& m, const metrics::Analysis& a) {
    m.tensorCore = tensorCore(a);
    m.kernelSummary = kernelSummary(a);
    m.kernelDurations = kernelDurations(a);
    m.gaps = deviceGaps(a);
    std::vector<model::KernelCategory> categories;
    for (const auto& c : metrics::kernelCategories(a))
        categories.push_back({c.category, c.time, static_cast<std::int64_t>(c.instances)});
    m.kernelCategories = std::move(categories);
}

} // namespace gpueff::reports
