#include "engine/paraver/TraceLabels.h"

#include "engine/common/Error.h"
#include "engine/common/Text.h"
#include "engine/common/Utf8.h"
#include "engine/paraver/TraceHeader.h"

#include <charconv>
#include <fstream>
#include <istream>
#include <string_view>

namespace gpueff::paraver {

namespace {

enum class Parsed { Ok, NotANumber, OutOfRange };

// The whole of `s` as a number of type T: "12abc" and "" are not numbers, 2^64 is out of range for any T.
template <typename T>
Parsed parseNumber(std::string_view s, T& out) {
    auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    if (r.ec == std::errc::result_out_of_range) return Parsed::OutOfRange;
    if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return Parsed::NotANumber;
    return Parsed::Ok;
}

// "<first> <rest...>": the first whitespace-separated token and the remainder, trimmed.
void split(const std::string& line, std::string& first, std::string& rest) {
    auto t = trim(line);
    auto sp = t.find_first_of(" \t");
    if (sp == std::string::npos) {
        first = t;
        rest.clear();
        return;
    }
    first = t.substr(0, sp);
    rest = trim(t.substr(sp));
}

// Opens an optional label file: absent is fine (Paraver opens traces without them), a directory is not.
bool openOptional(const std::filesystem::path& path, std::ifstream& in) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return false;
    if (std::filesystem::is_directory(path, ec)) throw Error(path.string() + ": a directory, not a file");
    in.open(path, std::ios::binary);
    if (!in) throw Error(path.string() + ": cannot open");
    return true;
}

void checkRead(const std::istream& in, const std::string& name) {
    if (in.bad()) throw Error(name + ": read error");
}

} // namespace

