#include "engine/paraver/RowFile.h"

#include "engine/common/Error.h"

#include <cstdio>
#include <cstring>

namespace gpueff::paraver {

void writeRowFile(std::FILE* f, const TraceLayout& layout, const std::string& applicationName) {
    auto cpuOfRow = layout.cpuOfRows();
    std::vector<std::string> cpuNames(layout.rows.size());
    for (std::size_t r = 0; r < layout.rows.size(); ++r)
        cpuNames[cpuOfRow[r] - 1] =
            layout.nodes[layout.tasks[layout.rows[r].task].node] + "." + std::to_string(cpuOfRow[r]);
    std::fprintf(f, "LEVEL CPU SIZE %zu\n", cpuNames.size());
    for (const auto& n : cpuNames) std::fprintf(f, "%s\n", n.c_str());
    std::fprintf(f, "\nLEVEL NODE SIZE %zu\n", layout.nodes.size());
    for (const auto& n : layout.nodes) std::fprintf(f, "%s\n", n.c_str());
    std::fprintf(f, "\nLEVEL APPL SIZE 1\n%s\n", applicationName.c_str());
    std::fprintf(f, "\nLEVEL TASK SIZE %zu\n", layout.tasks.size());
    for (const auto& t : layout.tasks) std::fprintf(f, "%s\n", t.label.c_str());
    std::fprintf(f, "\nLEVEL THREAD SIZE %zu\n", layout.rows.size());
    for (const auto& t : layout.tasks)
        for (auto r : t.rows) std::fprintf(f, "%s\n", layout.rows[r].label.c_str());
}

} // namespace gpueff::paraver
