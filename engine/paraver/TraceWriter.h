#pragma once
#include "engine/paraver/Trace.h"

#include <filesystem>
#include <string>

namespace gpueff::paraver {

// The header line of `header` as Paraver writes it.
std::string formatHeader(const TraceHeader& header);

// Writes a trace read by readPrv back as a .prv (records sorted by time; the pairs of one event record on
// one line). With the .pcf and .row copied beside it, reading it again gives the same trace.
void writeTrace(const Trace& trace, const std::filesystem::path& path);

} // namespace gpueff::paraver
