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

} // namespace gpueff::cli
