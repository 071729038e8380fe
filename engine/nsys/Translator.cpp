#include "engine/nsys/Translator.h"

#include "engine/common/Error.h"
#include "engine/nsys/ClockAlignment.h"
#include "engine/nsys/HostSources.h"
#include "engine/nsys/MpiMessages.h"
#include "engine/nsys/ReportContext.h"
#include "engine/paraver/EventTypes.h"
#include "engine/paraver/OutputFiles.h"
#include "engine/paraver/PrvWriter.h"
#include "engine/paraver/RowFile.h"

#include <algorithm>
#include <ctime>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace gpueff::nsys {

namespace {

using paraver::TraceLayout;

// Clocks of one job's nodes agree within milliseconds after NTP; a larger sync correction is suspicious.
constexpr std::int64_t kMaxSyncCorrectionNs = 10'000'000'000;
// SQLite page cache (and sort memory) for all reports together, and the least one report gets.
constexpr int kCacheBudgetKiB = 16 * 1024, kMinCacheKiB = 1024;

std::vector<const SourceKind*> selectKinds(const TranslateOptions& o) {
    auto names = kindNames();
    for (const auto* list : {&o.only, &o.skip})
        for (const auto& k : *list)
            if (std::find(names.begin(), names.end(), k) == names.end())
                throw Error("unknown record kind '" + k + "' (known: " + [&] {
                    std::string s;
                    for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
                    return s;
                }() + ")");
    std::vector<const SourceKind*> kinds;
    for (const auto& k : sourceKinds())
        if ((o.only.empty() || o.only.count(k.name)) && !o.skip.count(k.name)) kinds.push_back(&k);
    return kinds;
}

bool hasGpuActivity(const NsysExport& ex) {
    for (const char* t : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
                          "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"})
        if (ex.hasRows(t)) return true;
    return false;
}

[[noreturn]] void failNoGpuActivity(const NsysExport& ex) {
    if (!ex.db().hasTable("CUPTI_ACTIVITY_KIND_KERNEL"))
        ex.db().fail("no GPU activity: table CUPTI_ACTIVITY_KIND_KERNEL is missing and no graph or memory "
                     "operations were recorded (profile with `nsys profile -t cuda`)");
    ex.db().fail("no GPU activity: the kernel, graph, memcpy and memset tables are empty");
}

struct ProcessRef {
    std::size_t report;
    std::int64_t globalPid;
    const ReportObjects::Process* objects;
    std::string host;
};

std::string headerDate(std::int64_t utcNs) {
    std::time_t t = utcNs > 0 ? static_cast<std::time_t>(utcNs / 1000000000) : 0;
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%d/%m/%Y at %H:%M", &tm);
    return buf;
}

