#include "engine/nsys/Distribution.h"

#include <algorithm>
#include <string_view>

namespace gpueff::nsys {

void collectCatalogFacts(const paraver::EventCatalog& catalog, const std::vector<std::size_t>& reports,
                         PartFacts& facts) {
    auto own = [&reports](std::uint32_t from) {
        return from != 0 && from != paraver::EventCatalog::kNoWriter &&
               std::find(reports.begin(), reports.end(), std::size_t{from} - 1) != reports.end();
    };
    for (const auto& [type, info] : catalog.types()) {
        if (info.used) facts.usedTypes.push_back(type);
        if (own(info.labelFrom)) facts.typeLabels.push_back({type, info.labelFrom, info.label});
        for (const auto& [value, from] : info.fixedFrom)
            if (own(from)) facts.valueLabels.push_back({type, from, value, info.fixed.at(value)});
    }
}

NameFacts collectNameFacts(const paraver::EventCatalog& catalog) {
    std::map<const NameDictionary*, NameFacts::Family> byFamily;
    for (const auto& [type, info] : catalog.types())
        if (info.names) byFamily[info.names].types.push_back(type);
    NameFacts facts;
    for (auto& entry : byFamily) {
        const NameDictionary* names = entry.first;
        auto& family = entry.second; // not a structured binding: clang 14 cannot capture those
        if (names->empty()) continue;
        family.names.reserve(names->size());
        names->forEachByValue(
            [&family](std::int64_t, std::string_view name) { family.names.emplace_back(name); });
        facts.families.push_back(std::move(family));
    }
    return facts;
}

void applyNameFacts(const NameFacts& facts, paraver::EventCatalog& catalog) {
    for (const auto& family : facts.families) {
        auto first = family.types.front();
        for (std::size_t i = 1; i < family.types.size(); ++i) catalog.joinFamily(family.types[i], first);
        auto& names = catalog.names(first);
        for (const auto& name : family.names) names.valueOf(name);
    }
}

void applyPartFacts(const PartFacts& facts, paraver::EventCatalog& catalog, TranslateSummary& summary) {
    for (const auto& [kind, n] : facts.recordsByKind) summary.recordsByKind[kind] += n;
    for (const auto& r : facts.reports) {
        auto& offset = summary.offsets.at(r.index);
        offset.skippedRows = r.skippedRows;
        offset.repairedText = r.repairedText;
    }
    for (const auto& t : facts.typeLabels) catalog.declare(t.type, t.label, t.from);
    for (const auto& v : facts.valueLabels) catalog.labelValue(v.type, v.value, v.label, v.from);
    for (auto type : facts.usedTypes) catalog.markUsed(type);
}

} // namespace gpueff::nsys
