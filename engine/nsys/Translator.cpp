#include "engine/nsys/Translator.h"

#include "engine/common/Error.h"
#include "engine/common/FileLimits.h"
#include "engine/nsys/ClockAlignment.h"
#include "engine/nsys/Distribution.h"
#include "engine/nsys/EventTypeLabels.h"
#include "engine/nsys/HostSources.h"
#include "engine/nsys/MpiMessages.h"
#include "engine/nsys/NvtxSources.h"
#include "engine/nsys/PrePass.h"
#include "engine/nsys/RecordMerge.h"
#include "engine/nsys/ReportContext.h"
#include "engine/nsys/ReportStreams.h"
#include "engine/nsys/RowValidity.h"
#include "engine/nsys/Sidecar.h"
#include "engine/nsys/TaskLayout.h"
#include "engine/paraver/RowFile.h"
#include "engine/paraver/TraceHeader.h"
#include "engine/pipeline/RecordSink.h"
#include "engine/pipeline/SinkChain.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <sqlite3.h>
#include <thread>
#include <unistd.h>

namespace gpueff::nsys {

namespace {

// SQLite's page cache for all reports together, shared out when the exports are opened (the number of
// reports is known up front), so the budget holds from the first query on, pre-pass included: 16 MiB for one
// report, 256 KiB each for 64. Reads are mostly sequential scans, which a cache does not speed up; the pages
// that matter (B-tree interior pages of the tables joined by key) are few. A floor of 16 pages of 4 KiB keeps
// each connection working; it exceeds the budget only beyond 256 reports (by 64 KiB per report).
constexpr int kCacheBudgetKiB = 16 * 1024, kMinCacheKiB = 64;
// File descriptors: each report holds its export open, and SQLite opens a temporary file for each sort or
// automatic index that outgrows memory while its statement is open; about 6 per report were measured with
// large exports whose tables are stored out of time order. Plus the outputs and the standard streams.
constexpr std::uint64_t kFdsPerReport = 6, kFdsBase = 16;
// cache_size bounds the cache of each export, but not those SQLite gives the temporary B-trees of joins
// (automatic indexes) and sorts: 2 MB each (SQLITE_DEFAULT_CACHE_SIZE), about 1.4 MB per report measured
// with 64 reports. SQLite's soft heap limit bounds them all together: past it, every page cache reuses its
// own pages instead of growing, and sorts spill sooner. Its allowance per report is for what is not cache
// (schema, prepared statements).
constexpr std::int64_t kHeapPerReport = 512 * 1024;

// How much of each export SQLite maps (sqlite::Database): the maps of all open reports share a quarter of
// the memory limit, so that their pages, which count in the resident memory as long as the reports are open
// (the pass; the analysis' shards are held after it), stay within it. No limit (0: a library caller that
// sets none; the commands always set one): no map.
std::int64_t mapBytes(std::uint64_t memoryLimit, std::size_t reports) {
    return static_cast<std::int64_t>(memoryLimit / 4 / std::max<std::size_t>(reports, 1));
}

// Sets SQLite's process-wide soft heap limit for the translation, and restores the previous one after.
class SqliteHeapBudget {
public:
    explicit SqliteHeapBudget(std::int64_t bytes) : previous_(sqlite3_soft_heap_limit64(bytes)) {}
    ~SqliteHeapBudget() { sqlite3_soft_heap_limit64(previous_); }
    SqliteHeapBudget(const SqliteHeapBudget&) = delete;
    SqliteHeapBudget& operator=(const SqliteHeapBudget&) = delete;

private:
    sqlite3_int64 previous_;
};

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

// Each process's findings of its share of the pre-pass, given to every other one.
void shareScans(Distribution& dist, const std::vector<std::size_t>& scanned, PrePass& pass) {
    ScanFacts mine;
    for (auto i : scanned)
        mine.reports.push_back({static_cast<std::uint32_t>(i), pass.objects[i], pass.clockEvidence[i]});
    for (auto& theirs : dist.exchangeScans(mine))
        for (auto& r : theirs.reports) {
            pass.objects.at(r.index) = std::move(r.objects);
            pass.clockEvidence.at(r.index) = std::move(r.clock);
        }
}

// The reports this process reads that another one scanned (reports meeting in one analysis unit go to one
// process, whoever scanned them): scanned again here, what is found dropped (the same as received), so that
// their exports hold what the scans learn for the passes that follow, as in one process.
void rescanOwnReports(const std::vector<std::size_t>& own, const std::vector<std::size_t>& scanned,
                      const std::vector<const SourceKind*>& kinds, bool wantMpi, unsigned jobs,
                      const PrePass& pass) {
    std::vector<std::size_t> again;
    for (auto i : own)
        if (std::find(scanned.begin(), scanned.end(), i) == scanned.end()) again.push_back(i);
    forEachIndex(again.size(), jobs, [&](std::size_t k) {
        ReportObjects objects;
        ClockEvidence clock;
        scanReport(kinds, wantMpi, *pass.reports[again[k]], pass.inputs.size() > 1, objects, clock);
    });
}

// The names pass: every source whose records carry name values runs once without writing, so that the
// catalogue knows every name of the trace before values are numbered in the names' order. It reads the rows
// the writing pass reads and decodes them alike, so no name can be missed; what it counts is discarded. Its
// queries read the rows in storage order (ReportContext::order: no sort) and its sources decode each row
// once without making records (RecordSource::collectNames).
// Reports run in parallel: the catalogue collects names from several threads, and the values assigned do
// not depend on the order names arrive in.
// Of a distributed translation, each process runs it over its own reports and the names are exchanged
// before values are numbered (Distribution.h).
void collectNames(std::vector<std::unique_ptr<ReportContext>>& contexts, const std::vector<std::size_t>& own,
                  const std::vector<const SourceKind*>& kinds, paraver::EventCatalog& catalog, unsigned jobs,
                  Distribution* dist) {
    forEachIndex(own.size(), jobs, [&](std::size_t n) {
        auto& ctx = contexts[own[n]];
        auto repaired = ctx->report.repairedText();
        std::vector<std::unique_ptr<RecordSource>> sources;
        ctx->startNaming();
        for (const auto* k : kinds)
            if (k->namesValues) k->open(*ctx, sources);
        for (auto& s : sources) s->collectNames();
        ctx->report.restoreRepairedText(std::move(repaired));
        ctx->startWriting();
    });
    if (dist)
        for (const auto& theirs : dist->exchangeNames(collectNameFacts(catalog)))
            applyNameFacts(theirs, catalog);
    catalog.assignValues();
}

// The writing pass: the reports' sources, then the MPI messages, merged into `head`. One worker reads the
// reports on this thread, one source after the other as they merge; more read them in parallel and this
// thread merges the reports' streams (ReportStreams): the same records in the same order either way. In turn
// (the sinks need each row's order only), each report's stream is merged alone. In a distributed run, the
// root also merges the other processes' streams when `remotes` (`local` then gets this process's records
// alone), and the others relay what they merge.
void writeRecords(std::vector<std::vector<std::unique_ptr<RecordSource>>> reportSources,
                  std::unique_ptr<RecordSource> messages, unsigned jobs, bool inTurn, Distribution* dist,
                  bool remotes, pipeline::RecordSink* local, pipeline::RecordSink* rowOrder,
                  pipeline::RecordSink& head, paraver::EventCatalog& catalog, TranslateSummary& summary,
                  bool tty, SpillStore* spill) {
    std::unique_ptr<ReportStreams> workers;
    if (inTurn && jobs > 1 && head.openLane(0)) {
        // Each report merged on a worker straight into a lane of the sink, as many at once as workers; the
        // MPI messages (read from every report's connection) last, on this thread.
        const std::size_t reports = reportSources.size();
        std::vector<TranslateSummary> counts(reports + 1);
        std::atomic<std::size_t> done{0};
        forEachIndex(reports, jobs, [&](std::size_t k) {
            mergeSources(reportSources[k], *head.openLane(k), catalog, counts[k], false);
            reportSources[k].clear(); // its statements closed before the worker reads another report
            head.closeLane(k);
            if (tty) std::fprintf(stderr, "\rtranslate: %zu of %zu reports read\x1b[K", ++done, reports);
        });
        if (tty) std::fprintf(stderr, "\r\x1b[K");
        if (messages) {
            std::vector<std::unique_ptr<RecordSource>> last;
            last.push_back(std::move(messages));
            mergeSources(last, *head.openLane(reports), catalog, counts[reports], false);
            head.closeLane(reports);
        }
        for (const auto& part : counts) addCounts(summary, part);
        return;
    }
    if (inTurn) {
        std::vector<std::vector<std::unique_ptr<RecordSource>>> turns;
        if (jobs <= 1) {
            turns = std::move(reportSources);
        } else {
            workers = std::make_unique<ReportStreams>(std::move(reportSources), jobs, true);
            for (auto& s : workers->streams()) turns.emplace_back().push_back(std::move(s));
        }
        if (messages) turns.emplace_back().push_back(std::move(messages));
        for (auto& turn : turns) {
            mergeSources(turn, head, catalog, summary, tty);
            turn.clear(); // its statements closed before the next report's are read
        }
        return;
    }
    std::vector<std::unique_ptr<RecordSource>> sources;
    MergeTaps taps;
    const std::size_t reports = reportSources.size();
    if (jobs <= 1 && !spill) {
        for (auto& list : reportSources)
            for (auto& s : list) sources.push_back(std::move(s));
        taps.all = rowOrder;
    } else {
        // The row-order sink is fed by the workers, report by report, and the messages through its last lane.
        workers = std::make_unique<ReportStreams>(std::move(reportSources), jobs, false, rowOrder, spill);
        sources = workers->streams();
        if (rowOrder && messages) {
            taps.laneSource = sources.size();
            taps.lane = rowOrder->openLane(reports);
        }
    }
    if (messages) sources.push_back(std::move(messages));
    if (remotes) {
        taps.localSources = sources.size();
        taps.local = local;
        for (auto& r : dist->remoteStreams()) sources.push_back(std::move(r));
    } else if (dist && !dist->root() && dist->traceWritten()) {
        taps.relay = dist;
    }
    mergeSources(sources, head, catalog, summary, tty, taps);
    if (taps.lane) rowOrder->closeLane(reports);
    if (taps.relay) dist->endRelay();
    sources.clear(); // before the workers they may refer to
}

} // namespace

std::vector<std::string> dataNotes(const std::string& input, const SkippedRows& skipped,
                                   const std::map<std::string, std::uint64_t>& repaired) {
    std::vector<std::string> out;
    for (const auto& [table, reasons] : skipped)
        for (const auto& [why, n] : reasons) {
            bool kept = why.rfind("kept", 0) == 0; // translated without one of its values (SkippedRows.h)
            out.push_back(input + ": " + table + ": " + std::to_string(n) + (n == 1 ? " row " : " rows ") +
                          (kept ? why : "skipped (" + why + ")"));
        }
    for (const auto& [table, n] : repaired)
        out.push_back(input + ": " + table + ": " + std::to_string(n) + (n == 1 ? " string" : " strings") +
                      " with invalid UTF-8 (bytes replaced by U+FFFD)");
    return out;
}

std::vector<std::string> kindNames() {
    std::vector<std::string> names;
    for (const auto& k : sourceKinds()) names.emplace_back(k.name);
    return names;
}

namespace {

// Messages pair calls of different reports: computed up front (before workers read the reports), merged as
// one more source, after every report's (by the root alone in a distributed run).
std::unique_ptr<RecordSource> mpiMessages(const PrePass& pass,
                                          std::vector<std::unique_ptr<ReportContext>>& contexts,
                                          std::vector<std::uint64_t>& unmatchedCalls) {
    std::vector<ReportContext*> ptrs;
    std::vector<std::map<std::int64_t, std::int64_t>> ranks(pass.reports.size());
    for (std::size_t i = 0; i < pass.reports.size(); ++i) {
        ptrs.push_back(contexts[i].get());
        for (const auto& [pid, p] : pass.objects[i].processes)
            if (p.mpiRank >= 0) ranks[i][pid] = p.mpiRank;
    }
    auto messages = matchMpiMessages(ptrs, ranks, unmatchedCalls);
    if (messages) messages->setOrigin(UINT64_MAX);
    return messages;
}

pipeline::StreamInfo streamInfo(const paraver::TraceLayout& layout, const TranslateSummary& summary,
                                const PrePass& pass, const TranslateOutputs& outputs) {
    pipeline::StreamInfo info;
    info.source = pass.inputs.size() == 1 ? pass.inputs.front().string()
                                          : std::to_string(pass.inputs.size()) + " reports";
    info.header = layout.header(summary.durationNs, paraver::headerDate(summary.originUtcNs));
    auto cpuOfRow = layout.cpuOfRows();
    for (std::size_t r = 0; r < layout.rows.size(); ++r)
        info.rows.push_back({cpuOfRow[r], 1, layout.rows[r].task + 1, layout.rows[r].local + 1});
    info.provenance.translation =
        paraver::Translation{GPUEFF_VERSION, summary.originUtcNs,
                             outputs.sidecarPath.empty() ? std::string("the sidecar JSON")
                                                         : outputs.sidecarFile.filename().string()};
    info.layout = layout;
    return info;
}

// What the sources counted while reading (they count what they leave out as they go), each report's
// facts, and in a distributed run the other processes' counts and labels, before the labels are written.
void collectReportFacts(const PrePass& pass, const std::vector<std::unique_ptr<ReportContext>>& contexts,
                        const std::vector<std::size_t>& own, Distribution* dist,
                        paraver::EventCatalog& catalog, const std::vector<std::uint64_t>& unmatchedCalls,
                        TranslateSummary& summary) {
    for (auto i : own) pass.reports[i]->noteSkipped(contexts[i]->skipped);
    for (std::size_t i = 0; i < pass.reports.size(); ++i) {
        auto& offset = summary.offsets[i];
        offset.format = pass.formats[i];
        offset.skippedRows = pass.reports[i]->skippedRows();
        offset.repairedText = pass.reports[i]->repairedText();
        offset.nsysVersion = pass.reports[i]->productVersion();
        offset.host = pass.reports[i]->host();
        if (pass.reports[i]->hasUtcStart()) offset.utcStartNs = pass.reports[i]->utcEpochNs();
    }
    if (dist) {
        PartFacts mine;
        mine.recordsByKind = summary.recordsByKind;
        for (auto i : own)
            mine.reports.push_back({static_cast<std::uint32_t>(i), summary.offsets[i].skippedRows,
                                    summary.offsets[i].repairedText});
        collectCatalogFacts(catalog, own, mine);
        for (const auto& theirs : dist->exchange(mine)) applyPartFacts(theirs, catalog, summary);
    }
    // The messages are matched where the trace is written (the root of a distributed run), after the
    // exchange, which gives each report the counts of the process that read it.
    const std::string noMessage = "kept without a message line (no matching call of the partner rank)";
    for (std::size_t i = 0; i < pass.reports.size(); ++i)
        if (unmatchedCalls[i])
            summary.offsets[i].skippedRows["MPI_P2P_EVENTS"][noMessage] += unmatchedCalls[i];
}

void reportOutcome(const TranslateOptions& options, const std::function<void(const std::string&)>& log,
                   const TranslateSummary& summary, std::size_t reports) {
    if (options.warn)
        for (const auto& o : summary.offsets)
            for (const auto& line : dataNotes(o.input.string(), o.skippedRows, o.repairedText))
                options.warn(line);
    if (!log) return;
    if (reports > 1)
        for (const auto& o : summary.offsets)
            log("clock of " + o.input.string() + ": offset " + std::to_string(o.offsetNs) + " ns, " +
                describe(o.alignment));
    for (const auto& n : summary.notes) log("note: " + n);
}

} // namespace

TranslateSummary translate(const TranslateOptions& options,
                           const std::function<void(const std::string&)>& log,
                           const TranslateOutputs& outputs) {
    if (options.inputs.empty()) throw Error("no input reports given");
    if (!outputs.chain) throw Error("internal error: translate without an output");
    auto& chain = *outputs.chain;
    Distribution* dist = options.distribution;
    if (dist && chain.hasStages()) throw Error("internal error: a distributed translation with stages");
    auto kinds = selectKinds(options);
    auto isMpi = [](const SourceKind* k) { return std::string(k->name) == "mpi"; };
    bool wantMpi = std::any_of(kinds.begin(), kinds.end(), isMpi);
    const unsigned jobs = workerCount(options.jobs);
    const std::size_t inputCount = options.inputs.size();
    if (options.images.empty())
        ensureFileDescriptors(kFdsBase + kFdsPerReport * inputCount,
                              std::to_string(inputCount) + (inputCount == 1 ? " report" : " reports"));
    const int cacheKiB =
        std::max(kMinCacheKiB, static_cast<int>(kCacheBudgetKiB / static_cast<std::int64_t>(inputCount)));
    SqliteHeapBudget heapBudget(std::int64_t{kCacheBudgetKiB} * 1024 +
                                kHeapPerReport * static_cast<std::int64_t>(inputCount));
    bool tty = options.progress && ::isatty(STDERR_FILENO);
    std::vector<StageTime> stages;
    StageClock clock(stages);
    const bool parallel = jobs > 1;
    PrePass pass;
    recogniseInputs(options, pass);
    // A distributed run shares the pre-pass: each process scans its share, and they exchange the findings.
    std::vector<std::size_t> scanShare;
    if (dist) scanShare = dist->scanShare();
    scanReports(options, kinds, wantMpi, jobs, cacheKiB, mapBytes(options.memoryLimit, inputCount), tty, pass,
                dist ? &scanShare : nullptr);
    if (dist) shareScans(*dist, scanShare, pass);
    clock.end("pre-pass", parallel && inputCount > 1);
    TranslateSummary summary;
    checkInputs(pass, log, summary);
    // Clock alignment (ClockAlignment.h), from the pre-pass: alike on every process of a distributed run.
    std::vector<std::string> names;
    for (const auto& in : pass.inputs) names.push_back(in.string());
    auto clocks = alignClocks(pass.clockEvidence, names, options.unaligned);
    if (options.warn)
        for (const auto& w : clocks.warnings) options.warn(w);
    if (log)
        for (const auto& r : clocks.remarks) log(r);
    placeReports(clocks, pass.objects, pass.inputs, pass.gpuActivity, summary);

    paraver::EventCatalog catalog;
    declareEventTypes(catalog);
    std::vector<std::unique_ptr<ReportContext>> contexts;
    for (std::size_t i = 0; i < inputCount; ++i)
        contexts.push_back(
            std::make_unique<ReportContext>(*pass.reports[i], i, summary.offsets[i].offsetNs, catalog));
    paraver::TraceLayout layout = buildTaskLayout(pass.reports, pass.objects, options.threadNames, contexts);
    summary.tasks = layout.tasks.size();
    summary.threads = layout.rows.size();
    summary.nodes = layout.nodes.size();
    std::map<std::string, std::uint32_t> domainBases = nvtxDomainBases(pass.reports, pass.objects);
    for (auto& ctx : contexts) ctx->nvtxDomainBases = &domainBases;
    // The kinds whose records are read from here on (all the selected ones, unless told otherwise).
    std::vector<const SourceKind*> streamed;
    for (const auto* k : kinds)
        if (options.streamedKinds.empty() || options.streamedKinds.count(k->name)) streamed.push_back(k);
    const bool scannedMpi = wantMpi; // what the pre-pass scanned for (a rescan scans alike)
    wantMpi = wantMpi && std::any_of(streamed.begin(), streamed.end(), isMpi);
    // The reports whose records this process reads: all of them, or its share of a distributed run.
    std::vector<std::size_t> own;
    if (dist) {
        own = dist->ownReports(layout);
        rescanOwnReports(own, scanShare, kinds, scannedMpi, jobs, pass);
    } else {
        for (std::size_t i = 0; i < inputCount; ++i) own.push_back(i);
    }
    clock.end("layout", false);
    collectNames(contexts, own, streamed, catalog, jobs, dist);
    clock.end("names", parallel && own.size() > 1);

    // Each report's sources, opened in parallel; their origins order them as the reports and kinds are.
    std::vector<std::vector<std::unique_ptr<RecordSource>>> reportSources(own.size());
    forEachIndex(own.size(), jobs, [&](std::size_t k) {
        std::size_t i = own[k];
        for (const auto* kind : streamed) kind->open(*contexts[i], reportSources[k]);
        for (std::size_t j = 0; j < reportSources[k].size(); ++j)
            reportSources[k][j]->setOrigin(std::uint64_t{i} << 32 | j);
    });
    std::unique_ptr<RecordSource> messages;
    std::vector<std::uint64_t> unmatchedCalls(inputCount, 0);
    if (wantMpi && (!dist || dist->root())) messages = mpiMessages(pass, contexts, unmatchedCalls);
    clock.end("open", parallel && own.size() > 1);

    // With other processes' records merged in, `localOnly` (the analysis of this process's part) gets the
    // local records only, beside the chain.
    const bool remotes = dist && dist->root() && dist->traceWritten() && chain.writesTrace();
    pipeline::RecordSink* local = remotes ? outputs.localOnly : nullptr;
    pipeline::RecordSink* rowOrder = outputs.rowOrder;
    pipeline::RecordSink& head = chain.head();
    auto info = streamInfo(layout, summary, pass, outputs);
    // Trace files (written here, or by the root from what this process relays) need the one time order.
    const bool inTurn =
        outputs.rowOrderOnly && !chain.writesTrace() && !chain.hasStages() && !(dist && dist->traceWritten());
    info.timeOrdered = !inTurn; // the merge below
    if (rowOrder && (dist || inTurn))
        throw Error("internal error: a row-order sink in a distributed or in-turn translation");
    head.begin(info);
    if (local) local->begin(info);
    if (rowOrder) {
        auto rows = info;
        rows.timeOrdered = false; // in turn order with workers
        rowOrder->begin(rows);
    }
    // Many reports under a memory limit: read in turn into a temporary file, merged from there.
    std::unique_ptr<SpillStore> spill;
    if (!inTurn && !dist && options.memoryLimit && own.size() * kOpenReportBytes > options.memoryLimit) {
        spill = std::make_unique<SpillStore>(options.spillDirectory);
        if (log)
            log(std::to_string(own.size()) + " reports open at once would take about " +
                std::to_string(own.size() * kOpenReportBytes >> 20) +
                " MiB: read in turn, their records kept on disk until merged");
    }
    if (dist && !dist->root() && dist->traceWritten()) dist->beginRelay(info.rows);
    writeRecords(std::move(reportSources), std::move(messages), jobs, inTurn, dist, remotes, local, rowOrder,
                 head, catalog, summary, tty, spill.get());
    clock.end("records", parallel);
    collectReportFacts(pass, contexts, own, dist, catalog, unmatchedCalls, summary);
    pipeline::StreamLabels labels;
    labels.writePcf = [&catalog](std::FILE* f) { catalog.writePcf(f); };
    labels.writeFullNamesPcf = [&catalog](std::FILE* f) {
        catalog.writePcf(f, paraver::EventCatalog::Names::Full);
    };
    const std::string application =
        outputs.application.empty() ? pass.inputs.front().stem().string() : outputs.application;
    labels.writeRow = [&layout, &application](std::FILE* f) {
        paraver::writeRowFile(f, layout, application);
    };
    head.end(labels);
    if (local) local->end(labels);
    if (rowOrder) rowOrder->end(labels);
    clock.end("end", false);
    summary.stages = std::move(stages);
    summary.bytes = chain.traceBytes();
    if (!outputs.sidecarPath.empty())
        writeSidecar(outputs.sidecarPath, outputs.sidecarFile, outputs.prvName, pass.reports, kinds, summary);
    reportOutcome(options, log, summary, pass.reports.size());
    return summary;
}

} // namespace gpueff::nsys
