#include "tests/TestSupport.h"

#include "engine/common/Error.h"
#include "reports/ReportSchema.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <sqlite3.h>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace testsupport {

std::filesystem::path sourceDir() {
    return GPUEFF_SOURCE_DIR;
}
std::filesystem::path dataDir() {
    return sourceDir() / "data";
}
std::vector<std::filesystem::path> realExports() {
    std::vector<std::filesystem::path> out;
    for (const auto& e : std::filesystem::directory_iterator(dataDir() / "nsys"))
        if (e.path().extension() == ".sqlite") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

std::filesystem::path gpueffBinary() {
    return GPUEFF_BINARY;
}

std::filesystem::path tempDir(const std::string& name) {
    // TMPDIR is the test process's private directory (tests/main.cpp).
    auto dir = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

std::string plainSpaces(std::string markdown) {
    for (std::size_t at = 0; (at = markdown.find("\xC2\xA0", at)) != std::string::npos;)
        markdown.replace(at, 2, " ");
    return markdown;
}

std::string reportSchemaViolation(const nlohmann::json& report) {
    try {
        gpueff::reports::validateReport(report, "report.json");
    } catch (const gpueff::Error& e) {
        return e.what();
    }
    return "";
}

std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string quoted(const std::filesystem::path& path) {
    return "'" + path.string() + "'";
}

CommandResult run(const std::string& command) {
    std::string full = command + " 2>&1";
    FILE* pipe = ::popen(full.c_str(), "r");
    if (!pipe) throw std::runtime_error("popen failed: " + command);
    std::string out;
    std::array<char, 4096> buf;
    std::size_t n;
    while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
    int status = ::pclose(pipe);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

namespace {
std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::string cur;
    std::istringstream in(s);
    while (std::getline(in, cur, sep)) parts.push_back(cur);
    return parts;
}
} // namespace

PrvTrace readPrv(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    PrvTrace t;
    std::getline(in, t.header);
    // #Paraver (date):END_ns:nodes(...):1:ntasks(threads:node,...)
    auto close = t.header.find("):");
    auto rest = t.header.substr(close + 2);
    t.endTime = std::stoll(rest.substr(0, rest.find('_')));
    auto appl = rest.rfind(":1:");
    auto tasks = rest.substr(appl + 3);
    auto open = tasks.find('(');
    for (const auto& item : split(tasks.substr(open + 1, tasks.find(')') - open - 1), ','))
        t.threadsPerTask.push_back(std::stoi(item.substr(0, item.find(':'))));
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        auto f = split(line, ':');
        if (f[0] == "2") {
            PrvEvent e{std::stoi(f[1]), std::stoi(f[2]),  std::stoi(f[3]),
                       std::stoi(f[4]), std::stoll(f[5]), {}};
            for (std::size_t i = 6; i + 1 < f.size(); i += 2)
                e.pairs.emplace_back(static_cast<std::uint32_t>(std::stoul(f[i])), std::stoll(f[i + 1]));
            t.lineTimes.push_back(e.time);
            t.events.push_back(std::move(e));
        } else if (f[0] == "3") {
            PrvComm c{std::stoi(f[3]),   std::stoi(f[4]),  std::stoi(f[9]),   std::stoi(f[10]),
                      std::stoll(f[5]),  std::stoll(f[6]), std::stoll(f[11]), std::stoll(f[12]),
                      std::stoll(f[13]), std::stoll(f[14])};
            t.lineTimes.push_back(c.logicalSend);
            t.comms.push_back(c);
        } else {
            throw std::runtime_error("unexpected record: " + line);
        }
    }
    return t;
}

std::map<std::uint32_t, std::string> readPcfTypeLabels(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::map<std::uint32_t, std::string> out;
    std::string line;
    while (std::getline(in, line)) {
        if (line != "EVENT_TYPE") continue;
        while (std::getline(in, line) && !line.empty() && line != "VALUES") {
            std::istringstream ls(line);
            int color;
            std::uint32_t type;
            ls >> color >> type;
            std::string label;
            std::getline(ls, label);
            label.erase(0, label.find_first_not_of(" \t"));
            out[type] = label;
        }
    }
    return out;
}

std::map<std::uint32_t, std::map<std::int64_t, std::string>>
readPcfValues(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::map<std::uint32_t, std::map<std::int64_t, std::string>> out;
    std::string line;
    std::vector<std::uint32_t> current;
    bool inValues = false;
    while (std::getline(in, line)) {
        if (line == "EVENT_TYPE") {
            current.clear();
            inValues = false;
            while (std::getline(in, line) && !line.empty() && line != "VALUES") {
                std::istringstream ls(line);
                int color;
                std::uint32_t type;
                ls >> color >> type;
                current.push_back(type);
                out[type];
            }
            inValues = line == "VALUES";
        } else if (line == "VALUES") {
            inValues = true;
        } else if (inValues && !line.empty()) {
            std::istringstream ls(line);
            std::int64_t v;
            ls >> v;
            std::string label;
            std::getline(ls, label);
            label.erase(0, label.find_first_not_of(" \t"));
            for (auto t : current) out[t][v] = label;
        } else if (line.empty()) {
            inValues = false;
        }
    }
    return out;
}

std::vector<std::string> readRowLevel(const std::filesystem::path& path, const std::string& level) {
    std::ifstream in(path);
    std::string line;
    std::vector<std::string> names;
    while (std::getline(in, line)) {
        if (line.rfind("LEVEL " + level + " SIZE ", 0) == 0) {
            int n = std::stoi(line.substr(line.rfind(' ') + 1));
            for (int i = 0; i < n && std::getline(in, line); ++i) names.push_back(line);
        }
    }
    return names;
}

std::vector<std::vector<std::string>> query(const std::filesystem::path& db, const std::string& sql) {
    sqlite3* h = nullptr;
    if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
        throw std::runtime_error("cannot open " + db.string());
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
        std::string msg = sqlite3_errmsg(h);
        sqlite3_close(h);
        throw std::runtime_error("query failed: " + msg + ": " + sql);
    }
    std::vector<std::vector<std::string>> rows;
    while (sqlite3_step(st) == SQLITE_ROW) {
        std::vector<std::string> row;
        for (int i = 0; i < sqlite3_column_count(st); ++i) {
            auto* p = sqlite3_column_text(st, i);
            row.emplace_back(p ? reinterpret_cast<const char*>(p) : "");
        }
        rows.push_back(std::move(row));
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    return rows;
}

std::int64_t queryInt(const std::filesystem::path& db, const std::string& sql) {
    auto rows = query(db, sql);
    if (rows.empty() || rows[0].empty() || rows[0][0].empty()) return 0;
    return std::stoll(rows[0][0]);
}

namespace {
// The fixture's SQL with every `-- @include FILE` line (relative to the script) replaced by that file's SQL.
std::string expandIncludes(const std::filesystem::path& script, int depth = 0) {
    std::ifstream in(script);
    if (!in || depth > 8) throw std::runtime_error("cannot read " + script.string());
    std::string out, line;
    const std::string directive = "-- @include ";
    while (std::getline(in, line)) {
        if (line.rfind(directive, 0) == 0)
            out += expandIncludes(script.parent_path() / line.substr(directive.size()), depth + 1);
        else
            out += line + "\n";
    }
    return out;
}
} // namespace

void execute(const std::filesystem::path& db, const std::string& sql) {
    sqlite3* h = nullptr;
    if (sqlite3_open(db.c_str(), &h) != SQLITE_OK) {
        std::string msg = h ? sqlite3_errmsg(h) : "out of memory";
        sqlite3_close(h);
        throw std::runtime_error(db.string() + ": " + msg);
    }
    char* err = nullptr;
    int rc = sqlite3_exec(h, sql.c_str(), nullptr, nullptr, &err);
    std::string msg = err ? err : "?";
    sqlite3_free(err);
    sqlite3_close(h);
    if (rc != SQLITE_OK) throw std::runtime_error(db.string() + ": " + msg);
}

std::filesystem::path buildDatabase(const std::filesystem::path& script, const std::filesystem::path& out,
                                    const std::string& extraSql) {
    std::stringstream sql;
    sql << expandIncludes(script) << "\n" << extraSql << "\n";
    std::filesystem::remove(out);
    try {
        execute(out, sql.str());
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(script.string() + ": " + e.what());
    }
    return out;
}

std::string pcfKernelName(const std::string& label) {
    auto open = label.find(" [");
    if (open == std::string::npos || label.empty() || label.back() != ']') return label;
    return label.substr(open + 2, label.size() - open - 3);
}

std::string shortHeader(std::string label) {
    auto begin = label.find('['), end = label.rfind(']');
    if (begin != std::string::npos && end != std::string::npos) label.erase(begin, end - begin + 1);
    return label;
}

} // namespace testsupport
