#include "reports/BuildReport.h"

#include "reports/DeviceLabel.h"
#include "reports/ExecutiveSummary.h"
#include "reports/HtaMarkdown.h"

namespace gpueff::reports {

model::Convention convention(const metrics::Efficiency& e, const metrics::Analysis& a) {
    model::Convention out;
    auto value = [&](double v) { return e.computable ? model::finite(v) : std::nullopt; };
    out.parallel = value(e.parallel);
    out.loadBalance = value(e.loadBalance);
    out.communication = value(e.communication);
    out.orchestration = value(e.orchestration);
    out.usefulSumNs = e.usefulSum;
    out.usefulMaxNs = e.usefulMax;
    out.activeMaxNs = e.activeMax;
    for (std::size_t i = 0; i < e.devices.size(); ++i)
        out.devices.push_back(
            {a.activity.devices[i].id, e.devices[i].useful, e.devices[i].communication, e.devices[i].idle});
    return out;
}

namespace {

model::Host hostSide(const metrics::Analysis& a) {
    model::Host host;
    for (const auto& o : a.offload)
        host.offload.push_back({static_cast<std::int64_t>(o.task) + 1, a.activity.tasks[o.task].label,
                                o.blocking, model::finite(o.efficiency), o.launchBlocked,
                                model::finite(o.efficiencyWithLaunches)});
    if (a.mpi.present) {
        model::MpiFactors m{model::finite(a.mpi.parallel),
                            model::finite(a.mpi.loadBalance),
                            model::finite(a.mpi.communication),
                            {}};
        for (const auto& t : a.mpi.tasks)
            m.tasks.push_back({static_cast<std::int64_t>(t.task) + 1, t.mpi, t.outside});
        host.mpi = std::move(m);
    }
    return host;
}

model::HtaReading htaReading(const metrics::HtaBreakdown::Reading& r) {
    return {r.kernelTime, r.idle, r.compute};
}

// What HTA's own rules would make of the device's figures, each alone; null where one changes nothing.
model::HtaRules htaRules(const metrics::HtaBreakdown& h) {
    model::HtaRules rules;
    if (const auto& r = h.afterLastStep) {
        model::HtaLastProfilerStep step;
        static_cast<model::HtaReading&>(step) = htaReading(r->reading);
        step.stepBeginNs = r->stepBegin;
        step.operationsDropped = static_cast<std::int64_t>(r->dropped);
        step.droppedNs = r->droppedTime;
        rules.lastProfilerStep = step;
    }
    if (const auto& r = h.wholeMicroseconds) rules.wholeMicroseconds = htaReading(*r);
    if (const auto& r = h.streamHostEvents) {
        model::HtaHostEventsWithStream events;
        static_cast<model::HtaReading&>(events) = htaReading(r->reading);
        events.events = static_cast<std::int64_t>(r->events);
        events.timeNs = r->time;
        rules.hostEventsWithStream = events;
    }
    return rules;
}

// HTA's definitions beside ours (docs/report.md "HTA's definitions").
model::Hta htaFigures(const metrics::Analysis& a) {
    model::Hta out;
    out.consecutiveKernelDelayNs = metrics::HtaBreakdown::kConsecutiveKernelDelayNs;
    for (std::size_t i = 0; i < a.hta.size() && i < a.activity.devices.size(); ++i) {
        const auto& h = a.hta[i];
        model::HtaDevice d;
        d.device = a.activity.devices[i].id;
        d.kernelTimeNs = h.kernelTime;
        d.idleNs = h.idle;
        d.computeNs = h.compute;
        d.nonComputeNs = h.nonCompute;
        if (h.ncclTime > 0)
            d.commCompOverlap = static_cast<double>(h.computeDuringNccl) / static_cast<double>(h.ncclTime);
        d.idleByCause = {h.hostWait, h.kernelWait, h.other};
        d.rules = htaRules(h);
        out.devices.push_back(std::move(d));
    }
    return out;
}

} // namespace

model::Report buildReport(const metrics::Analysis& a, const ReportContextInfo& info) {
    model::Report m;
    m.tool = {"gpueff", GPUEFF_VERSION};
    model::TraceFiles trace;
    trace.prv = info.prv;
    trace.tasks = static_cast<std::int64_t>(info.tasks);
    trace.threads = static_cast<std::int64_t>(info.threads);
    if (a.cutShift) trace.cutShiftNs = *a.cutShift;
    trace.writer = std::string(metrics::writerName(a.writer));
    m.trace = std::move(trace);
    for (const auto& in : info.inputs) {
        model::Input entry;
        entry.path = in.path;
        entry.nsysVersion = in.nsysVersion;
        entry.host = in.host;
        entry.offsetNs = in.offsetNs;
        entry.utcStartNs = in.utcStartNs;
        if (!in.alignment.empty()) {
            entry.alignment = in.alignment;
            entry.syncPoint = in.syncPoint;
            entry.alignmentUncertaintyNs = in.alignmentUncertaintyNs;
            entry.alignmentEvidence = static_cast<std::int64_t>(in.alignmentEvidence);
        }
        m.inputs.push_back(std::move(entry));
    }
    m.window = {a.window.begin, a.window.end, a.window.duration(), a.window.source, {}};
    if (!a.window.region.empty()) m.window.region = a.window.region;
    for (std::size_t i = 0; i < a.activity.devices.size(); ++i) {
        const auto& d = a.activity.devices[i];
        const auto& e = a.ncclAsCommunication.devices[i];
        const auto& t = a.times[i];
        const auto& task = a.activity.tasks[d.task];
        model::Device row;
        row.id = d.id;
        row.label = deviceLabel(static_cast<std::int64_t>(d.task), d.gpu);
        row.host = d.host;
        row.pid = task.pid >= 0 ? std::optional<std::int64_t>(task.pid) : std::nullopt;
        row.memoryByKindNs = t.memoryByKind;
        row.kernelsWithLaunch = static_cast<std::int64_t>(t.launchedKernels);
        row.task = static_cast<std::int64_t>(d.task) + 1;
        row.gpu = d.gpu;
        row.name = d.name;
        row.rows = static_cast<std::int64_t>(d.rows.size());
        row.usefulNs = e.useful;
        row.communicationNs = e.communication;
        row.idleNs = e.idle;
        row.computeNs = t.compute;
        row.ncclNs = t.nccl;
        row.memoryNs = t.memory;
        row.kernels = static_cast<std::int64_t>(t.kernels);
        row.memoryOperations = static_cast<std::int64_t>(t.memoryOperations);
        m.devices.push_back(std::move(row));
    }
    m.efficiency = {convention(a.ncclAsCommunication, a), convention(a.ncclAsUseful, a)};
    m.host = hostSide(a);
    m.summary = executiveSummary(a);
    addConcurrencyFamilies(m, a);
    addKernelFamilies(m, a);
    addLevels(m, a);
    m.nsysStats = nsysStats(a);
    m.hta = htaFigures(a);
    m.notes = info.dataNotes;
    for (const auto& n : a.notes) m.notes.push_back(n);
    for (auto& n : htaNotes(m, HtaDeviceNames::ids)) m.notes.push_back(std::move(n));
    return m;
}

} // namespace gpueff::reports
