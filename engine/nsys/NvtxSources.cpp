#include "engine/nsys/NvtxSources.h"

#include "engine/common/Error.h"
#include "engine/kineto/KinetoTables.h"
#include "engine/nsys/KinetoRows.h"
#include "engine/nsys/MpiNames.h"
#include "engine/nsys/SqlColumns.h"
#include "engine/nsys/TableScan.h"
#include "engine/paraver/EventTypes.h"

#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>

namespace gpueff::nsys {

namespace types = paraver::types;

namespace {

constexpr const char* kTable = "NVTX_EVENTS";
constexpr int kMark = 34, kPushPop = 59, kStartEnd = 60, kDomainCreate = 75, kCategoryName = 33;
constexpr int kThreadName = 39;
// Rows without a thread are skipped and counted with the other invalid rows (RowValidity.h).
const std::string kTranslatedRows = "eventType IN (" + std::to_string(kMark) + ", " +
                                    std::to_string(kPushPop) + ", " + std::to_string(kStartEnd) + ")";
// NVTX categories are any uint32; each gets one of 97 event types of its domain.
constexpr std::int64_t kCategorySlots = 97;
std::uint32_t categorySlot(std::int64_t category) {
    return static_cast<std::uint32_t>(((category % kCategorySlots) + kCategorySlots) % kCategorySlots);
}

// "MPI Rank N" -> N, or nullopt when N is no integer.
std::optional<std::int64_t> rankOf(std::string_view digits) {
    std::int64_t rank = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), rank);
    if (ec != std::errc() || end != digits.data() + digits.size() || rank < 0) return std::nullopt;
    return rank;
}

enum class DomainKind { Default, Nccl, Mpi, Other };

struct Domain {
    DomainKind kind = DomainKind::Default;
    std::string name;
    std::uint32_t base = types::kNvtxDefaultDomainBase;
};

// Category c of a domain: base + c; NCCL's 9500 + c are nsys2prv's payload fields, so its categories other
// than 0 have a range of their own.
std::uint32_t categoryType(const Domain& d, std::uint32_t category) {
    if (d.kind == DomainKind::Nccl && category != 0) return types::kNcclCategoryBase + category;
    return d.base + category;
}

std::string textExpr(const sqlite::Database& db) {
    return db.hasColumn(kTable, "textId") ? "coalesce(n.text, s.value)" : "n.text";
}

std::string textJoin(const sqlite::Database& db) {
    return db.hasColumn(kTable, "textId") ? " LEFT JOIN StringIds s ON s.id = n.textId" : "";
}

// Domain names come from domain-create rows; a time slice may lack them, so an unnamed domain whose
// ranges are called nccl* is recognised as NCCL's.
// The NVTX rows that describe rather than time something (domain and category names, thread names), read
// in one pass over the table, shared by every reader of the export.
struct NvtxMeta {
    std::map<std::int64_t, std::string> domainNames;
    std::vector<std::tuple<std::int64_t, std::int64_t, std::string>> categories; // domain, category, name
    std::vector<std::pair<std::int64_t, std::int64_t>> ranks;                    // globalTid, MPI rank
};

const NvtxMeta& metaOf(const NsysExport& ex) {
    return ex.memo<NvtxMeta>("nvtx meta", [&] {
        NvtxMeta meta;
        // A Kineto trace names its domains only (no categories, no thread names).
        if (ex.kineto()) {
            meta.domainNames = kinetorows::domainNames(ex);
            return meta;
        }
        const auto& db = ex.db();
        auto column = [&](const char* name) {
            return db.hasColumn(kTable, name) ? std::string("n.") + name : "0";
        };
        sqlite::Statement st(db, "SELECT n.eventType, " + column("domainId") + ", " + column("category") +
                                     ", n.globalTid, " + textExpr(db) + " FROM " + kTable + " n" +
                                     textJoin(db) + " WHERE n.eventType IN (" +
                                     std::to_string(kCategoryName) + ", " + std::to_string(kThreadName) +
                                     ", " + std::to_string(kDomainCreate) + ")");
        while (st.step()) {
            std::int64_t domain = st.isNull(1) ? 0 : st.int64(1);
            std::string repaired;
            std::string_view text = ex.utf8(st.text(4), kTable, repaired);
            switch (st.int64(0)) {
            case kDomainCreate:
                meta.domainNames[domain] = text;
                break;
            case kCategoryName:
                meta.categories.emplace_back(domain, st.isNull(2) ? 0 : st.int64(2), text);
                break;
            default: // kThreadName: older MPI exports name the thread "MPI Rank N", and the rank orders the
                     // tasks.
                if (text.rfind("MPI Rank ", 0) == 0 && !st.isNull(3))
                    if (auto rank = rankOf(text.substr(9))) meta.ranks.emplace_back(st.int64(3), *rank);
            }
        }
        return meta;
    });
}

