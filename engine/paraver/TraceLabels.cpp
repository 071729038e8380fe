#include "engine/paraver/TraceLabels.h"

#include "engine/common/Error.h"
#include "engine/common/Text.h"

#include <charconv>
#include <fstream>
#include <sstream>

namespace gpueff::paraver {

namespace {

template <typename T>
bool parseNumber(const std::string& s, T& out) {
    auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc();
}

// "<first> <rest...>": the first whitespace-separated token and the remainder, trimmed.
bool split(const std::string& line, std::string& first, std::string& rest) {
    auto t = trim(line);
    auto sp = t.find_first_of(" \t");
    if (sp == std::string::npos) {
        first = t;
        rest.clear();
        return !t.empty();
    }
    first = t.substr(0, sp);
    rest = trim(t.substr(sp));
    return true;
}

} // namespace

std::vector<std::uint32_t> TraceLabels::typesLabelled(const std::string& label) const {
    std::vector<std::uint32_t> out;
    for (const auto& [type, name] : eventTypes)
        if (name == label) out.push_back(type);
    return out;
}

std::string TraceLabels::rowName(const std::string& level, std::size_t index) const {
    auto it = rows.find(level);
    if (it == rows.end() || index >= it->second.size()) return "";
    return it->second[index];
}

void readPcf(const std::filesystem::path& path, TraceLabels& labels) {
    std::ifstream in(path);
    if (!in) return;
    enum class Section { Other, States, EventType, Values } section = Section::Other;
    std::vector<std::uint32_t> currentTypes; // an EVENT_TYPE block may declare several types sharing values
    std::string line;
    std::size_t lineNumber = 0;
    auto fail = [&](const std::string& why) {
        throw Error(path.string() + ":" + std::to_string(lineNumber) + ": " + why + ": " +
                    line.substr(0, 120));
    };
    while (std::getline(in, line)) {
        ++lineNumber;
        auto t = trim(line);
        if (t.empty()) continue;
        if (t == "STATES") {
            section = Section::States;
            continue;
        }
        if (t == "EVENT_TYPE") {
            section = Section::EventType;
            currentTypes.clear();
            continue;
        }
        if (t == "VALUES") {
            section = Section::Values;
            continue;
        }
        if (t == "STATES_COLOR" || t == "GRADIENT_COLOR" || t == "GRADIENT_NAMES" || t == "DEFAULT_OPTIONS" ||
            t == "DEFAULT_SEMANTIC") {
            section = Section::Other;
            continue;
        }
        std::string first, rest;
        split(t, first, rest);
        switch (section) {
        case Section::States: {
            std::uint32_t state = 0;
            if (!parseNumber(first, state)) fail("bad STATES line");
            labels.states[state] = rest;
            break;
        }
        case Section::EventType: {
            // "<gradient> <type> <label>"
            std::string typeText, label;
            split(rest, typeText, label);
            std::uint32_t type = 0;
            if (!parseNumber(typeText, type)) fail("bad EVENT_TYPE line");
            labels.eventTypes[type] = label;
            currentTypes.push_back(type);
            break;
        }
        case Section::Values: {
            std::int64_t value = 0;
            if (!parseNumber(first, value)) {
                section = Section::Other; // e.g. a PRECISION line or an unknown section header
                break;
            }
            for (auto type : currentTypes) labels.eventValues[type][value] = rest;
            break;
        }
        case Section::Other:
            break;
        }
    }
}

void readRow(const std::filesystem::path& path, TraceLabels& labels,
             const std::map<std::string, std::size_t>& expected) {
    std::ifstream in(path);
    if (!in) return;
    std::string line;
    std::size_t lineNumber = 0;
    std::vector<std::string>* current = nullptr;
    std::size_t remaining = 0;
    while (std::getline(in, line)) {
        ++lineNumber;
        auto t = trim(line);
        if (remaining > 0) {
            current->push_back(t);
            --remaining;
            continue;
        }
        if (t.empty()) continue;
        std::istringstream words(t);
        std::string keyword, level, sizeWord;
        std::size_t size = 0;
        if (!(words >> keyword >> level >> sizeWord >> size) || keyword != "LEVEL" || sizeWord != "SIZE")
            throw Error(path.string() + ":" + std::to_string(lineNumber) +
                        ": expected 'LEVEL <name> SIZE <n>': " + t.substr(0, 120));
        auto want = expected.find(level);
        if (want != expected.end() && want->second != size)
            throw Error(path.string() + ":" + std::to_string(lineNumber) + ": " + level + " has " +
                        std::to_string(size) + " names but the trace has " + std::to_string(want->second) +
                        ": the .row file belongs to another trace");
        current = &labels.rows[level];
        current->clear();
        remaining = size;
    }
    if (remaining > 0)
        throw Error(path.string() + ": truncated: " + std::to_string(remaining) + " names missing");
}

} // namespace gpueff::paraver
