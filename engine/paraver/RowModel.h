#pragma once
// What the rows of a Paraver trace are when the trace comes from a file: gpueff's own labels in the .row
// ("CUDA-D<d>.S<s>[.<lane>]" stream rows, "Metrics GPU<k>" rows, tasks "<process> <pid>@<host>"), which
// nsys2prv's stream rows share. Importers that know the objects (nsys) fill the layout themselves.
#include "engine/paraver/TraceHeader.h"
#include "engine/paraver/TraceLabels.h"
#include "engine/paraver/TraceLayout.h"

#include <cstdint>
#include <string>

namespace gpueff::paraver {

// One task per header task (all applications, in order), one row per thread; a task without a label is
// "task <n>"; nodes are the .row's NODE names (or "node <n>").
TraceLayout layoutFromLabels(const TraceHeader& header, const TraceLabels& labels);

// "<process> <pid>@<host>" -> pid and host (pid -1 and host empty when the label has another form).
void parseTaskLabel(const std::string& label, std::int64_t& pid, std::string& host);

} // namespace gpueff::paraver
