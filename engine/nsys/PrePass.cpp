#include "engine/nsys/PrePass.h"

#include "engine/common/Error.h"
#include "engine/kineto/KinetoTrace.h"
#include "engine/nsys/HostSources.h"
#include "engine/nsys/ReportStreams.h"
#include "engine/nsys/RowValidity.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>

namespace gpueff::nsys {

namespace {

// An input as an export: an nsys SQLite export as it is, a Kineto (torch.profiler) trace read into memory
// first (engine/kineto), its rows then read through engine/nsys/KinetoRows.
std::unique_ptr<NsysExport> openInput(const std::filesystem::path& input, import::InputFormat format,
                                      int cacheKiB, std::int64_t mapBytes, ImportFacts& facts) {
    if (format != import::InputFormat::KinetoTrace)
        return std::make_unique<NsysExport>(input, cacheKiB, mapBytes);
    auto start = std::chrono::steady_clock::now();
    auto trace = kineto::readKinetoTrace(input);
    facts.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    facts.worldSize = trace.metadata.worldSize.value_or(0);
    return std::make_unique<NsysExport>(input, std::move(trace.tables));
}

bool hasGpuActivity(const NsysExport& ex) {
    for (const char* t : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
                          "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"})
        if (ex.hasRows(t)) return true;
    return false;
}

[[noreturn]] void failNoGpuActivity(const NsysExport& ex, import::InputFormat format) {
    if (format == import::InputFormat::KinetoTrace)
        ex.fail("no GPU activity: no kernel, gpu_memcpy or gpu_memset events (profile with "
                "torch.profiler's activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA])");
    if (!ex.db().hasTable("CUPTI_ACTIVITY_KIND_KERNEL"))
        ex.db().fail("no GPU activity: table CUPTI_ACTIVITY_KIND_KERNEL is missing and no graph or memory "
                     "operations were recorded (profile with `nsys profile -t cuda`)");
    ex.db().fail("no GPU activity: the kernel, graph, memcpy and memset tables are empty");
}

} // namespace

// Each input's format, from the registry (engine/import): the one place inputs are recognised. A .nsys-rep
// is exported first, here, on the calling thread (nsys prints as it goes).
void recogniseInputs(const TranslateOptions& options, PrePass& pass) {
    for (const auto& in : options.inputs) {
        if (!options.images.empty()) {
            pass.inputs.push_back(in);
            pass.formats.push_back(import::InputFormat::NsysExport);
            continue;
        }
        auto input = import::exportedInput(in);
        auto format = import::importerOf(input).format;
        if (format == import::InputFormat::ParaverTrace)
            throw Error(input.string() + ": a Paraver trace is not translated: give nsys exports or PyTorch "
                                         "profiler traces (cut, filter and analyze read Paraver traces)");
        pass.inputs.push_back(input);
        pass.formats.push_back(format);
    }
}

// The pre-pass, one report per worker: each export opened (a Kineto trace read into memory), and whether
// it has GPU work; then, for the reports in `scanned` (all when null), their processes, threads, streams,
// GPUs and ranks found, and the evidence its clock is aligned by.
void scanReports(const TranslateOptions& options, const std::vector<const SourceKind*>& kinds, bool wantMpi,
                 unsigned jobs, int cacheKiB, std::int64_t mapBytes, bool tty, PrePass& pass,
                 const std::vector<std::size_t>* scanned) {
    const std::size_t n = pass.inputs.size();
    pass.reports.resize(n);
    pass.objects.resize(n);
    pass.gpuActivity.assign(n, 1);
    pass.imports.resize(n);
    pass.clockEvidence.resize(n);
    std::vector<char> scan(n, scanned ? 0 : 1);
    if (scanned)
        for (auto i : *scanned) scan.at(i) = 1;
    forEachIndex(n, jobs, [&](std::size_t i) {
        if (tty)
            std::fprintf(stderr, "\rtranslate: scanning report %zu of %zu (%s)\x1b[K", i + 1, n,
                         pass.inputs[i].filename().c_str());
        if (options.images.empty())
            pass.reports[i] = openInput(pass.inputs[i], pass.formats[i], cacheKiB, mapBytes, pass.imports[i]);
        else
            pass.reports[i] = std::make_unique<NsysExport>(pass.inputs[i], options.images.at(i), cacheKiB);
        // A rank without GPU work may join others (a CPU-only rank); alone, there is nothing for gpueff to
        // do.
        if (!hasGpuActivity(*pass.reports[i])) {
            if (n == 1) failNoGpuActivity(*pass.reports[i], pass.formats[i]);
            pass.gpuActivity[i] = 0;
        }
        if (scan[i])
            scanReport(kinds, wantMpi, *pass.reports[i], n > 1, pass.objects[i], pass.clockEvidence[i]);
    });
}

