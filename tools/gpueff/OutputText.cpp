#include "engine/common/Error.h"
#include "tools/gpueff/Commands.h"

#include <fstream>

namespace gpueff::cli {

void writeTextFile(const std::filesystem::path& temporary, const std::filesystem::path& final,
                   const std::string& text) {
    std::ofstream out(temporary, std::ios::binary);
    out << text;
    out.close();
    if (!out) throw Error(final.string() + ": write failed (disk full?)");
}

CLI::Validator fileNameValidator() {
    return CLI::Validator(
        [](std::string& name) -> std::string {
            if (name.empty()) return "must not be empty";
            if (name.find('/') != std::string::npos)
                return "must be a file name without '/', got '" + name + "'";
            if (name == "." || name == "..") return "must be a file name, got '" + name + "'";
            return "";
        },
        "NAME");
}

} // namespace gpueff::cli
