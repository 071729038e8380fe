#include "engine/nsys/ReportExport.h"

#include "engine/common/Error.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace gpueff::nsys {

namespace {

bool onPath(const char* program) {
    const char* path = std::getenv("PATH");
    if (!path) return false;
    std::string p = path;
    std::size_t start = 0;
    while (start <= p.size()) {
        auto colon = p.find(':', start);
        auto dir = p.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        if (!dir.empty() && ::access((std::filesystem::path(dir) / program).c_str(), X_OK) == 0) return true;
        if (colon == std::string::npos) break;
        start = colon + 1;
    }
    return false;
}

} // namespace

// A .nsys-rep is NVIDIA's proprietary container: only nsys itself can turn it into the SQLite we read.
std::filesystem::path exportedSqlite(const std::filesystem::path& input) {
    if (input.extension() != ".nsys-rep") return input;
    auto sqlite = input;
    sqlite.replace_extension(".sqlite");
    if (std::filesystem::exists(sqlite)) return sqlite;
    if (!onPath("nsys"))
        throw Error(input.string() +
                    ": a .nsys-rep report must be exported to SQLite first: run `nsys export "
                    "--type sqlite --output " +
                    sqlite.string() + " " + input.string() + "` (nsys is not on PATH)");
    std::string cmd = "nsys export --type sqlite --output '" + sqlite.string() + "' '" + input.string() + "'";
    std::fprintf(stderr, "gpueff: exporting %s with nsys\n", input.c_str());
    if (std::system(cmd.c_str()) != 0 || !std::filesystem::exists(sqlite))
        throw Error(input.string() + ": `" + cmd + "` failed");
    return sqlite;
}

} // namespace gpueff::nsys