namespace {

// Paraver's label pattern: '*' matches any run of characters, everything else itself, over the whole label
// (paraver-kernel's EventLabels::getEventType turns '*' into ".*" and escapes the rest). Greedy with one
// backtrack point: linear in practice, at worst |label| x |pattern|, never exponential.
bool matchesPattern(std::string_view text, std::string_view pattern) {
    std::size_t t = 0, p = 0, star = std::string_view::npos, resume = 0;
    while (t < text.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            resume = t;
        } else if (p < pattern.size() && pattern[p] == text[t]) {
            ++p;
            ++t;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            t = ++resume;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

} // namespace

std::vector<std::uint32_t> TraceLabels::typesLabelled(const std::string& label) const {
    std::vector<std::uint32_t> out;
    bool pattern = label.find('*') != std::string::npos;
    for (const auto& [type, name] : eventTypes)
        if (pattern ? matchesPattern(name, label) : name == label) out.push_back(type);
    return out;
}

std::string TraceLabels::rowName(const std::string& level, std::size_t index) const {
    auto it = rows.find(level);
    if (it == rows.end() || index >= it->second.size()) return "";
    return it->second[index];
}

void readPcf(const std::filesystem::path& path, TraceLabels& labels) {
    std::ifstream in;
    if (openOptional(path, in)) readPcf(in, path.string(), labels);
}

PcfReader::PcfReader(std::string name, TraceLabels& labels) : name_(std::move(name)), labels_(labels) {}

void PcfReader::fail(const std::string& why, std::string_view line) const {
    throw Error(name_ + ":" + std::to_string(lineNumber_) + ": " + why + ": " + printableExcerpt(line));
}

void PcfReader::line(std::string_view line) {
    ++lineNumber_;
    auto number = [&](const std::string& text, auto& out, const char* what) {
        auto parsed = parseNumber(text, out);
        if (parsed == Parsed::OutOfRange)
            fail(std::string(what) + " " + printableExcerpt(text, 40) + " is out of range", line);
        if (parsed == Parsed::NotANumber) fail(std::string("bad ") + what + " (not a whole number)", line);
    };
    auto t = trim(line);
    if (t.empty()) return;
    if (t == "STATES") {
        section_ = Section::States;
        return;
    }
    if (t == "EVENT_TYPE") {
        section_ = Section::EventType;
        currentTypes_.clear();
        return;
    }
    if (t == "VALUES") {
        section_ = Section::Values;
        return;
    }
    if (t == "STATES_COLOR" || t == "GRADIENT_COLOR" || t == "GRADIENT_NAMES" || t == "DEFAULT_OPTIONS" ||
        t == "DEFAULT_SEMANTIC") {
        section_ = Section::Other;
        return;
    }
    std::string first, rest;
    split(t, first, rest);
    switch (section_) {
    case Section::States: {
        std::uint32_t state = 0;
        number(first, state, "state");
        labels_.states[state] = repairUtf8(rest);
        break;
    }
    case Section::EventType: {
        // "<gradient> <type> <label>"
        std::string typeText, label;
        split(rest, typeText, label);
        std::uint32_t type = 0;
        number(typeText, type, "event type");
        labels_.eventTypes[type] = repairUtf8(label);
        currentTypes_.push_back(type);
        break;
    }
    case Section::Values: {
        std::int64_t value = 0;
        auto parsed = parseNumber(first, value);
        if (parsed == Parsed::OutOfRange)
            fail("event value " + printableExcerpt(first, 40) + " is out of range", line);
        if (parsed == Parsed::NotANumber) {
            section_ = Section::Other; // e.g. a PRECISION line or an unknown section header
            break;
        }
        auto label = repairUtf8(rest);
        for (auto type : currentTypes_) labels_.eventValues[type].set(value, label);
        break;
    }
    case Section::Other:
        break;
    }
}

void PcfReader::finish() {
    for (auto& [type, values] : labels_.eventValues) values.seal();
}

void readPcf(std::istream& in, const std::string& name, TraceLabels& labels) {
    PcfReader reader(name, labels);
    std::string line;
    while (std::getline(in, line)) reader.line(line);
    checkRead(in, name);
    reader.finish();
}

void readRow(const std::filesystem::path& path, TraceLabels& labels,
             const std::map<std::string, std::size_t>& expected) {
    std::ifstream in;
    if (openOptional(path, in)) readRow(in, path.string(), labels, expected);
}

void readRow(std::istream& in, const std::string& name, TraceLabels& labels,
             const std::map<std::string, std::size_t>& expected) {
    std::string line;
    std::size_t lineNumber = 0;
    std::vector<std::string>* current = nullptr;
    std::size_t remaining = 0;
    auto fail = [&](const std::string& why) {
        throw Error(name + ":" + std::to_string(lineNumber) + ": " + why);
    };
    while (std::getline(in, line)) {
        ++lineNumber;
        auto t = trim(line);
        if (remaining > 0) {
            current->push_back(repairUtf8(t));
            --remaining;
            continue;
        }
        if (t.empty()) continue;
        std::string keyword, level, sizeWord, sizeText, extra;
        split(t, keyword, level);
        split(level, level, sizeWord);
        split(sizeWord, sizeWord, sizeText);
        split(sizeText, sizeText, extra);
        if (keyword != "LEVEL" || sizeWord != "SIZE" || sizeText.empty() || !extra.empty())
            fail("expected 'LEVEL <name> SIZE <n>': " + printableExcerpt(t));
        // The names follow one per line, so SIZE allocates nothing by itself; it is still capped like the
        // header's counts so that a corrupt SIZE is named as such rather than as a truncated file.
        std::uint64_t size = 0;
        if (parseNumber(sizeText, size) != Parsed::Ok || size > kMaxObjects)
            fail("SIZE must be a whole number from 0 to " + std::to_string(kMaxObjects) + ", got " +
                 printableExcerpt(sizeText, 40));
        auto want = expected.find(level);
        if (want != expected.end() && want->second != size)
            fail(printableExcerpt(level, 40) + " has " + std::to_string(size) + " names but the trace has " +
                 std::to_string(want->second) + ": the .row file belongs to another trace");
        current = &labels.rows[repairUtf8(level)];
        current->clear();
        remaining = static_cast<std::size_t>(size);
    }
    checkRead(in, name);
    if (remaining > 0)
        throw Error(name + ": truncated: " + std::to_string(remaining) + " names missing at the end");
}

} // namespace gpueff::paraver
