#pragma once
#include "engine/paraver/ValueLabels.h"

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gpueff::paraver {

// What the .pcf and .row files say about a trace: state names, event type and value names, and the names
// of the objects at each level. Both files are optional for Paraver; a missing file gives empty labels.
struct TraceLabels {
    std::map<std::uint32_t, std::string> states;
    std::map<std::uint32_t, std::string> eventTypes;
    std::map<std::uint32_t, ValueLabels> eventValues;     // sealed (ValueLabels::seal) once read
    std::map<std::string, std::vector<std::string>> rows; // "THREAD", "TASK", "CPU", "NODE", ... -> names

    // Types whose label is `label` (a cfg's evt_type_label); a '*' in it matches any characters, as in
    // Paraver.
    std::vector<std::uint32_t> typesLabelled(const std::string& label) const;
    // The row name of object `index` (0-based) at `level`, or "" when the .row file has none.
    std::string rowName(const std::string& level, std::size_t index) const;
};

// Reads NAME.pcf (may be absent). Errors name the file and line: a STATES or EVENT_TYPE line whose number is
// not a whole number in range. Labels are made valid UTF-8 here (invalid bytes become U+FFFD), so every
// writer downstream (JSON, Markdown, terminals) can take them as they are.
void readPcf(const std::filesystem::path& path, TraceLabels& labels);
void readPcf(std::istream& in, const std::string& name, TraceLabels& labels);
// readPcf a line at a time, for text that is written rather than stored (pipeline::forEachLabelLine): the
// labels are complete once finish() has returned.
class PcfReader {
public:
    PcfReader(std::string name, TraceLabels& labels);
    void line(std::string_view line); // without its '\n'
    void skip() { ++lineNumber_; }    // a line not given to the reader, counted so errors name the right one
    void finish();

private:
    [[noreturn]] void fail(const std::string& why, std::string_view line) const;
    enum class Section { Other, States, EventType, Values } section_ = Section::Other;
    std::string name_;
    TraceLabels& labels_;
    std::vector<std::uint32_t> currentTypes_; // an EVENT_TYPE block may declare several types sharing values
    std::size_t lineNumber_ = 0;
};
// Reads NAME.row (may be absent). A level whose SIZE disagrees with `expected` (level -> count; levels not in
// the map are not checked) is an error: the .row belongs to another trace. So is a SIZE that is not a
// number in [0, kMaxObjects], or fewer names than it says. Names are made valid UTF-8 as in readPcf.
void readRow(const std::filesystem::path& path, TraceLabels& labels,
             const std::map<std::string, std::size_t>& expected);
void readRow(std::istream& in, const std::string& name, TraceLabels& labels,
             const std::map<std::string, std::size_t>& expected);

} // namespace gpueff::paraver
