#include "engine/nsys/Sidecar.h"

#include "engine/common/Error.h"
#include "engine/common/JsonText.h"

#include <fstream>
#include <nlohmann/json.hpp>

namespace gpueff::nsys {

void writeSidecar(const std::filesystem::path& path, const std::filesystem::path& finalPath,
                  const std::string& prvName, const std::vector<std::unique_ptr<NsysExport>>& reports,
                  const std::vector<const SourceKind*>& kinds, const TranslateSummary& summary) {
    nlohmann::json side;
    side["tool"] = "gpueff " GPUEFF_VERSION;
    side["trace"] = {{"prv", prvName},
                     {"duration_ns", summary.durationNs},
                     {"origin_utc_ns", summary.originUtcNs},
                     {"records", summary.records},
                     {"bytes", summary.bytes},
                     {"nodes", summary.nodes},
                     {"tasks", summary.tasks},
                     {"threads", summary.threads}};
    for (std::size_t i = 0; i < reports.size(); ++i) {
        const auto& r = *reports[i];
        const auto& o = summary.offsets[i];
        const auto& a = o.alignment;
        side["inputs"].push_back(
            {{"path", r.path().string()},
             {"nsys_version", r.productVersion()},
             {"schema_version", r.schemaVersion()},
             {"host", r.host()},
             {"session_utc_ns", r.hasUtcStart() ? nlohmann::json(r.utcEpochNs()) : nlohmann::json()},
             {"alignment", a.method},
             {"utc_shift_ns", a.utcShiftNs},
             {"sync_shift_ns", a.syncShiftNs},
             {"sync_point", a.syncPoint},
             {"alignment_uncertainty_ns",
              a.uncertaintyNs ? nlohmann::json(*a.uncertaintyNs) : nlohmann::json()},
             {"alignment_evidence", a.evidence},
             {"offset_ns", o.offsetNs},
             {"gpu_activity", o.gpuActivity},
             {"skipped_rows", o.skippedRows},
             {"repaired_text", o.repairedText}});
    }
    side["warnings"] = summary.warnings;
    // Totals over the inputs, per table and reason (each input's own counts are in its entry above).
    SkippedRows skipped;
    std::map<std::string, std::uint64_t> repaired;
    for (const auto& o : summary.offsets) {
        addSkipped(skipped, o.skippedRows);
        for (const auto& [table, n] : o.repairedText) repaired[table] += n;
    }
    side["skipped_rows"] = nlohmann::json::object();
    for (const auto& [table, reasons] : skipped) side["skipped_rows"][table] = reasons;
    side["repaired_text"] = nlohmann::json::object();
    for (const auto& [table, n] : repaired) side["repaired_text"][table] = n;
    std::vector<std::string> kindList;
    for (const auto* k : kinds) kindList.emplace_back(k->name);
    side["kinds"] = kindList;
    side["records_by_source"] = summary.recordsByKind;
    for (const auto& [type, n] : summary.beginsByType) side["begins_by_event_type"][std::to_string(type)] = n;
    for (const auto& [tag, n] : summary.communicationsByTag)
        side["communications_by_tag"][std::to_string(tag)] = n;
    {
        std::ofstream out(path);
        out << dumpJson(side);
        if (!out) throw Error(finalPath.string() + ": write failed");
    }
}

} // namespace gpueff::nsys
