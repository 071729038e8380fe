#include "engine/nsys/NcclPayloads.h"

#include "engine/nsys/KinetoRows.h"
#include "engine/nsys/NvtxSources.h"
#include "engine/nsys/SqlColumns.h"
#include "engine/paraver/EventTypes.h"

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>

namespace gpueff::nsys {

namespace types = paraver::types;

namespace {

// Payload field names as NCCL's NVTX schemas spell them.
struct Field {
    const char* name;
    std::uint32_t type;
};
constexpr Field kFields[] = {
    {"Message size [bytes]", types::kNcclMessageSize},
    {"Reduction operation", types::kNcclReduceOp},
    {"Root", types::kNcclRootRank},
    {"Peer rank", types::kNcclPeerRank},
    {"NCCL communicator ID", types::kNcclCommunicator},
    {"No. of ranks", types::kNcclRanks},
    {"Rank", types::kNcclRank},
};

// NCCL's payloads nest one or two levels; a deeper document is not one of them (and must not exhaust the
// stack).
constexpr int kMaxPayloadDepth = 16;

void collect(const nlohmann::json& j, ReportContext& ctx, NcclPayload& out, int depth = 0) {
    if (!j.is_object() || depth > kMaxPayloadDepth) return;
    for (const auto& [key, value] : j.items()) {
        if (value.is_object()) {
            collect(value, ctx, out, depth + 1);
            continue;
        }
        for (const auto& f : kFields) {
            if (key != f.name) continue;
            // Paraver values are int64: numbers beyond it (or not finite) are left out, never wrapped.
            if (value.is_number_unsigned()) {
                if (value.get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX))
                    out.fields.push_back({f.type, static_cast<std::int64_t>(value.get<std::uint64_t>())});
            } else if (value.is_number_integer()) {
                out.fields.push_back({f.type, value.get<std::int64_t>()});
            } else if (value.is_number_float()) {
                double v = value.get<double>();
                if (std::isfinite(v) && std::abs(v) < 9.2e18)
                    out.fields.push_back({f.type, static_cast<std::int64_t>(v)});
            } else if (value.is_string())
                out.fields.push_back({f.type, ctx.textValue(f.type, value.get<std::string>())});
        }
    }
}

} // namespace

NcclPayloads NcclPayloads::read(ReportContext& ctx, std::uint64_t& undecoded) {
    NcclPayloads result;
    undecoded = 0;
    // The payload of the range around a launching call, keyed by the call (a later range's wins).
    auto add = [&](std::int64_t globalTid, std::int64_t correlation, std::string_view json) {
        NcclPayload p;
        collect(nlohmann::json::parse(json, nullptr, false), ctx, p);
        if (!p.fields.empty()) result.byLaunch_[{globalPidOf(globalTid), correlation}] = std::move(p);
    };
    if (ctx.report.kineto()) {
        auto domain = ncclDomainId(ctx.report);
        if (!domain) return result;
        for (const auto& [tid, corr, json] : kinetorows::ncclPayloadRows(ctx.report, *domain))
            add(tid, corr, json);
        return result;
    }
    const auto& db = ctx.report.db();
    const std::string nvtx = "NVTX_EVENTS", runtime = "CUPTI_ACTIVITY_KIND_RUNTIME";
    if (!db.hasTable(nvtx) || !db.hasTable(runtime) || !db.hasColumn(nvtx, "domainId")) return result;
    auto domain = ncclDomainId(ctx.report);
    if (!domain) return result;
    // The join below makes SQLite index every runtime call: only worth it when some range has a payload.
    std::string hasPayload = "n.domainId = " + std::to_string(*domain) + " AND n.eventType = 59 AND (" +
                             columnOr(db, nvtx, "jsonText") + " IS NOT NULL OR " +
                             columnOr(db, nvtx, "jsonTextId") + " IS NOT NULL OR " +
                             columnOr(db, nvtx, "binaryData") + " IS NOT NULL)";
    // Asked once per export: the names pass and the records both read the payloads.
    if (!ctx.report.memo<bool>("nccl payloads", [&] {
            return db.scalarInt("SELECT 1 FROM " + nvtx + " n WHERE " + hasPayload + " LIMIT 1").has_value();
        }))
        return result;
    std::string json = db.hasColumn(nvtx, "jsonTextId")
                           ? "coalesce(n.jsonText, (SELECT value FROM StringIds j WHERE j.id = n.jsonTextId))"
                           : columnOr(db, nvtx, "jsonText");
    std::string binary = columnOr(db, nvtx, "binaryData");
    sqlite::Statement st(db, "SELECT r.globalTid, r.correlationId, " + json + ", " + binary +
                                 " IS NOT NULL FROM " + nvtx + " n JOIN " + runtime +
                                 " r ON r.globalTid = n.globalTid AND r.start >= n.start AND r.start <= n.end"
                                 " WHERE n.domainId = " +
                                 std::to_string(*domain) + " AND n.eventType = 59 AND (" + json +
                                 " IS NOT NULL OR " + binary + " IS NOT NULL)");
    std::int64_t lastUndecoded = -1;
    while (st.step()) {
        std::int64_t corr = st.int64(1);
        if (st.isNull(2)) {
            if (st.int64(3) && corr != lastUndecoded) ++undecoded;
            lastUndecoded = corr;
            continue;
        }
        add(st.int64(0), corr, st.text(2));
    }
    return result;
}

const NcclPayload* NcclPayloads::find(std::int64_t globalPid, std::int64_t correlationId) const {
    auto it = byLaunch_.find({globalPid, correlationId});
    return it == byLaunch_.end() ? nullptr : &it->second;
}

} // namespace gpueff::nsys
