#include "reports/model/Schema.h"

#include "reports/model/Report.h"

#include <vector>

namespace gpueff::reports::model {

namespace {

// The keys the top level requires: Report's plain members (an Omitted one may be left out).
std::vector<std::string> requiredKeys() {
    std::vector<std::string> keys;
    Report report;
    Report::fields(report, [&keys]<class V>(const char* key, const V&) {
        if (!detail::IsOmitted<V>::value) keys.emplace_back(key);
    });
    return keys;
}

// `"required": [...]` wrapped as the rest of the file is, at 120 columns.
std::string requiredLine() {
    const std::string head = "  \"required\": [";
    std::string out = head, line = head;
    bool first = true;
    for (const auto& key : requiredKeys()) {
        std::string item = (first ? "" : ", ") + ("\"" + key + "\"");
        if (!first && line.size() + item.size() + 2 > 120) {
            out += ",\n" + std::string(head.size(), ' ');
            line = std::string(head.size(), ' ');
            item = item.substr(2);
        }
        out += item;
        line += item;
        first = false;
    }
    return out + "],\n";
}

// The members of one object, each fragment's lines indented to sit inside it, separated by commas.
std::string members(std::string_view SchemaFragment::*part) {
    std::string out;
    for (const auto& fragment : kSchemaFragments) {
        std::string_view text = fragment.*part;
        while (!text.empty() && text.front() == '\n') text.remove_prefix(1);
        while (!text.empty() && text.back() == '\n') text.remove_suffix(1);
        if (text.empty()) continue;
        if (!out.empty()) out += ",\n";
        std::size_t begin = 0;
        while (begin <= text.size()) {
            std::size_t end = text.find('\n', begin);
            if (end == std::string_view::npos) end = text.size();
            out += "    ";
            out += text.substr(begin, end - begin);
            if (end < text.size()) out += '\n';
            begin = end + 1;
        }
    }
    return out + "\n";
}

} // namespace

std::string reportSchemaText() {
    return "{\n"
           "  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n"
           "  \"$id\": \"https://gpueff.invalid/report.schema.json\",\n"
           "  \"title\": \"gpueff-report/1 (report.json of gpueff analyze)\",\n"
           "  \"description\": \"See docs/report.md. Times are integer ns of the Paraver trace; efficiencies and "
           "fractions in [0, 1]; a value that cannot be computed is absent, or null where the key is required "
           "(only where this schema allows null). Top level stays open: more keys are welcome.\",\n"
           "  \"type\": \"object\",\n" +
           requiredLine() + "  \"properties\": {\n" + members(&SchemaFragment::properties) + "  },\n" +
           "  \"$defs\": {\n" + members(&SchemaFragment::defs) + "  }\n}\n";
}

} // namespace gpueff::reports::model
