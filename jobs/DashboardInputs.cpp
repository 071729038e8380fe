#include "jobs/DashboardInputs.h"

#include "engine/common/Error.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

namespace gpueff::jobs {

namespace {

namespace fs = std::filesystem;
using reports::dashboard::RunAttributes;

bool isDashboardInput(const fs::path& p) {
    auto name = p.filename().string();
    return name == "report.json" || name == "compare.json";
}

// Below `dir`, sorted; hidden directories (.git, gpueff's .gpueff-staging-*) are not entered.
std::vector<fs::path> searchDirectory(const fs::path& dir) {
    std::vector<fs::path> found;
    std::error_code ec;
    fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
    if (ec) throw Error(dir.string() + ": cannot read the directory: " + ec.message());
    for (; it != end; it.increment(ec)) {
        if (ec) throw Error(dir.string() + ": cannot read the directory: " + ec.message());
        auto name = it->path().filename().string();
        if (it->is_directory(ec) && !name.empty() && name[0] == '.') {
            it.disable_recursion_pending();
            continue;
        }
        if (it->is_regular_file(ec) && isDashboardInput(it->path())) found.push_back(it->path());
    }
    std::sort(found.begin(), found.end());
    return found;
}

std::string readText(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw Error(file.string() + ": cannot open the runs file");
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// gpus: a positive count, as a number or a decimal text.
std::int64_t gpuCount(const std::string& text, const std::string& where) {
    std::size_t used = 0;
    long long v = 0;
    try {
        v = std::stoll(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || text.empty() || v <= 0)
        throw Error(where + ": gpus \"" + text + "\" is not a positive count");
    return v;
}

void setAttribute(RunAttributes& a, const std::string& key, const std::string& value,
                  const std::string& where) {
    if (key == "label")
        a.label = value;
    else if (key == "commit")
        a.commit = value;
    else if (key == "date")
        a.date = value;
    else if (key == "branch")
        a.branch = value;
    else if (key == "gpus")
        a.gpus = gpuCount(value, where);
    else
        a.tags[key] = value;
}

std::string scalarText(const nlohmann::json& v, const std::string& where) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
    if (v.is_number() || v.is_boolean()) return v.dump();
    throw Error(where + ": a text or a number was expected, not " + std::string(v.type_name()));
}

std::map<std::string, RunAttributes> readRunsJson(const fs::path& file, const std::string& text) {
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw Error(file.string() + ": not JSON: " + e.what());
    }
    const auto& list = doc.is_object() && doc.contains("runs") ? doc["runs"] : doc;
    if (!list.is_array()) throw Error(file.string() + ": expected {\"runs\": [...]} or an array of runs");
    std::map<std::string, RunAttributes> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const auto& entry = list[i];
        auto where = file.string() + ": runs[" + std::to_string(i) + "]";
        if (!entry.is_object() || !entry.contains("run") || !entry["run"].is_string() ||
            entry["run"].get_ref<const std::string&>().empty())
            throw Error(where +
                        ": an object with \"run\" (a report.json, its directory or a label) was expected");
        RunAttributes a;
        for (const auto& [key, value] : entry.items()) {
            if (key == "run") continue;
            if (key == "tags") {
                if (!value.is_object())
                    throw Error(where + ".tags: an object of tag names and values was expected");
                for (const auto& [tag, v] : value.items())
                    a.tags[tag] = scalarText(v, where + ".tags." + tag);
                continue;
            }
            if (!value.is_null())
                setAttribute(a, key, scalarText(value, where + "." + key), where + "." + key);
        }
        if (!out.emplace(entry["run"].get<std::string>(), std::move(a)).second)
            throw Error(where + ": run \"" + entry["run"].get<std::string>() + "\" is listed twice");
    }
    return out;
}

// One CSV record from `text` at `pos` (RFC 4180: quoted fields may hold commas, quotes doubled, newlines).
std::vector<std::string> csvRecord(const std::string& text, std::size_t& pos, std::size_t& line,
                                   const std::string& file) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (; pos < text.size(); ++pos) {
        char c = text[pos];
        if (quoted) {
            if (c == '"' && pos + 1 < text.size() && text[pos + 1] == '"')
                fields.back() += '"', ++pos;
            else if (c == '"')
                quoted = false;
            else
                fields.back() += c, line += c == '\n';
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && pos + 1 < text.size() && text[pos + 1] == '\n') ++pos;
            ++pos;
            ++line;
            return fields;
        } else {
            fields.back() += c;
        }
    }
    if (quoted) throw Error(file + ": line " + std::to_string(line) + ": a quoted field is not closed");
    return fields;
}

std::map<std::string, RunAttributes> readRunsCsv(const fs::path& file, const std::string& text) {
    std::size_t pos = 0, line = 1;
    auto header = csvRecord(text, pos, line, file.string());
    auto run = std::find(header.begin(), header.end(), "run");
    if (run == header.end())
        throw Error(file.string() +
                    ": line 1: the header has no \"run\" column (a report.json, its directory or a label)");
    std::map<std::string, RunAttributes> out;
    while (pos < text.size()) {
        auto at = line;
        auto fields = csvRecord(text, pos, line, file.string());
        if (fields.size() == 1 && fields[0].empty()) continue; // a blank line
        auto where = file.string() + ": line " + std::to_string(at);
        if (fields.size() != header.size())
            throw Error(where + ": " + std::to_string(fields.size()) + " fields for " +
                        std::to_string(header.size()) + " columns");
        RunAttributes a;
        std::string key;
        for (std::size_t i = 0; i < header.size(); ++i) {
            if (header[i] == "run")
                key = fields[i];
            else if (!fields[i].empty())
                setAttribute(a, header[i], fields[i], where + ": " + header[i]);
        }
        if (key.empty()) throw Error(where + ": the run is empty");
        if (!out.emplace(key, std::move(a)).second)
            throw Error(where + ": run \"" + key + "\" is listed twice");
    }
    return out;
}

} // namespace

std::vector<FoundInput> findDashboardInputs(const std::vector<std::string>& inputs) {
    std::vector<FoundInput> out;
    for (const auto& input : inputs) {
        fs::path p(input);
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            if (fs::is_regular_file(p / "report.json", ec)) {
                out.push_back({p / "report.json", input});
                continue;
            }
            auto found = searchDirectory(p);
            if (found.empty()) throw Error(input + ": no report.json or compare.json below this directory");
            for (auto& f : found) out.push_back({std::move(f), input});
        } else if (fs::is_regular_file(p, ec)) {
            out.push_back({p, input});
        } else {
            throw Error(input + ": no such file or directory");
        }
    }
    return out;
}

std::map<std::string, RunAttributes> readRunsFile(const fs::path& file) {
    auto text = readText(file);
    auto ext = file.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext != ".csv" && ext != ".json") throw Error(file.string() + ": a runs file is .json or .csv");
    return parseRunsFile(text, file.string(), ext == ".csv");
}

std::map<std::string, RunAttributes> parseRunsFile(const std::string& text, const std::string& file,
                                                   bool csv) {
    return csv ? readRunsCsv(file, text) : readRunsJson(file, text);
}

} // namespace gpueff::jobs