// Tasks ordered by MPI rank when known, else by host then PID; nodes are hosts in task order.
TraceLayout buildLayout(const std::vector<std::unique_ptr<NsysExport>>& reports,
                        const std::vector<ReportObjects>& objects, bool threadNames,
                        std::vector<std::unique_ptr<ReportContext>>& contexts) {
    std::vector<ProcessRef> procs;
    for (std::size_t r = 0; r < reports.size(); ++r)
        for (const auto& [pid, p] : objects[r].processes)
            if (!p.threads.empty() || !p.streams.empty()) procs.push_back({r, pid, &p, reports[r]->host()});
    std::sort(procs.begin(), procs.end(), [](const ProcessRef& a, const ProcessRef& b) {
        bool ra = a.objects->mpiRank >= 0, rb = b.objects->mpiRank >= 0;
        if (ra != rb) return ra;
        if (ra && a.objects->mpiRank != b.objects->mpiRank) return a.objects->mpiRank < b.objects->mpiRank;
        if (a.host != b.host) return a.host < b.host;
        if (pidOf(a.globalPid) != pidOf(b.globalPid)) return pidOf(a.globalPid) < pidOf(b.globalPid);
        return a.report < b.report;
    });
    for (std::size_t i = 1; i < procs.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (procs[i].report != procs[j].report && procs[i].host == procs[j].host &&
                pidOf(procs[i].globalPid) == pidOf(procs[j].globalPid) &&
                reports[procs[i].report]->utcEpochNs() == reports[procs[j].report]->utcEpochNs())
                throw Error(reports[procs[i].report]->path().string() + ": process " +
                            std::to_string(pidOf(procs[i].globalPid)) + " on host " + procs[i].host +
                            " is also in " + reports[procs[j].report]->path().string() +
                            " (the same report given twice?)");
    TraceLayout layout;
    for (const auto& p : procs) {
        auto node = std::find(layout.nodes.begin(), layout.nodes.end(), p.host);
        if (node == layout.nodes.end()) node = layout.nodes.insert(layout.nodes.end(), p.host);
        std::string pname = reports[p.report]->processName(p.globalPid);
        auto task = layout.addTask((pname.empty() ? "process" : pname) + " " +
                                       std::to_string(pidOf(p.globalPid)) + "@" + p.host,
                                   static_cast<std::uint32_t>(node - layout.nodes.begin()));
        auto& ctx = *contexts[p.report];
        for (auto tid : p.objects->threads) {
            std::uint32_t local = static_cast<std::uint32_t>(layout.tasks[task].rows.size()) + 1;
            std::string label = "THREAD 1." + std::to_string(task + 1) + "." + std::to_string(local);
            if (threadNames) {
                std::string n = reports[p.report]->threadName(tid);
                label = (n.empty() ? "thread" : n) + " " + std::to_string(tidOf(tid));
            }
            ctx.threadRows[tid] = layout.addRow(task, paraver::RowKind::CpuThread, label);
        }
        for (const auto& s : p.objects->streams)
            ctx.streamRows[s] =
                layout.addRow(task, paraver::RowKind::CudaStream,
                              "CUDA-D" + std::to_string(s.device) + ".S" + std::to_string(s.stream));
        // A GPU's index is its typeId's rank among the report's metric GPUs (as in discoverGpuMetrics), not a
        // count within the process: the second process's GPU 1 is "Metrics GPU1".
        std::set<std::int64_t> reportGpus;
        for (const auto& [pid, q] : objects[p.report].processes)
            reportGpus.insert(q.metricGpus.begin(), q.metricGpus.end());
        for (auto typeId : p.objects->metricGpus)
            ctx.metricRows[typeId] = layout.addRow(
                task, paraver::RowKind::GpuMetrics,
                "Metrics GPU" + std::to_string(std::distance(reportGpus.begin(), reportGpus.find(typeId))));
    }
    return layout;
}

void declareTypes(paraver::EventCatalog& c) {
    namespace t = paraver::types;
    c.declare(t::kCudaApi, "CUDA API call");
    c.declare(t::kMemoryOperation, "CUDA memory operation");
    c.declare(t::kMemoryBytes, "CUDA memory operation bytes");
    c.declare(t::kMemcpySrcKind, "CUDA memcpy source memory kind");
    c.declare(t::kMemcpyDstKind, "CUDA memcpy destination memory kind");
    c.declare(t::kKernel, "CUDA kernel");
    c.declare(t::kNcclKernel, "NCCL kernel");
    c.declare(t::kGraphLaunch, "CUDA graph execution");
    c.declare(t::kSynchronization, "CUDA synchronization");
    c.declare(t::kGraphId, "CUDA graph id");
    c.declare(t::kGraphExecId, "CUDA graph exec id");
    c.declare(t::kGraphNodeId, "CUDA graph node id");
    c.declare(t::kGpuMemoryUsage, "GPU memory in use (bytes)");
    c.declare(t::kGridX, "Kernel grid size x");
    c.declare(t::kGridY, "Kernel grid size y");
    c.declare(t::kGridZ, "Kernel grid size z");
    c.declare(t::kBlockX, "Kernel block size x");
    c.declare(t::kBlockY, "Kernel block size y");
    c.declare(t::kBlockZ, "Kernel block size z");
    c.declare(t::kStaticSharedMemory, "Kernel static shared memory (bytes)");
    c.declare(t::kDynamicSharedMemory, "Kernel dynamic shared memory (bytes)");
    c.declare(t::kLocalMemory, "Kernel local memory total (bytes)");
    c.declare(t::kRegistersPerThread, "Kernel registers per thread");
    c.declare(t::kCorrelationId, "CUDA correlation id");
    c.declare(t::kNcclMessageSize, "NCCL message size (bytes)");
    c.declare(t::kNcclReduceOp, "NCCL reduction operation");
    c.declare(t::kNcclRootRank, "NCCL root rank");
    c.declare(t::kNcclPeerRank, "NCCL peer rank");
    c.declare(t::kNcclCommunicator, "NCCL communicator");
    c.declare(t::kNcclRanks, "NCCL number of ranks");
    c.declare(t::kNcclRank, "NCCL rank");
    c.declare(t::kMpiPointToPoint, "MPI Point-to-point");
    c.declare(t::kMpiCollective, "MPI Collective Comm");
    c.declare(t::kMpiOther, "MPI Other");
    c.declare(t::kMpiOneSided, "MPI One-sided");
    c.declare(t::kMpiIo, "MPI I/O");
    c.declare(t::kMpiSendSize, "MPI send size (bytes)");
    c.declare(t::kMpiRecvSize, "MPI receive size (bytes)");
    c.declare(t::kOpenAccData, "OpenACC data");
    c.declare(t::kOpenAccLaunch, "OpenACC launch");
    c.declare(t::kOpenAccOther, "OpenACC other");
    c.declare(t::kOsRuntime, "OS runtime call");
    c.declare(t::kPthread, "pthread call");
}

} // namespace

