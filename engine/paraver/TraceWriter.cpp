#include "engine/paraver/TraceWriter.h"

#include "engine/common/Error.h"
#include "engine/output/OutputFiles.h"

#include <algorithm>
#include <cstdio>
#include <memory>

namespace gpueff::paraver {

std::string formatHeader(const TraceHeader& h) {
    std::string s = "#Paraver (" + h.date + "):" + std::to_string(h.endTime) + unitSuffix(h.unit) + ":";
    if (h.cpusPerNode.empty())
        s += "0";
    else {
        s += std::to_string(h.cpusPerNode.size()) + "(";
        for (std::size_t i = 0; i < h.cpusPerNode.size(); ++i)
            s += (i ? "," : "") + std::to_string(h.cpusPerNode[i]);
        s += ")";
    }
    s += ":" + std::to_string(h.applications.size());
    for (const auto& appl : h.applications) {
        s += ":" + std::to_string(appl.size()) + "(";
        for (std::size_t i = 0; i < appl.size(); ++i)
            s += (i ? "," : "") + std::to_string(appl[i].threads) + ":" + std::to_string(appl[i].node);
        s += ")";
    }
    if (h.communicators > 0) s += "," + std::to_string(h.communicators);
    return s;
}

void writeTrace(const Trace& trace, const std::filesystem::path& path) {
    // Global thread index -> "appl:task:thread".
    std::vector<std::string> objects;
    for (std::size_t a = 0; a < trace.header.applications.size(); ++a)
        for (std::size_t t = 0; t < trace.header.applications[a].size(); ++t)
            for (std::uint32_t th = 0; th < trace.header.applications[a][t].threads; ++th)
                objects.push_back(std::to_string(a + 1) + ":" + std::to_string(t + 1) + ":" +
                                  std::to_string(th + 1));
    struct Line {
        std::int64_t time;
        int kind;
        std::string text;
    };
    std::vector<Line> lines;
    for (std::size_t th = 0; th < trace.threads.size(); ++th) {
        const auto& r = trace.threads[th];
        for (std::size_t i = 0; i < r.stateBegin.size(); ++i)
            lines.push_back({r.stateBegin[i], 1,
                             "1:" + std::to_string(r.stateCpu[i]) + ":" + objects[th] + ":" +
                                 std::to_string(r.stateBegin[i]) + ":" + std::to_string(r.stateEnd[i]) + ":" +
                                 std::to_string(r.stateValue[i])});
        for (std::size_t i = 0; i < r.eventTime.size();) {
            std::string text = "2:" + std::to_string(r.eventCpu[i]) + ":" + objects[th] + ":" +
                               std::to_string(r.eventTime[i]);
            std::size_t j = i;
            for (;
                 j < r.eventTime.size() && r.eventTime[j] == r.eventTime[i] && r.eventCpu[j] == r.eventCpu[i];
                 ++j)
                text += ":" + std::to_string(r.eventType[j]) + ":" + std::to_string(r.eventValue[j]);
            lines.push_back({r.eventTime[i], 2, std::move(text)});
            i = j;
        }
    }
    for (const auto& c : trace.communications)
        lines.push_back({c.logicalSend, 3,
                         "3:" + std::to_string(c.sendCpu) + ":" + objects[c.sendThread] + ":" +
                             std::to_string(c.logicalSend) + ":" + std::to_string(c.physicalSend) + ":" +
                             std::to_string(c.recvCpu) + ":" + objects[c.recvThread] + ":" +
                             std::to_string(c.logicalRecv) + ":" + std::to_string(c.physicalRecv) + ":" +
                             std::to_string(c.size) + ":" + std::to_string(c.tag)});
    std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
        return a.time != b.time ? a.time < b.time : a.kind < b.kind;
    });
    output::OutputFiles files({path});
    std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(files.temporary(0).c_str(), "w"), &std::fclose);
    if (!f) throw Error(path.string() + ": cannot write");
    std::fprintf(f.get(), "%s\n", formatHeader(trace.header).c_str());
    for (const auto& c : trace.communicatorLines) std::fprintf(f.get(), "%s\n", c.c_str());
    for (const auto& l : lines) std::fprintf(f.get(), "%s\n", l.text.c_str());
    if (std::fflush(f.get()) != 0) throw Error(path.string() + ": write failed");
    f.reset();
    files.commit();
}

} // namespace gpueff::paraver
