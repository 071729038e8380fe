#include "engine/nsys/ClockAlignment.h"

#include "engine/common/Error.h"
#include "engine/nsys/KinetoRows.h"
#include "engine/nsys/NsysExport.h"
#include "engine/nsys/RowValidity.h"

#include <algorithm>

namespace gpueff::nsys {

namespace {

std::optional<std::int64_t> mpiInitEnd(const NsysExport& report) {
    if (report.kineto()) return kinetorows::mpiInitEnd(report);
    const auto& db = report.db();
    const std::string names = "(SELECT id FROM StringIds WHERE value IN ('MPI_Init', 'MPI_Init_thread'))";
    if (db.hasTable("MPI_OTHER_EVENTS") && db.hasColumn("MPI_OTHER_EVENTS", "textId"))
        if (auto t = db.scalarInt("SELECT max(end) FROM MPI_OTHER_EVENTS WHERE textId IN " + names + " AND " +
                                  report.validRows("MPI_OTHER_EVENTS")))
            return t;
    if (db.hasTable("NVTX_EVENTS") && db.hasColumn("NVTX_EVENTS", "domainId")) {
        std::string text = db.hasColumn("NVTX_EVENTS", "textId")
                               ? "(text IN ('MPI_Init', 'MPI_Init_thread') OR textId IN " + names + ")"
                               : "text IN ('MPI_Init', 'MPI_Init_thread')";
        if (auto t = db.scalarInt("SELECT max(end) FROM NVTX_EVENTS WHERE eventType = 59 AND " + text +
                                  " AND " + report.validRows("NVTX_EVENTS")))
            return t;
    }
    return std::nullopt;
}

std::vector<CollectiveEnd> firstCollectives(const NsysExport& report) {
    std::vector<CollectiveEnd> out;
    if (report.kineto()) return out; // no MPI calls in a Kineto trace
    const auto& db = report.db();
    if (!db.hasTable("MPI_COLLECTIVES_EVENTS") || !db.hasColumn("MPI_COLLECTIVES_EVENTS", "textId"))
        return out;
    sqlite::Statement st(db, "SELECT c.end, s.value FROM MPI_COLLECTIVES_EVENTS c JOIN StringIds s ON s.id = "
                             "c.textId WHERE c.end IS NOT NULL AND " +
                                 report.validRows("MPI_COLLECTIVES_EVENTS", "c") +
                                 " ORDER BY c.start, c.rowid LIMIT " + std::to_string(kAlignmentCollectives));
    while (st.step()) out.push_back({report.utf8(st.text(1), "StringIds"), st.int64(0)});
    return out;
}

// The sync point every input has: the end of MPI_Init, else of the first collective when it is the same
// call everywhere. Empty name: none.
struct SharedSyncPoint {
    std::string name, method; // "MPI_Init end" / "MPI_Init"; "end of the first MPI_Allreduce" / ...
    std::vector<std::int64_t> ends;
};

SharedSyncPoint sharedSyncPoint(const std::vector<ClockEvidence>& evidence) {
    SharedSyncPoint p;
    if (std::all_of(evidence.begin(), evidence.end(),
                    [](const auto& e) { return e.mpiInitEnd.has_value(); })) {
        p.name = "MPI_Init end";
        p.method = "MPI_Init";
        for (const auto& e : evidence) p.ends.push_back(*e.mpiInitEnd);
        return p;
    }
    for (const auto& e : evidence)
        if (e.collectives.empty() || e.collectives.front().name != evidence.front().collectives.front().name)
            return p;
    p.name = "end of the first " + evidence.front().collectives.front().name;
    p.method = "first collective";
    for (const auto& e : evidence) p.ends.push_back(e.collectives.front().end);
    return p;
}

// How many leading collectives every input recorded alike (same call at the same place in start order).
std::size_t sharedCollectives(const std::vector<ClockEvidence>& evidence) {
    std::size_t k = 0;
    for (;; ++k)
        for (const auto& e : evidence)
            if (k >= e.collectives.size() || e.collectives[k].name != evidence.front().collectives[k].name)
                return k;
}

// The uncertainty of each input once aligned (see InputAlignment::uncertaintyNs).
void measureUncertainty(const std::vector<ClockEvidence>& evidence, const SharedSyncPoint& point,
                        std::vector<InputAlignment>& inputs) {
    const std::size_t shared = sharedCollectives(evidence);
    // The first collective, when it is the sync point, agrees by construction: it is no evidence.
    const std::size_t first = point.method == "first collective" ? 1 : 0;
    const std::size_t n = inputs.size();
    for (std::size_t i = 0; i < n; ++i) {
        auto& in = inputs[i];
        in.evidence = shared > first ? shared - first : 0;
        std::optional<std::int64_t> widest;
        auto widen = [&widest](std::int64_t a, std::int64_t b) {
            std::int64_t d = a > b ? checkedSub(a, b) : checkedSub(b, a);
            widest = std::max(widest.value_or(0), d);
        };
        for (std::size_t j = 0; j < n; ++j) {
            if (j == i) continue;
            if (in.evidence > 0) {
                for (std::size_t k = first; k < shared; ++k)
                    widen(checkedAdd(evidence[i].collectives[k].end, in.shiftNs()),
                          checkedAdd(evidence[j].collectives[k].end, inputs[j].shiftNs()));
            } else if (evidence[i].utcStartNs && evidence[j].utcStartNs) {
                widen(checkedAdd(point.ends[i], in.utcShiftNs),
                      checkedAdd(point.ends[j], inputs[j].utcShiftNs));
            }
        }
        in.uncertaintyNs = widest;
    }
}

std::string listed(const std::vector<std::string>& names) {
    std::string s;
    for (std::size_t i = 0; i < names.size(); ++i)
        s += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return s;
}

// Places the inputs by the sync point: those with a session start move so that their sync points coincide
// (when no correction exceeds the limit), those without meet them there. False when refused.
bool placeBySyncPoint(const std::vector<ClockEvidence>& evidence, const SharedSyncPoint& point,
                      std::int64_t limitNs, ClockAlignment& out) {
    const std::size_t n = evidence.size();
    std::int64_t target = INT64_MIN;
    bool anyUtc = false;
    for (std::size_t i = 0; i < n; ++i)
        if (evidence[i].utcStartNs) {
            anyUtc = true;
            target = std::max(target, checkedAdd(point.ends[i], out.inputs[i].utcShiftNs));
        }
    if (!anyUtc)
        for (std::size_t i = 0; i < n; ++i) target = std::max(target, point.ends[i]);
    for (std::size_t i = 0; i < n; ++i) {
        if (!evidence[i].utcStartNs) continue;
        std::int64_t correction = checkedSub(target, checkedAdd(point.ends[i], out.inputs[i].utcShiftNs));
        if (correction > limitNs) {
            out.warnings.push_back("clocks aligned by UTC session start only: " + point.name +
                                   " differs by " + std::to_string(correction) +
                                   " ns between inputs after UTC alignment: not refined (inputs of different "
                                   "runs?)");
            return false;
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        auto& in = out.inputs[i];
        in.syncPoint = point.name;
        in.method = evidence[i].utcStartNs ? "utc+" + point.method : point.method;
        in.syncShiftNs = checkedSub(target, checkedAdd(point.ends[i], in.utcShiftNs));
    }
    return true;
}

} // namespace

std::string describe(const InputAlignment& a) {
    const bool utc = a.method.rfind("utc", 0) == 0;
    std::string how;
    if (utc) how = "UTC start +" + std::to_string(a.utcShiftNs) + " ns";
    if (!a.syncPoint.empty())
        how += (utc ? ", " : "") + a.syncPoint + " +" + std::to_string(a.syncShiftNs) + " ns";
    if (a.uncertaintyNs)
        how += "; uncertainty " + std::to_string(*a.uncertaintyNs) + " ns " +
               (a.evidence ? "over " + std::to_string(a.evidence) +
                                 (a.evidence == 1 ? " collective" : " collectives")
                           : std::string("(the correction)"));
    return how.empty() ? a.method : a.method + " (" + how + ")";
}

ClockEvidence readClockEvidence(const NsysExport& report, bool syncPoints) {
    ClockEvidence e;
    if (report.hasUtcStart()) e.utcStartNs = report.utcEpochNs();
    if (!syncPoints) return e;
    e.mpiInitEnd = mpiInitEnd(report);
    e.collectives = firstCollectives(report);
    return e;
}

ClockAlignment alignClocks(const std::vector<ClockEvidence>& evidence, const std::vector<std::string>& names,
                           bool unaligned, std::int64_t limitNs) {
    ClockAlignment out;
    const std::size_t n = evidence.size();
    out.inputs.resize(n);
    for (const auto& e : evidence)
        if (e.utcStartNs) out.originUtcNs = std::min(out.originUtcNs.value_or(INT64_MAX), *e.utcStartNs);
    if (n == 1) {
        out.inputs.front().method = "single input";
        return out;
    }
    // Session starts are validated (0 .. kMaxUtcNs, NsysExport), so the shifts are too.
    for (std::size_t i = 0; i < n; ++i)
        if (evidence[i].utcStartNs) {
            out.inputs[i].utcShiftNs = checkedSub(*evidence[i].utcStartNs, *out.originUtcNs);
            out.inputs[i].method = "utc";
        }
    auto point = sharedSyncPoint(evidence);
    const bool allUtc =
        std::all_of(evidence.begin(), evidence.end(), [](const auto& e) { return e.utcStartNs.has_value(); });
    if (point.name.empty()) {
        if (allUtc)
            out.remarks.push_back("clocks aligned by UTC session start only: no sync point shared by every "
                                  "input (MPI_Init or a first collective)");
    } else if (placeBySyncPoint(evidence, point, limitNs, out)) {
        measureUncertainty(evidence, point, out.inputs);
        for (std::size_t i = 0; i < n; ++i)
            if (!evidence[i].utcStartNs)
                out.warnings.push_back(names[i] +
                                       ": no session start (TARGET_INFO_SESSION_START_TIME): placed by its " +
                                       point.name + " against the other inputs");
        return out;
    }
    std::vector<std::string> unplaced;
    for (std::size_t i = 0; i < n; ++i)
        if (!evidence[i].utcStartNs) unplaced.push_back(names[i]);
    if (unplaced.size() > 1 && !unaligned)
        throw Error("cannot align the clocks of " + listed(unplaced) +
                    ": no session start (TARGET_INFO_SESSION_START_TIME) and no sync point shared by every "
                    "input (the end of MPI_Init or of the first MPI collective); translate them separately, "
                    "or merge them unaligned with --unaligned");
    for (std::size_t i = 0; i < n; ++i)
        if (!evidence[i].utcStartNs) {
            out.inputs[i].method = "none";
            out.warnings.push_back(names[i] +
                                   ": no session start (TARGET_INFO_SESSION_START_TIME) and no sync point "
                                   "shared by every input: not aligned (its session start is taken as the "
                                   "earliest input's)");
        }
    return out;
}

} // namespace gpueff::nsys