void scanReport(const std::vector<const SourceKind*>& kinds, bool wantMpi, const NsysExport& report,
                bool severalInputs, ReportObjects& objects, ClockEvidence& clock) {
    for (const auto* k : kinds) k->discover(report, objects);
    // Ranks order tasks even when MPI records themselves are not translated.
    if (!wantMpi) {
        ReportObjects ranks;
        discoverMpi(report, ranks);
        for (const auto& [pid, p] : ranks.processes)
            if (p.mpiRank >= 0 && objects.processes.count(pid)) objects.processes[pid].mpiRank = p.mpiRank;
    }
    if (objects.firstTime > objects.lastTime) report.fail("nothing to translate with the selected kinds");
    clock = readClockEvidence(report, severalInputs);
}

// One rank per process. Two Kineto traces of one rank (distributedInfo.rank) are that rank profiled twice
// or ranks of different runs: refused, their labels would collide. Exports of different runs merged on
// purpose (MPI_RANKS) keep working, with a warning. Inputs without GPU work are merged for their CPU side.
void checkInputs(const PrePass& pass, const std::function<void(const std::string&)>& log,
                 TranslateSummary& summary) {
    const std::size_t n = pass.inputs.size();
    std::map<std::int64_t, std::size_t> rankInput;
    for (std::size_t i = 0; i < n; ++i)
        for (const auto& [pid, p] : pass.objects[i].processes) {
            if (p.mpiRank < 0) continue;
            auto [it, added] = rankInput.emplace(p.mpiRank, i);
            if (added || it->second == i) continue;
            std::string both = pass.inputs[it->second].string() + " and " + pass.inputs[i].string() +
                               " both hold rank " + std::to_string(p.mpiRank);
            if (pass.formats[it->second] == import::InputFormat::KinetoTrace &&
                pass.formats[i] == import::InputFormat::KinetoTrace)
                throw Error(both +
                            " (distributedInfo.rank): the same rank given twice, or ranks of different "
                            "runs");
            if (log) log(both + ": tasks are ordered by input where ranks tie");
        }
    if (std::none_of(pass.gpuActivity.begin(), pass.gpuActivity.end(), [](char g) { return g != 0; }))
        failNoGpuActivity(*pass.reports.front(), pass.formats.front());
    for (std::size_t i = 0; i < n; ++i)
        if (!pass.gpuActivity[i] && log)
            log(pass.inputs[i].string() + ": no GPU activity; merged for its CPU-side records");
    std::int64_t worldSize = 0;
    for (const auto& s : pass.imports) {
        summary.importSeconds += s.seconds;
        worldSize = std::max(worldSize, s.worldSize);
    }
    auto kinetoInputs =
        std::count(pass.formats.begin(), pass.formats.end(), import::InputFormat::KinetoTrace);
    if (worldSize > kinetoInputs)
        summary.notes.push_back("the Kineto traces are " + std::to_string(kinetoInputs) + " of the " +
                                std::to_string(worldSize) +
                                " ranks of their job (distributedInfo.world_size): load balance, stragglers "
                                "and collectives concern these ranks only");
}

void placeReports(const ClockAlignment& clocks, const std::vector<ReportObjects>& objects,
                  const std::vector<std::filesystem::path>& inputs, const std::vector<char>& gpuActivity,
                  TranslateSummary& summary) {
    std::int64_t zero = INT64_MAX, end = INT64_MIN;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        zero = std::min(zero, checkedAdd(objects[i].firstTime, clocks.inputs[i].shiftNs()));
        end = std::max(end, checkedAdd(objects[i].lastTime, clocks.inputs[i].shiftNs()));
    }
    summary.durationNs = checkedSub(end, zero);
    summary.originUtcNs = clocks.originUtcNs ? checkedAdd(*clocks.originUtcNs, zero) : 0;
    summary.warnings = clocks.warnings;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        ReportOffset offset;
        offset.input = inputs[i];
        offset.alignment = clocks.inputs[i];
        offset.offsetNs = checkedSub(clocks.inputs[i].shiftNs(), zero);
        offset.gpuActivity = gpuActivity[i] != 0;
        summary.offsets.push_back(offset);
    }
}

} // namespace gpueff::nsys
