#include "engine/paraver/TraceLayout.h"

#include <ctime>

namespace gpueff::paraver {

std::uint32_t TraceLayout::addTask(std::string label, std::uint32_t node) {
    tasks.push_back(Task{std::move(label), node, {}, {}, -1});
    return static_cast<std::uint32_t>(tasks.size() - 1);
}

std::uint32_t TraceLayout::addRow(std::uint32_t task, RowKind kind, std::string label, std::int64_t device,
                                  std::int64_t stream) {
    auto row = static_cast<std::uint32_t>(rows.size());
    auto local = static_cast<std::uint32_t>(tasks[task].rows.size());
    rows.push_back(ThreadRow{kind, task, local, std::move(label), device, stream});
    tasks[task].rows.push_back(row);
    return row;
}

std::vector<std::uint32_t> TraceLayout::cpusPerNode() const {
    std::vector<std::uint32_t> cpus(nodes.size(), 0);
    for (const auto& t : tasks) cpus[t.node] += static_cast<std::uint32_t>(t.rows.size());
    return cpus;
}

TraceHeader TraceLayout::header(std::int64_t endTimeNs, const std::string& date) const {
    TraceHeader h;
    h.date = date;
    h.endTime = endTimeNs;
    h.unit = TimeUnit::Nanoseconds;
    h.cpusPerNode = cpusPerNode();
    auto& application = h.applications.emplace_back();
    for (const auto& t : tasks)
        application.push_back({static_cast<std::uint32_t>(t.rows.size()), t.node + 1});
    return h;
}

} // namespace gpueff::paraver

namespace gpueff::paraver {

std::vector<std::uint32_t> TraceLayout::cpuOfRows() const {
    std::vector<std::uint32_t> base(nodes.size() + 1, 0);
    auto cpus = cpusPerNode();
    for (std::size_t n = 0; n < cpus.size(); ++n) base[n + 1] = base[n] + cpus[n];
    std::vector<std::uint32_t> next(base.begin(), base.end() - 1);
    std::vector<std::uint32_t> cpu(rows.size(), 0);
    for (const auto& t : tasks)
        for (auto r : t.rows) cpu[r] = ++next[t.node];
    return cpu;
}

} // namespace gpueff::paraver

namespace gpueff::paraver {

std::string headerDate(std::int64_t utcNs) {
    std::time_t t = utcNs > 0 ? static_cast<std::time_t>(utcNs / 1000000000) : 0;
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%d/%m/%Y at %H:%M", &tm);
    return buf;
}

} // namespace gpueff::paraver
