// The executive summary of a report (report.json "summary", the top of report.md): the device time the run
// lost, split the POP way among the factors of PE = LB x CommE x OrchE (NCCL as communication), largest
// first, each with the evidence the analysis has for its cause and where to look next.
//   lost = n T - sum U = (n Umax - sum U) + n (Amax - Umax) + n (T - Amax)
//                         load balance      communication     orchestration
// so the three shares add up to the whole loss, and each is zero exactly when its factor is 100 %.
#include "reports/ExecutiveSummary.h"

#include "metrics/PopFactors.h"
#include "reports/DeviceLabel.h"
#include "reports/MarkdownCells.h"
#include "reports/ReportMarkdown.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace gpueff::reports {

namespace {

using cells::value;
using Loss = model::Summary::Loss;

std::string percent(double fraction) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f %%", 100.0 * fraction);
    return b;
}

std::string label(const metrics::Analysis& a, std::size_t device) {
    const auto& d = a.activity.devices[device];
    return deviceLabel(static_cast<std::int64_t>(d.task), d.gpu);
}

Loss orchestration(const metrics::Analysis& a, std::int64_t lost) {
    Loss l{"orchestration", model::finite(a.ncclAsCommunication.orchestration), lost, {}, {}, {}};
    metrics::GapSummary g;
    for (const auto& x : a.gaps) {
        g.count += x.count, g.total += x.total, g.hostWait += x.hostWait, g.kernelWait += x.kernelWait;
        g.hostWaitCount += x.hostWaitCount, g.kernelWaitCount += x.kernelWaitCount;
    }
    l.evidence = "the GPUs sat idle " + formatDuration(static_cast<double>(g.total)) + " in " +
                 std::to_string(g.count) + " gaps";
    if (g.hostWait + g.kernelWait > 0)
        l.evidence += ", " + formatDuration(static_cast<double>(g.hostWait)) +
                      " of it waiting for the host to launch work (" + std::to_string(g.hostWaitCount) +
                      " gaps) and " + formatDuration(static_cast<double>(g.kernelWait)) +
                      " with work already launched (" + std::to_string(g.kernelWaitCount) + ")";
    const metrics::HostOffload* worst = nullptr;
    for (const auto& o : a.offload)
        if (!worst || o.efficiency < worst->efficiency) worst = &o;
    if (worst)
        l.evidence += "; task " + std::to_string(worst->task + 1) + " spent " +
                      formatDuration(static_cast<double>(worst->blocking)) +
                      " blocked in synchronizing CUDA calls (offload efficiency " +
                      percent(worst->efficiency) + ")" +
                      (worst->launchBlocked && *worst->launchBlocked > 0
                           ? " and " + formatDuration(static_cast<double>(*worst->launchBlocked)) +
                                 " in launch calls waiting for room in the launch queue"
                           : "");
    l.recommendation =
        g.kernelWait > g.hostWait
            ? "the GPUs waited with work queued: look at the dependencies between streams (event waits, "
              "copies a kernel waits for) in the kernels-queued and timeline plots"
            : "the GPUs waited for the host: take synchronizing calls (device or stream synchronize, "
              "blocking "
              "copies, reading a GPU value on the host) out of the loop, launch the next work earlier, and "
              "batch short kernels (CUDA graphs); the gaps table and the host offload figures show where";
    return l;
}

Loss communication(const metrics::Analysis& a, std::int64_t lost) {
    Loss l{"communication", model::finite(a.ncclAsCommunication.communication), lost, {}, {}, {}};
    // What the communication of the device with the most of it was made of.
    std::size_t device = 0;
    for (std::size_t i = 0; i < a.ncclAsCommunication.devices.size(); ++i)
        if (a.ncclAsCommunication.devices[i].communication >
            a.ncclAsCommunication.devices[device].communication)
            device = i;
    std::vector<std::pair<std::int64_t, std::string>> parts;
    if (device < a.times.size()) {
        parts.push_back({a.times[device].nccl, "NCCL kernels"});
        for (const auto& [kind, ns] : a.times[device].memoryByKind)
            parts.push_back({ns, kind == "Memset" ? "memsets" : kind + " copies"});
    }
    std::sort(parts.rbegin(), parts.rend());
    l.evidence =
        a.activity.devices.empty()
            ? "no device"
            : label(a, device) + " communicated " +
                  formatDuration(static_cast<double>(a.ncclAsCommunication.devices[device].communication)) +
                  " outside its computation";
    std::string by;
    for (const auto& [ns, what] : parts)
        if (ns > 0) by += (by.empty() ? "" : ", ") + what + " " + formatDuration(static_cast<double>(ns));
    if (!by.empty()) l.evidence += " (in all: " + by + ")";
    bool nccl = !parts.empty() && parts.front().second == "NCCL kernels";
    l.recommendation =
        nccl ? "overlap the collectives with computation (bucketed gradient all-reduce, asynchronous "
               "point-to-point), or send less; the overlap and NCCL-overlap tables show which kernels run "
               "alone"
             : "the communication is memory copies, not the network: keep data on the GPU, use pinned host "
               "memory and asynchronous copies on their own stream so they overlap the kernels";
    return l;
}

