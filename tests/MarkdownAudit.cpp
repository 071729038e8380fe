#include "tests/MarkdownAudit.h"

#include "tests/TestSupport.h"

#include <sstream>

namespace markdownaudit {

std::vector<std::string> cellsOf(const std::string& line) {
    // Cells between unescaped '|' (escapeMarkdown writes a '|' of a name as "\|").
    std::vector<std::string> cells;
    std::string cell;
    for (std::size_t i = 1; i < line.size(); ++i) {
        if (line[i] == '\\' && i + 1 < line.size()) {
            cell += line.substr(i, 2);
            ++i;
        } else if (line[i] == '|') {
            cells.push_back(cell);
            cell.clear();
        } else {
            cell += line[i];
        }
    }
    for (auto& c : cells) {
        auto b = c.find_first_not_of(' '), e = c.find_last_not_of(' ');
        c = b == std::string::npos ? "" : c.substr(b, e - b + 1);
    }
    return cells;
}

const std::regex& nonFinite() {
    static const std::regex word(R"((^|[^A-Za-z0-9_])-?(nan|inf|NaN|Infinity)([^A-Za-z0-9_]|$))");
    return word;
}

namespace {

bool endsWith(const std::string& s, const std::string& end) {
    return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

// The kind of a suspicious table cell, "" for a plain one.
std::string kindOf(const std::string& cell, bool dashes) {
    if (cell.empty()) return "(empty cell)";
    if (cell.find("n/a") != std::string::npos) return "n/a";
    if (std::regex_search(cell, nonFinite())) return "non-finite";
    if (dashes && (cell == "-" || cell.rfind("- -> ", 0) == 0 || endsWith(cell, " -> -"))) return "-";
    return "";
}

} // namespace

std::vector<Finding> suspicious(const std::string& markdown, bool dashes) {
    std::vector<Finding> out;
    std::istringstream in(testsupport::plainSpaces(markdown));
    std::string line, section, chapter;
    std::vector<std::string> header;
    bool inTable = false, pastSeparator = false;
    std::size_t number = 0, dataRow = 0;
    while (std::getline(in, line)) {
        ++number;
        if (line.rfind('#', 0) == 0) section = line.substr(line.find_first_not_of("# "));
        if (line.rfind("## ", 0) == 0) chapter = section;
        if (line.rfind('|', 0) != 0) {
            inTable = pastSeparator = false;
            std::smatch token;
            if (line.find("n/a") != std::string::npos)
                out.push_back({section, "", line, 0, "n/a", number, chapter, 0, "n/a"});
            else if (std::regex_search(line, token, nonFinite()))
                out.push_back({section, "", line, 0, token[2].str(), number, chapter, 0, "non-finite"});
            continue;
        }
        auto cells = cellsOf(line);
        if (!inTable) {
            header = cells;
            inTable = true;
            dataRow = 0;
            continue;
        }
        if (!pastSeparator) {
            pastSeparator = true; // |---|---:|
            continue;
        }
        for (std::size_t c = 0; c < cells.size(); ++c) {
            auto kind = kindOf(cells[c], dashes);
            if (!kind.empty())
                out.push_back({section, c < header.size() ? header[c] : "?", cells[0], dataRow,
                               cells[c].empty() ? "(empty cell)" : cells[c], number, chapter, c, kind});
        }
        ++dataRow;
    }
    return out;
}

const json& field(const json& j, const char* key) {
    static const json none;
    if (!j.is_object()) return none;
    auto it = j.find(key);
    return it == j.end() ? none : *it;
}

const json& entryWith(const json& list, const char* key, const json& value) {
    static const json none;
    if (list.is_array())
        for (const auto& e : list)
            if (field(e, key) == value) return e;
    return none;
}

bool isZero(const json& v) {
    return v.is_number() && v.get<double>() == 0;
}

bool noUsefulWork(const json& level) {
    return level.is_object() &&
           isZero(field(field(field(level, "efficiency"), "nccl_as_communication"), "useful_max_ns"));
}

bool noteStarting(const json& report, const std::string& start) {
    for (const auto& n : field(report, "notes"))
        if (n.is_string() && n.get<std::string>().rfind(start, 0) == 0) return true;
    return false;
}

} // namespace markdownaudit