// Domains that have ranges: found by the pre-pass scan; computed here only when NVTX is not translated.
const std::set<std::int64_t>& usedDomainsOf(const NsysExport& ex) {
    return ex.memo<std::set<std::int64_t>>("nvtx used domains", [&] {
        std::set<std::int64_t> used;
        if (const auto* k = ex.kineto()) {
            for (const auto& n : k->nvtx)
                if (n.domain != 0) used.insert(n.domain);
            return used;
        }
        sqlite::Statement st(ex.db(), std::string("SELECT DISTINCT domainId FROM ") + kTable +
                                          " WHERE domainId IS NOT NULL AND domainId != 0");
        while (st.step()) used.insert(st.int64(0));
        return used;
    });
}

std::map<std::int64_t, Domain> readDomains(const NsysExport& ex) {
    std::map<std::int64_t, Domain> domains;
    if (!ex.kineto() && !ex.db().hasColumn(kTable, "domainId")) return domains;
    for (const auto& [id, name] : metaOf(ex).domainNames) domains[id].name = name;
    for (auto id : usedDomainsOf(ex))
        if (id != 0) domains[id];
    for (auto& [id, d] : domains) {
        if (d.name.empty() && !ex.kineto()) { // a Kineto trace names every domain it uses
            const auto& db = ex.db();
            std::string text = textExpr(db), join = textJoin(db);
            auto first = db.scalarText("SELECT " + text + " FROM " + kTable + " n" + join +
                                       " WHERE n.domainId = " + std::to_string(id) +
                                       " AND n.eventType IN (59, 60) LIMIT 1");
            d.name = first && first->rfind("nccl", 0) == 0 ? "NCCL" : "NVTX domain " + std::to_string(id);
        }
        if (d.name == "NCCL") {
            d.kind = DomainKind::Nccl;
            d.base = types::kNcclDomainBase;
        } else if (d.name == "MPI") {
            d.kind = DomainKind::Mpi;
        } else if (d.name == "neSmiK") {
            d.kind = DomainKind::Other;
            d.base = types::kNeSmiKDomainBase;
        } else {
            d.kind = DomainKind::Other;
            d.base = 0; // numbered over the whole trace (nvtxDomainBases)
        }
    }
    return domains;
}

const std::map<std::int64_t, Domain>& domainsOf(const NsysExport& ex) {
    return ex.memo<std::map<std::int64_t, Domain>>("nvtx domains", [&] { return readDomains(ex); });
}

// The domains that nsys2prv numbers 9600 + 100 * k: those with ranges or marks, other than the default,
// NCCL and neSmiK ones ("MPI" keeps its place in the numbering although its ranges become MPI events).
std::vector<std::string> numberedDomains(const NsysExport& ex) {
    std::vector<std::string> names;
    if (!ex.kineto() && !ex.db().hasTable(kTable)) return names;
    const auto& used = usedDomainsOf(ex);
    for (const auto& [id, d] : domainsOf(ex))
        if (used.count(id) && (d.kind == DomainKind::Mpi || (d.kind == DomainKind::Other && d.base == 0)))
            names.push_back(d.name);
    return names;
}

