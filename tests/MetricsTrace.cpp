#include "MetricsTrace.h"

#include "engine/paraver/PrvReader.h"
#include "engine/paraver/TraceLabels.h"

#include <algorithm>
#include <sstream>

namespace testsupport {

namespace {

long long firstTime(const std::string& record) {
    std::size_t at = 0;
    for (int field = 0; field < 5; ++field) at = record.find(':', at) + 1;
    return std::stoll(record.substr(at, record.find(':', at) - at));
}

} // namespace

std::unique_ptr<gpueff::semantic::LoadedTrace> memoryTrace(const std::string& header,
                                                           std::vector<std::string> records,
                                                           const std::string& pcf, const std::string& row) {
    std::stable_sort(records.begin(), records.end(),
                     [](const auto& a, const auto& b) { return firstTime(a) < firstTime(b); });
    std::string text = header + "\n";
    for (const auto& r : records) text += r + "\n";
    auto trace = gpueff::paraver::readPrvText(text, "memory.prv");
    gpueff::paraver::TraceLabels labels;
    std::istringstream pcfText(pcf), rowText(row);
    if (!pcf.empty()) gpueff::paraver::readPcf(pcfText, "memory.pcf", labels);
    if (!row.empty())
        gpueff::paraver::readRow(rowText, "memory.row", labels,
                                 gpueff::semantic::expectedRowSizes(trace.header));
    auto loaded = std::make_unique<gpueff::semantic::LoadedTrace>(std::move(trace), std::move(labels));
    loaded->path = "memory.prv";
    return loaded;
}

std::string event(int cpu, int task, int thread, long long time, unsigned type, long long value) {
    std::ostringstream out;
    out << "2:" << cpu << ":1:" << task << ":" << thread << ":" << time << ":" << type << ":" << value;
    return out.str();
}

std::vector<std::string> interval(int cpu, int task, int thread, long long begin, long long end,
                                  unsigned type, long long value) {
    return {event(cpu, task, thread, begin, type, value), event(cpu, task, thread, end, type, 0)};
}

std::string message(int sendCpu, int sendTask, int sendThread, int recvCpu, int recvTask, int recvThread,
                    long long logicalSend, long long physicalSend, long long receive, long long tag) {
    std::ostringstream out;
    out << "3:" << sendCpu << ":1:" << sendTask << ":" << sendThread << ":" << logicalSend << ":"
        << physicalSend << ":" << recvCpu << ":1:" << recvTask << ":" << recvThread << ":" << receive << ":"
        << receive << ":0:" << tag;
    return out.str();
}

} // namespace testsupport