std::vector<std::string> kindNames() {
    std::vector<std::string> names;
    for (const auto& k : sourceKinds()) names.emplace_back(k.name);
    return names;
}

TranslateSummary translate(const TranslateOptions& options,
                           const std::function<void(const std::string&)>& log) {
    if (options.inputs.empty()) throw Error("no input reports given");
    auto kinds = selectKinds(options);
    bool wantMpi =
        std::any_of(kinds.begin(), kinds.end(), [](auto* k) { return std::string(k->name) == "mpi"; });

    std::vector<std::unique_ptr<NsysExport>> reports;
    std::vector<ReportObjects> objects(options.inputs.size());
    std::vector<std::size_t> withoutGpu;
    bool tty = options.progress && ::isatty(STDERR_FILENO);
    for (std::size_t i = 0; i < options.inputs.size(); ++i) {
        if (tty)
            std::fprintf(stderr, "\rtranslate: scanning report %zu of %zu (%s)\x1b[K", i + 1, options.inputs.size(),
                         options.inputs[i].filename().c_str());
        reports.push_back(std::make_unique<NsysExport>(options.inputs[i]));
        // A rank without GPU work may join others (a CPU-only rank); alone, there is nothing for gpueff to
        // do.
        if (!hasGpuActivity(*reports.back())) {
            if (options.inputs.size() == 1) failNoGpuActivity(*reports.back());
            withoutGpu.push_back(i);
        }
        for (const auto* k : kinds) k->discover(*reports.back(), objects[i]);
        // Ranks order tasks even when MPI records themselves are not translated.
        if (!wantMpi) {
            ReportObjects ranks;
            discoverMpi(*reports.back(), ranks);
            for (const auto& [pid, p] : ranks.processes)
                if (p.mpiRank >= 0 && objects[i].processes.count(pid))
                    objects[i].processes[pid].mpiRank = p.mpiRank;
        }
        if (objects[i].firstTime > objects[i].lastTime)
            reports.back()->db().fail("nothing to translate with the selected kinds");
    }

    if (withoutGpu.size() == reports.size()) failNoGpuActivity(*reports.front());
    // All reports are read at once: share a fixed budget so memory does not grow with their number.
    for (auto& r : reports)
        r->db().setCacheKiB(std::max<int>(kMinCacheKiB, kCacheBudgetKiB / static_cast<int>(reports.size())));
    for (auto i : withoutGpu)
        if (log) log(options.inputs[i].string() + ": no GPU activity; merged for its CPU-side records");
    // Clock alignment: UTC session starts, then the end of MPI_Init when every report has one.
    TranslateSummary summary;
    std::vector<std::int64_t> shift(reports.size(), 0);
    bool utc = std::all_of(reports.begin(), reports.end(), [](auto& r) { return r->hasUtcStart(); });
    std::int64_t minUtc = 0;
    if (utc) {
        minUtc = (*std::min_element(reports.begin(), reports.end(), [](auto& a, auto& b) {
                     return a->utcEpochNs() < b->utcEpochNs();
                 }))->utcEpochNs();
        for (std::size_t i = 0; i < reports.size(); ++i) shift[i] = reports[i]->utcEpochNs() - minUtc;
    }
    for (std::size_t i = 0; i < reports.size(); ++i)
        summary.offsets.push_back({options.inputs[i], shift[i], 0, ""});
    if (reports.size() > 1) {
        std::vector<std::optional<SyncPoint>> points;
        for (auto& r : reports) points.push_back(syncPoint(*r));
        std::string why;
        auto corrections = syncCorrections(points, shift, kMaxSyncCorrectionNs, why);
        for (std::size_t i = 0; i < reports.size(); ++i) {
            summary.offsets[i].syncShiftNs = corrections[i];
            if (why.empty()) summary.offsets[i].syncPoint = points[i]->name;
            shift[i] += corrections[i];
        }
        if (!why.empty() && log) log("clocks aligned by UTC session start only: " + why);
    }
    std::int64_t zero = INT64_MAX, end = INT64_MIN;
    for (std::size_t i = 0; i < reports.size(); ++i) {
        zero = std::min(zero, objects[i].firstTime + shift[i]);
        end = std::max(end, objects[i].lastTime + shift[i]);
    }
    summary.durationNs = end - zero;
    summary.originUtcNs = utc ? minUtc + zero : 0;

    paraver::EventCatalog catalog;
    declareTypes(catalog);
    std::vector<std::unique_ptr<ReportContext>> contexts;
    for (std::size_t i = 0; i < reports.size(); ++i)
        contexts.push_back(std::make_unique<ReportContext>(*reports[i], shift[i] - zero, catalog));
    TraceLayout layout = buildLayout(reports, objects, options.threadNames, contexts);
    summary.tasks = layout.tasks.size();
    summary.threads = layout.rows.size();
    summary.nodes = layout.nodes.size();

    std::vector<std::unique_ptr<RecordSource>> sources;
    for (auto& ctx : contexts)
        for (const auto* k : kinds) k->open(*ctx, sources);
    if (wantMpi && reports.size() > 0) {
        std::vector<ReportContext*> ptrs;
        std::vector<std::map<std::int64_t, std::int64_t>> ranks(reports.size());
        for (std::size_t i = 0; i < reports.size(); ++i) {
            ptrs.push_back(contexts[i].get());
            for (const auto& [pid, p] : objects[i].processes)
                if (p.mpiRank >= 0) ranks[i][pid] = p.mpiRank;
        }
        std::uint64_t unmatched = 0;
        if (auto messages = matchMpiMessages(ptrs, ranks, unmatched)) sources.push_back(std::move(messages));
        if (unmatched)
            summary.skipped["MPI point-to-point calls without a matching partner (no message line)"] +=
                unmatched;
    }
    for (auto& o : objects)
        for (const auto& [why, n] : o.skipped) summary.skipped[why] += n;

    std::filesystem::path prefix = options.prefix;
    auto withExt = [&](const char* ext) {
        auto p = prefix;
        p += ext;
        return p;
    };
    OutputFiles files({withExt(".prv"), withExt(".pcf"), withExt(".row"), withExt(".json")});

    std::vector<std::uint32_t> taskOf(layout.rows.size()), localOf(layout.rows.size());
    for (std::size_t r = 0; r < layout.rows.size(); ++r) {
        taskOf[r] = layout.rows[r].task;
        localOf[r] = layout.rows[r].local;
    }
    paraver::PrvWriter writer(files.temporary(0),
                              layout.header(summary.durationNs, headerDate(summary.originUtcNs)),
                              layout.cpuOfRows(), taskOf, localOf);
    writer.writeLine(
        "# gpueff " GPUEFF_VERSION " translate: time 0 = " + std::to_string(summary.originUtcNs) +
        " ns since the UNIX epoch (UTC); see " + withExt(".json").filename().string());

    // k-way merge of all sources, by (time, Paraver order, row, source sequence)
    std::vector<std::size_t> heap;
    for (std::size_t i = 0; i < sources.size(); ++i) {
        sources[i]->advance();
        if (sources[i]->peek()) heap.push_back(i);
    }
    auto later = [&](std::size_t a, std::size_t b) {
        const auto &sa = *sources[a], &sb = *sources[b];
        return paraver::recordBefore(*sb.peek(), sb.sequence(), *sa.peek(), sa.sequence());
    };
    std::make_heap(heap.begin(), heap.end(), later);
    std::vector<std::uint64_t> countBySource(sources.size(), 0);
    std::uint64_t nextProgress = 1 << 20;
    std::int64_t lastTime = INT64_MIN;
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), later);
        RecordSource* s = sources[heap.back()].get();
        const TraceRecord& r = *s->peek();
        if (r.time < lastTime) throw Error("internal error: source '" + s->name() + "' is not time-ordered");
        lastTime = r.time;
        writer.write(r);
        ++summary.records;
        if (r.isCommunication) {
            ++summary.communicationsByTag[r.comm.tag];
        } else if (r.pairCount > 0) {
            if (r.pairs[0].value != 0) ++summary.beginsByType[r.pairs[0].type];
            for (std::uint8_t i = 0; i < r.pairCount; ++i) catalog.markUsed(r.pairs[i].type);
        }
        ++countBySource[heap.back()];
        s->advance();
        if (s->peek()) {
            std::push_heap(heap.begin(), heap.end(), later);
        } else {
            heap.pop_back();
        }
        if (tty && summary.records >= nextProgress) {
            nextProgress += 1 << 20;
            std::fprintf(stderr, "\rtranslate: %llu records, %.0f%% of the trace time\x1b[K",
                         static_cast<unsigned long long>(summary.records),
                         summary.durationNs > 0
                             ? 100.0 * static_cast<double>(lastTime) / static_cast<double>(summary.durationNs)
                             : 100.0);
        }
    }
    if (tty) std::fprintf(stderr, "\r\x1b[K");
    writer.close();
    summary.bytes = writer.bytesWritten();
    for (std::size_t i = 0; i < sources.size(); ++i) {
        summary.recordsByKind[sources[i]->name()] += countBySource[i];
        if (auto* iv = dynamic_cast<IntervalSource*>(sources[i].get()); iv && iv->skipped())
            summary.skipped["rows skipped by " + iv->name()] += iv->skipped();
    }
    // Sources report what they skipped as they go, so this is read after the merge.
    for (auto& ctx : contexts)
        for (const auto& [why, n] : ctx->skipped) summary.skipped[why] += n;
    if (catalog.collisions())
        summary
            .skipped["event values moved to the next free value after a name hash collision (not dropped)"] +=
            catalog.collisions();

    catalog.writePcf(files.temporary(1).string());
    paraver::writeRowFile(files.temporary(2).string(), layout, prefix.filename().string());

    nlohmann::json side;
    side["tool"] = "gpueff " GPUEFF_VERSION;
    side["trace"] = {{"prv", withExt(".prv").filename().string()},
                     {"duration_ns", summary.durationNs},
                     {"origin_utc_ns", summary.originUtcNs},
                     {"records", summary.records},
                     {"bytes", summary.bytes},
                     {"nodes", summary.nodes},
                     {"tasks", summary.tasks},
                     {"threads", summary.threads}};
    for (std::size_t i = 0; i < reports.size(); ++i) {
        const auto& r = *reports[i];
        side["inputs"].push_back(
            {{"path", r.path().string()},
             {"nsys_version", r.productVersion()},
             {"schema_version", r.schemaVersion()},
             {"host", r.host()},
             {"session_utc_ns", r.utcEpochNs()},
             {"utc_shift_ns", summary.offsets[i].utcShiftNs},
             {"sync_shift_ns", summary.offsets[i].syncShiftNs},
             {"sync_point", summary.offsets[i].syncPoint},
             {"offset_ns", shift[i] - zero},
             {"gpu_activity", std::find(withoutGpu.begin(), withoutGpu.end(), i) == withoutGpu.end()}});
    }
    std::vector<std::string> kindList;
    for (const auto* k : kinds) kindList.emplace_back(k->name);
    side["kinds"] = kindList;
    side["records_by_source"] = summary.recordsByKind;
    for (const auto& [type, n] : summary.beginsByType) side["begins_by_event_type"][std::to_string(type)] = n;
    for (const auto& [tag, n] : summary.communicationsByTag)
        side["communications_by_tag"][std::to_string(tag)] = n;
    side["skipped"] = nlohmann::json::object();
    for (const auto& [why, n] : summary.skipped) side["skipped"][why] = n;
    {
        std::ofstream out(files.temporary(3));
        out << side.dump(2) << "\n";
        if (!out) throw Error(withExt(".json").string() + ": write failed");
    }
    files.commit();
    if (log) {
        for (const auto& o : summary.offsets)
            if (reports.size() > 1)
                log("clock offset for " + o.input.string() + ": " + std::to_string(o.utcShiftNs) +
                    " ns from UTC start" +
                    (o.syncPoint.empty() ? ""
                                         : ", " + std::to_string(o.syncShiftNs) + " ns from " + o.syncPoint));
    }
    return summary;
}

} // namespace gpueff::nsys
