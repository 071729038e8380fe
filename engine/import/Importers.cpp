#include "engine/import/Importers.h"

#include "engine/common/Error.h"
#include "engine/common/GzipStream.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace gpueff::import {

namespace fs = std::filesystem;

namespace {

bool sniffSqlite(std::string_view head) {
    static constexpr std::string_view magic{"SQLite format 3\0", 16};
    return head.substr(0, magic.size()) == magic;
}

bool sniffParaver(std::string_view head) {
    return head.substr(0, 8) == "#Paraver";
}

// A JSON document (object or array after white space).
bool looksLikeJson(std::string_view head) {
    auto first = head.find_first_not_of(" \n\r\t");
    return first != std::string_view::npos && (head[first] == '{' || head[first] == '[');
}

bool sniffKineto(std::string_view head) {
    return looksLikeJson(head) && head.find("\"traceEvents\"") != std::string_view::npos;
}

// nsys' container is proprietary: known by its name alone.
bool sniffNothing(std::string_view) {
    return false;
}

bool hasSuffix(const fs::path& path, const Importer& importer) {
    std::string name = path.filename().string();
    for (auto s : importer.suffixes)
        if (name.size() > s.size() && name.ends_with(s)) return true;
    return false;
}

bool onPath(const char* program) {
    const char* path = std::getenv("PATH");
    if (!path) return false;
    std::string p = path;
    std::size_t start = 0;
    while (start <= p.size()) {
        auto colon = p.find(':', start);
        auto dir = p.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        if (!dir.empty() && ::access((fs::path(dir) / program).c_str(), X_OK) == 0) return true;
        if (colon == std::string::npos) break;
        start = colon + 1;
    }
    return false;
}

} // namespace

const std::vector<Importer>& importers() {
    static const std::vector<Importer> rows = {
        {InputFormat::NsysExport, "nsys", "an Nsight Systems SQLite export", {".sqlite"}, sniffSqlite},
        {InputFormat::NsysReport, "nsys-rep", "an Nsight Systems report", {".nsys-rep"}, sniffNothing},
        {InputFormat::KinetoTrace,
         "kineto",
         "a PyTorch profiler (Kineto) trace",
         {".json", ".json.gz"},
         sniffKineto},
        {InputFormat::ParaverTrace, "paraver", "a Paraver trace", {".prv", ".prv.gz"}, sniffParaver},
    };
    return rows;
}

namespace {

// What a file's first bytes say: the content read (decompressed when it is gzip, through GzipStream, the
// reader the importers use) and whether it is a JSON document. The first block decides every format but JSON,
// whose "traceEvents" follows the metadata: blocks are read until it is seen or kSniffBytes are, so a Kineto
// trace costs one or two blocks, not a MiB. Empty when the file cannot be opened; what could be read when it
// is damaged (its importer reports the damage).
struct Head {
    std::string text;
    bool json = false;
};

Head readHead(const fs::path& path) {
    constexpr std::size_t kBlock = 1 << 16;
    Head head;
    try {
        GzipStream file(path);
        char block[kBlock];
        while (head.text.size() < kSniffBytes) {
            auto n = file.read(block, std::min(kBlock, kSniffBytes - head.text.size()));
            if (n == 0) break;
            // "traceEvents" may straddle two blocks: the new block is searched with the end of the last.
            std::size_t from = head.text.size() < 16 ? 0 : head.text.size() - 16;
            head.text.append(block, n);
            head.json = looksLikeJson(head.text);
            if (!head.json || head.text.find("\"traceEvents\"", from) != std::string::npos) break;
        }
    } catch (const Error&) {
    }
    return head;
}

// The importer the content names, or else the one the name does; a JSON document is named by its content
// alone.
struct Sniffed {
    const Importer* importer = nullptr;
    bool json = false;
};

Sniffed sniff(const fs::path& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) return {};
    auto head = readHead(path);
    for (const auto& importer : importers())
        if (importer.sniff(head.text)) return {&importer, head.json};
    if (head.json) return {nullptr, true};
    for (const auto& importer : importers())
        if (hasSuffix(path, importer)) return {&importer, false};
    return {};
}

} // namespace

const Importer* sniffInput(const fs::path& path) {
    return sniff(path).importer;
}

const Importer& importerOf(const fs::path& path) {
    auto sniffed = sniff(path);
    if (sniffed.importer) return *sniffed.importer;
    if (sniffed.json)
        throw Error(path.string() + ": not a PyTorch profiler (Kineto) trace: a JSON document without a "
                                    "\"traceEvents\" key in its first MiB");
    std::string known;
    for (const auto& importer : importers()) {
        known += known.empty() ? "" : "; ";
        known += importer.what;
        for (auto s : importer.suffixes) known += " " + std::string(s);
    }
    throw Error(path.string() + ": not an input gpueff reads (" + known + ")");
}

// A .nsys-rep is NVIDIA's proprietary container: only nsys itself can turn it into the SQLite we read.
fs::path exportedInput(const fs::path& input) {
    if (input.extension() != ".nsys-rep") return input;
    auto sqlite = input;
    sqlite.replace_extension(".sqlite");
    if (fs::exists(sqlite)) return sqlite;
    if (!onPath("nsys"))
        throw Error(input.string() +
                    ": a .nsys-rep report must be exported to SQLite first: run `nsys export "
                    "--type sqlite --output " +
                    sqlite.string() + " " + input.string() + "` (nsys is not on PATH)");
    std::string cmd = "nsys export --type sqlite --output '" + sqlite.string() + "' '" + input.string() + "'";
    std::fprintf(stderr, "gpueff: exporting %s with nsys\n", input.c_str());
    if (std::system(cmd.c_str()) != 0 || !fs::exists(sqlite))
        throw Error(input.string() + ": `" + cmd + "` failed");
    return sqlite;
}

} // namespace gpueff::import
