#pragma once
// Helpers shared by the tests: paths, running the gpueff binary, a deliberately simple .prv reader written
// independently of the engine's writer, and SQL queries on the source exports (the oracle).
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace testsupport {

std::filesystem::path sourceDir();
std::filesystem::path dataDir(); // the project's data/ (real traces copied from ../shared/data)
std::vector<std::filesystem::path> realExports(); // dataDir()/nsys/*.sqlite, sorted
std::filesystem::path gpueffBinary();
std::filesystem::path tempDir(const std::string& name);  // fresh, empty
std::string readText(const std::filesystem::path& path); // the whole file, bytes as they are ("" if missing)
// Markdown with the non-breaking spaces of its table cells of figures (reports/MarkdownTable.h) as plain
// spaces: for tests of what a table says, not of where it may wrap.
std::string plainSpaces(std::string markdown);
std::string quoted(const std::filesystem::path& path); // 'path', for a shell command line
// Why a report.json breaks docs/report.schema.json, through the validator compare applies to its inputs
// (reports/ReportSchema.h, "report.json: <key path>: <what>"); "" when it follows the schema.
std::string reportSchemaViolation(const nlohmann::json& report);

struct CommandResult {
    int exitCode;
    std::string output; // stdout and stderr
};
CommandResult run(const std::string& command);

struct PrvEvent {
    int cpu, appl, task, thread;
    std::int64_t time;
    std::vector<std::pair<std::uint32_t, std::int64_t>> pairs;
};
struct PrvComm {
    int sendTask, sendThread, recvTask, recvThread;
    std::int64_t logicalSend, physicalSend, logicalRecv, physicalRecv, size, tag;
};
struct PrvTrace {
    std::string header;
    std::int64_t endTime = 0;
    std::vector<int> threadsPerTask;
    std::vector<PrvEvent> events;
    std::vector<PrvComm> comms;
    std::vector<std::int64_t> lineTimes; // time of every body record in file order
};
PrvTrace readPrv(const std::filesystem::path& path);

// .pcf: event type -> value labels present
std::map<std::uint32_t, std::map<std::int64_t, std::string>> readPcfValues(const std::filesystem::path& path);
// .pcf: event type -> its label (the text after the type on its EVENT_TYPE line)
std::map<std::uint32_t, std::string> readPcfTypeLabels(const std::filesystem::path& path);
std::vector<std::string> readRowLevel(const std::filesystem::path& path, const std::string& level);
// A kernel's name from its .pcf label in a trace gpueff wrote (docs/events.md "Kernel labels"): the text
// between the first " [" and the final ']' of a label `short [full]`, the label itself otherwise (a short
// name never holds '[', a name holding one is always labelled `short [full]`).
std::string pcfKernelName(const std::string& label);
// What wxparaver heads a histogram column with when ShortHeaderLabels is on (paraver-kernel's
// LabelConstructor::transformToShort): the label without its first '[' to its last ']'.
std::string shortHeader(std::string label);

// Runs a query on an SQLite file and returns every row as strings (NULL as "").
std::vector<std::vector<std::string>> query(const std::filesystem::path& db, const std::string& sql);
std::int64_t queryInt(const std::filesystem::path& db, const std::string& sql);
// Applies `sql` (any number of statements) to an SQLite file, made when missing; throws std::runtime_error
// naming the file and SQLite's message when a statement fails (a test's own view of the file).
void execute(const std::filesystem::path& db, const std::string& sql);
// Builds an SQLite database from a .sql script (synthetic fixtures; `-- @include FILE` lines are expanded
// relative to the script), then runs `extraSql` (to make a variant), and returns its path.
std::filesystem::path buildDatabase(const std::filesystem::path& script, const std::filesystem::path& out,
                                    const std::string& extraSql = "");

} // namespace testsupport
