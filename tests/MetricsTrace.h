#pragma once
// Small Paraver traces built in memory (no file) for the unit tests of metrics/: the records, the .pcf and
// the .row as text, parsed by the engine's own readers. Expected values are worked out by hand in each test.
#include "engine/semantic/LoadedTrace.h"

#include <memory>
#include <string>
#include <vector>

namespace testsupport {

// `records`: Paraver record lines in any order (they are sorted by their first time, field 6, as a writer
// would emit them); `pcf` and `row` the text of the .pcf and .row files ("" for none).
std::unique_ptr<gpueff::semantic::LoadedTrace> memoryTrace(const std::string& header,
                                                           std::vector<std::string> records,
                                                           const std::string& pcf, const std::string& row);

// "2:cpu:1:task:thread:time:type:value", the event record of one type:value pair.
std::string event(int cpu, int task, int thread, long long time, unsigned type, long long value);
// The two event records of an interval of `type` with `value` on a row: value at begin, 0 at end.
std::vector<std::string> interval(int cpu, int task, int thread, long long begin, long long end,
                                  unsigned type, long long value);
// A communication line: logical and physical send, logical and physical receive, tag.
std::string message(int sendCpu, int sendTask, int sendThread, int recvCpu, int recvTask, int recvThread,
                    long long logicalSend, long long physicalSend, long long receive, long long tag);

} // namespace testsupport
