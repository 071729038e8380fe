#include "reports/model/ReportIo.h"

#include "reports/DeviceLabel.h"
#include "reports/ReportSchema.h"

namespace gpueff::reports::model {

const Device* Report::device(const std::string& id) const {
    for (const auto& d : devices)
        if (d.id == id) return &d;
    return nullptr;
}

std::string Report::deviceLabel(const std::string& id) const {
    const Device* d = device(id);
    if (!d) return id;
    // Reports from before labels: built from the 1-based task and the gpu as gpueff labels them now.
    return d->label && !d->label->empty() ? *d->label : reports::deviceLabel(d->task - 1, d->gpu);
}

nlohmann::json writeReport(const Report& report) {
    return toJson(report);
}

Report readReport(const nlohmann::json& document, const std::string& label) {
    validateReport(document, label);
    Report report;
    try {
        fromJson(document, report, "");
    } catch (const Error& e) {
        throw Error(label + ": " + e.what());
    }
    return report;
}

} // namespace gpueff::reports::model
