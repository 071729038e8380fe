#pragma once
// Who wrote a Paraver trace, as far as its own files tell, and what that writer's records carry where the
// GPU metrics depend on it (docs/report.md, "Traces not written by gpueff"). gpueff translate and BSC's
// nsys2prv share the event types the device model reads (63000006 kernel, 63000007 NCCL kernel, 63000008
// graph launch, 63000001 memory operation, on CUDA-D<d>.S<s> rows) but not everything around them.
#include "engine/semantic/LoadedTrace.h"

#include <cstdint>
#include <string>

namespace gpueff::metrics {

enum class TraceWriter { Gpueff, Nsys2prv, Other };

// "gpueff", "nsys2prv" or "other" (report.json trace.writer).
const char* writerName(TraceWriter writer);

// gpueff translate: the trace's provenance names a translation (paraver/Provenance.h); nsys2prv: its .pcf
// labels of the CUDA types ("CUDA kernel" 63000006 with "CUDA memcpy kernel" 63000001 or "CUDA library call"
// 63000000), which gpueff does not write. Anything else is Other.
TraceWriter recogniseWriter(const semantic::LoadedTrace& trace);

// Launch lines (tag 55001) that leave when the launch call returned: gpueff translate writes the call's
// start as logical and its end as physical send; nsys2prv writes the start as both. False when the trace
// has launch lines and none of them has a physical send after its logical send.
bool launchLinesCarryCallEnds(const semantic::LoadedTrace& trace);

// GPU work records that begin while another of the same type is still running on the same row (rows
// `rows`): Paraver's last-event-value semantics end the first one there, so the busy time of those rows is
// under-counted. gpueff translate moves such work to lanes of its own (CUDA-D0.S7.1); nsys2prv does not.
std::uint64_t overlappingWorkRecords(const semantic::LoadedTrace& trace,
                                     const std::vector<std::size_t>& rows);

} // namespace gpueff::metrics