class NvtxSource : public IntervalSource {
public:
    NvtxSource(ReportContext& ctx, std::unique_ptr<Rows> st, std::map<std::int64_t, Domain> domains)
        : IntervalSource(std::move(st), ctx.shift), ctx_(ctx), domains_(std::move(domains)) {}
    std::string name() const override { return "nvtx"; }

protected:
    // columns: start, end, eventType, text, domainId, category, globalTid, numeric payload, json text, json
    // text id, text id
    bool decode(const Rows& s, TraceRecord& r, Interval& iv) override {
        int eventType = static_cast<int>(s.int64(2));
        iv.begin = shifted(s.int64(0));
        iv.hasEnd = eventType != kMark && !s.isNull(1);
        iv.end = iv.hasEnd ? shifted(s.int64(1)) : iv.begin;
        iv.row = ctx_.threadRow(s.int64(6));
        // Registered strings are resolved in memory: a join on StringIds per row costs a B-tree lookup.
        std::string_view text = s.isNull(3) && !s.isNull(10) ? ctx_.report.string(s.int64(10))
                                                             : ctx_.report.utf8(s.text(3), kTable, text_);
        if (text.empty()) text = "unnamed range";
        const Domain& d = domain(s.isNull(4) ? 0 : s.int64(4));
        if (d.kind == DomainKind::Mpi && eventType != kMark) {
            std::uint32_t type = mpiEventType(text);
            std::int64_t v = extraeMpiValue(text);
            if (v != 0) ctx_.catalog.labelValue(type, v, std::string(text));
            r.add(type, v != 0 ? v : ctx_.textValue(type, text));
            return true;
        }
        std::uint32_t category = s.isNull(5) ? 0 : categorySlot(s.int64(5));
        std::uint32_t type = eventType == kMark ? d.base + types::kNvtxMarkOffset : categoryType(d, category);
        r.add(type, names(type, d, eventType == kMark ? "marks" : categoryLabel(category)).valueOf(text));
        // nsys2prv's cfg of start/end ranges reads one type for all of them, whatever their domain.
        if (eventType == kStartEnd) r.add(types::kNvtxStartEndRange, startEnd_.valueOf(text));
        if (!s.isNull(7)) {
            // Paraver values are integers: a payload that is no finite number within int64 is left out.
            double payload = s.real(7);
            if (std::isfinite(payload) && std::abs(payload) < 9.2e18) {
                std::uint32_t pt = d.base + types::kNvtxNumericPayloadOffset;
                names(pt, d, "numeric payload");
                r.add(pt, static_cast<std::int64_t>(std::llround(payload)));
            } else {
                ++ctx_.skipped[kTable]["kept without the numeric payload (not finite or beyond int64)"];
            }
        }
        if (!s.isNull(8) || !s.isNull(9)) {
            std::uint32_t jt = d.base + types::kNvtxJsonPayloadOffset;
            r.add(jt, names(jt, d, "JSON payload")
                          .valueOf(s.isNull(8) ? ctx_.report.string(s.int64(9))
                                               : ctx_.report.utf8(s.text(8), kTable, json_)));
        }
        return true;
    }

private:
    const Domain& domain(std::int64_t id) {
        auto it = domains_.find(id);
        return it != domains_.end() ? it->second : defaultDomain_;
    }
    static std::string categoryLabel(std::uint32_t c) {
        return c == 0 ? "ranges" : "category " + std::to_string(c);
    }
    // The value dictionary of an NVTX type, declaring the type on first use (cached: no lookup by label).
    // Ranges and marks of one domain share its values, as in nsys2prv (one name table per domain); payloads
    // have their own.
    NameDictionary& names(std::uint32_t type, const Domain& d, const std::string& what) {
        auto it = dictionaries_.find(type);
        if (it != dictionaries_.end()) return *it->second;
        if (!ctx_.catalog.declared(type))
            ctx_.catalog.declare(type,
                                 (d.kind == DomainKind::Default ? "NVTX" : "NVTX " + d.name) + " " + what);
        std::uint32_t offset = type >= d.base ? type - d.base : 0;
        if (offset != types::kNvtxJsonPayloadOffset && offset != types::kNvtxNumericPayloadOffset)
            ctx_.catalog.joinFamily(type, d.base);
        return *dictionaries_.emplace(type, &ctx_.catalog.names(type)).first->second;
    }

    ReportContext& ctx_;
    std::map<std::int64_t, Domain> domains_;
    Domain defaultDomain_;
    std::string text_, json_; // repaired copies of invalid UTF-8 text
    std::unordered_map<std::uint32_t, NameDictionary*> dictionaries_;
    NameDictionary& startEnd_ = ctx_.catalog.names(types::kNvtxStartEndRange);
};

} // namespace

std::map<std::string, std::uint32_t> nvtxDomainBases(const std::vector<std::unique_ptr<NsysExport>>& reports,
                                                     const std::vector<ReportObjects>& objects) {
    std::set<std::string> names;
    for (std::size_t i = 0; i < reports.size(); ++i)
        for (auto& n : objects[i].nvtxNumbered ? *objects[i].nvtxNumbered : numberedDomains(*reports[i]))
            names.insert(std::move(n));
    if (names.size() > types::kNvtxMaxOtherDomains)
        throw Error(reports.front()->path().string() + ": " + std::to_string(names.size()) +
                    " NVTX domains: Paraver event types number at most " +
                    std::to_string(types::kNvtxMaxOtherDomains) +
                    " (besides the default, NCCL and neSmiK ones)");
    std::map<std::string, std::uint32_t> bases;
    std::uint32_t k = 0;
    for (const auto& n : names) bases[n] = types::kNvtxDefaultDomainBase + 100 * ++k;
    return bases;
}