Loss loadBalance(const metrics::Analysis& a, std::int64_t lost) {
    Loss l{"load balance", model::finite(a.ncclAsCommunication.loadBalance), lost, {}, {}, {}};
    const auto& ds = a.ncclAsCommunication.devices;
    if (ds.empty()) return l;
    auto [lo, hi] = std::minmax_element(ds.begin(), ds.end(),
                                        [](const auto& x, const auto& y) { return x.useful < y.useful; });
    l.evidence = label(a, static_cast<std::size_t>(hi - ds.begin())) + " computed " +
                 formatDuration(static_cast<double>(hi->useful)) + ", " +
                 label(a, static_cast<std::size_t>(lo - ds.begin())) + " " +
                 formatDuration(static_cast<double>(lo->useful));
    const auto& c = a.collectives;
    const metrics::Collectives::DeviceShare* last = nullptr;
    for (const auto& d : c.devices)
        if (!last || d.waitCaused > last->waitCaused) last = &d;
    if (last && last->last > 0)
        l.evidence += "; " + label(a, last->device) + " arrived last at " + std::to_string(last->last) +
                      " of " + std::to_string(c.matched) + " collectives, making the others wait " +
                      formatDuration(static_cast<double>(last->waitCaused));
    l.recommendation =
        "balance the work among the devices (data partitioning, pipeline stages, the straggler "
        "the iteration table names)";
    return l;
}

} // namespace

model::Summary executiveSummary(const metrics::Analysis& a) {
    const auto& e = a.ncclAsCommunication;
    const auto n = static_cast<std::int64_t>(e.devices.size());
    const auto T = a.window.duration();
    model::Summary out;
    out.computable = e.computable;
    if (!e.computable) return out;
    const auto split =
        metrics::pop::deviceTimeSplit<std::int64_t>(n, T, e.usefulSum, e.usefulMax, e.activeMax);
    const std::int64_t deviceTime = split.total();
    out.parallel = model::finite(e.parallel);
    out.deviceTimeNs = deviceTime;
    out.lostNs = split.lost();
    out.losses = {orchestration(a, split.orchestration), communication(a, split.communication),
                  loadBalance(a, split.loadBalance)};
    std::stable_sort(out.losses.begin(), out.losses.end(),
                     [](const Loss& x, const Loss& y) { return x.lostNs > y.lostNs; });
    for (auto& l : out.losses)
        if (deviceTime > 0)
            l.lostShare = model::finite(static_cast<double>(l.lostNs) / static_cast<double>(deviceTime));
    return out;
}

void summarySection(std::string& md, const model::Report& report) {
    if (!report.summary || !report.summary->computable) return;
    const model::Summary& s = *report.summary;
    md += "## Summary\n\n";
    md += "Parallel efficiency " + formatEfficiency(s.parallel ? *s.parallel : std::nullopt) + ": of " +
          formatDuration(value(s.deviceTimeNs)) + " of device time (window x devices), " +
          formatDuration(value(s.lostNs)) +
          " went to no useful work (NCCL counted as communication). Where it went, largest first:\n\n";
    int rank = 0;
    for (const auto& l : s.losses) {
        auto share = l.lostShare.value_or(0);
        if (share < 0.005) continue; // under half a percent: not where to look first
        std::string factor = l.factor;
        if (!factor.empty())
            factor[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(factor[0])));
        md += std::to_string(++rank) + ". **" + escapeMarkdown(factor) + " efficiency " +
              formatPercent(l.efficiency) + "**: " + formatDuration(static_cast<double>(l.lostNs)) + " (" +
              formatPercent(share) + " of the device time). Evidence: " + escapeMarkdown(l.evidence) +
              ". Next: " + escapeMarkdown(l.recommendation) + ".\n";
    }
    if (rank == 0) md += "No factor loses more than half a percent of the device time.\n";
    md += "\n";
}

} // namespace gpueff::reports
