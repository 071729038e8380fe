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
        side["inputs"].push_back({{"path", r.path().string()},
                                  {"nsys_version", r.productVersion()},
                                  {"schema_version", r.schemaVersion()},
                                  {"host", r.host()},
                                  {"session_utc_ns", r.utcEpochNs()},
                                  {"utc_shift_ns", summary.offsets[i].utcShiftNs},
                                  {"sync_shift_ns", summary.offsets[i].syncShiftNs},
                                  {"sync_point", summary.offsets[i].syncPoint},
                                  {"offset_ns", summary.offsets[i].offsetNs},
                                  {"gpu_activity", summary.offsets[i].gpuActivity},
                                  {"skipped_rows", summary.offsets[i].skippedRows},
                                  {"repaired_text", summary.offsets[i].repairedText}});
    }
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