std::optional<std::int64_t> ncclDomainId(const NsysExport& ex) {
    if (!ex.kineto() && !ex.db().hasTable(kTable)) return std::nullopt;
    for (const auto& [id, d] : domainsOf(ex))
        if (d.kind == DomainKind::Nccl) return id;
    return std::nullopt;
}

void discoverNvtx(const NsysExport& ex, ReportObjects& o) {
    std::set<std::int64_t> domains;
    auto onKey = [&](const std::int64_t* k) {
        o.process(k[0]).threads.insert(k[0]);
        domains.insert(k[1]);
    };
    ScanSpan span;
    if (ex.kineto()) {
        span = kinetorows::scan(ex, kTable, 2, onKey);
    } else {
        const auto& db = ex.db();
        if (!db.hasTable(kTable)) return;
        requireColumns(db, kTable, {"start", "end", "eventType", "globalTid"});
        // The rows the translation reads (rowsRead: kTranslatedRows), so the stored-by-start verdict applies
        // to its query.
        span = scanTable(ex, kTable,
                         std::string("globalTid, ") +
                             (db.hasColumn(kTable, "domainId") ? "coalesce(domainId, 0)" : "0"),
                         2, onKey);
    }
    o.span(span.first, span.last);
    ex.memo<std::set<std::int64_t>>("nvtx used domains", [&] { return domains; });
    o.nvtxNumbered = numberedDomains(ex);
    for (auto [tid, rank] : metaOf(ex).ranks) o.process(tid).mpiRank = rank;
}

void openNvtx(ReportContext& ctx, std::vector<std::unique_ptr<RecordSource>>& out) {
    if (!ctx.report.kineto() && !ctx.report.db().hasTable(kTable)) return;
    auto domains = domainsOf(ctx.report);
    for (auto& [id, d] : domains)
        if (d.kind == DomainKind::Other && d.base == 0) {
            // Only domains with ranges are numbered; the others have no record to type.
            if (!ctx.nvtxDomainBases) throw Error("internal error: NVTX domains were not numbered");
            auto base = ctx.nvtxDomainBases->find(d.name);
            if (base != ctx.nvtxDomainBases->end()) d.base = base->second;
        }
    // Category names (eventType 33) label the category's event type.
    for (const auto& [domain, category, name] : metaOf(ctx.report).categories) {
        auto it = domains.find(domain);
        std::string prefix = it != domains.end() ? "NVTX " + it->second.name : "NVTX";
        ctx.catalog.declare(categoryType(it != domains.end() ? it->second : Domain{}, categorySlot(category)),
                            prefix + " " + name);
    }
    if (ctx.report.kineto()) {
        out.push_back(
            std::make_unique<NvtxSource>(ctx, kinetorows::nvtxRanges(ctx.report), std::move(domains)));
        out.back()->setReorderWindow(ctx.report.readWindow(kTable));
        return;
    }
    const auto& db = ctx.report.db();
    std::string numeric = "NULL";
    for (const char* c :
         {"int64Value", "uint64Value", "int32Value", "uint32Value", "doubleValue", "floatValue"})
        if (db.hasColumn(kTable, c))
            numeric = numeric == "NULL" ? std::string("n.") + c : numeric + ", n." + c;
    if (numeric.find(',') != std::string::npos) numeric = "coalesce(" + numeric + ")";
    // JSON payloads are inline (jsonText) or registered (jsonTextId, resolved in memory like range names).
    std::string json = columnOr(db, kTable, "jsonText") + ", " + columnOr(db, kTable, "jsonTextId");
    std::string sql = "SELECT n.start, n.end, n.eventType, n.text, " + columnOr(db, kTable, "domainId", "0") +
                      ", " + columnOr(db, kTable, "category", "0") + ", n.globalTid, " + numeric + ", " +
                      json + ", " + columnOr(db, kTable, "textId") + " FROM " + kTable + " n WHERE n." +
                      kTranslatedRows + " AND " + ctx.report.validRows(kTable, "n") + " ORDER BY " +
                      ctx.order(kTable, "n");
    out.push_back(std::make_unique<NvtxSource>(ctx, query(db, sql), std::move(domains)));
    out.back()->setReorderWindow(ctx.report.readWindow(kTable));
}

} // namespace gpueff::nsys
