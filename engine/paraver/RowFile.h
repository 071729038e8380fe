#pragma once
#include "engine/paraver/TraceLayout.h"

#include <cstdio>
#include <string>

namespace gpueff::paraver {

// Writes the .row file: names of CPUs, nodes and threads (tasks and the application too, for Paraver's
// task- and application-level views).
void writeRowFile(std::FILE* f, const TraceLayout& layout, const std::string& applicationName);

} // namespace gpueff::paraver
