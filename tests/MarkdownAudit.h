#pragma once
// Finding every "n/a", non-finite number and empty table cell of a rendered Markdown report (report.md,
// compare.md), and small tolerant readers of the JSON documents whose data must justify each one. Shared by
// test_report_completeness.cpp and test_compare_completeness.cpp.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

namespace markdownaudit {

using nlohmann::json;

// One suspicious text of a Markdown report: where it is and what.
struct Finding {
    std::string section;         // the nearest heading above, without its #s
    std::string column;          // the table column's header, "" outside a table
    std::string row;             // the table row's first cell, or the whole line outside a table
    std::size_t rowIndex = 0;    // 0-based data row of its table
    std::string text;            // the suspicious cell or token
    std::size_t line = 0;        // 1-based line of the report
    std::string chapter;         // the nearest level-2 heading above ("## "), without its #s
    std::size_t columnIndex = 0; // 0-based column of the cell in its table
    std::string kind;            // "n/a", "non-finite", "(empty cell)" or "-" (a placeholder, see below)
};

// The cells of a table line, between unescaped '|', trimmed.
std::vector<std::string> cellsOf(const std::string& line);

// A non-finite number as printf or a JSON library would write it, as a word of its own.
const std::regex& nonFinite();

// Every "n/a", non-finite number and empty table cell of a Markdown report. With `dashes`, also every table
// cell that is a placeholder "-" or a pair "a -> b" with a side "-" (compare's "no such row in this run").
std::vector<Finding> suspicious(const std::string& markdown, bool dashes = false);

// The member `key` of `j`, or null when `j` is not an object holding it (the conditions read documents that
// may lack what they look for: a missing key makes a condition false, never an exception).
const json& field(const json& j, const char* key);

// The entry of `list` whose `key` is `value`, or null.
const json& entryWith(const json& list, const char* key, const json& value);

bool isZero(const json& v);

// A phase's or an iteration's efficiency figures are undefined when none of its devices did useful work
// (load balance = sum U / (n max U) = 0/0).
bool noUsefulWork(const json& level);

// Whether one of report.json's "notes" starts with `start`.
bool noteStarting(const json& report, const std::string& start);

} // namespace markdownaudit
