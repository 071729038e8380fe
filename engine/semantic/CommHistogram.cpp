#include "engine/semantic/CommHistogram.h"

#include "engine/semantic/HistogramColumns.h"
#include "engine/semantic/HistogramStatistic.h"
#include "engine/semantic/RowGroup.h"

namespace gpueff::semantic {

using namespace paraver::RecordBits;

void CommCell::add(bool send, double size) {
    written = true;
    auto& count = send ? sends : receives;
    auto& bytes = send ? bytesSent : bytesReceived;
    auto& lo = send ? minSent : minReceived;
    auto& hi = send ? maxSent : maxReceived;
    // Paraver's minimum starts at 0 and takes the next size while it is 0: zero-byte messages do not
    // set it once a sized one came.
    if (lo == 0.0 || size < lo) lo = size;
    if (size > hi) hi = size;
    count += 1;
    bytes += size;
}

namespace {

// How many records the window's record list keeps for a communication record that passed its filter
// (KRecordList::insert): a receive is one record, the logical one, unless the logical receive comes after the
// physical one; with both logical and physical selected, the physical receive is listed too.
int recordCopies(const paraver::CommunicationRecord& c, std::uint16_t type,
                 std::pair<bool, bool> logicalPhysical) {
    if (!(type & Recv)) return 1;
    bool logicalFirst = c.logicalRecv <= c.physicalRecv;
    if (type & Logical) return logicalFirst ? 0 : 1;
    if (!logicalFirst) return 1;
    auto [logical, physical] = logicalPhysical;
    return (logical && physical) ? 2 : 1;
}

} // namespace

CommunicationCells::CommunicationCells(const HistogramSpec& spec, const WindowSet& windows,
                                       std::vector<std::size_t> rows, std::int64_t begin, std::int64_t end)
    : spec_(spec), rows_(std::move(rows)), begin_(begin), end_(end) {
    partners_ = windows.rows(static_cast<std::size_t>(spec.control));
    cells_.assign(rows_.size(), std::vector<CommCell>(partners_));
}

void CommunicationCells::add(const WindowSet& windows, const RowGroup& group) {
    auto control = static_cast<std::size_t>(spec_.control);
    auto level = windows.level(control);
    const auto& ctx = windows.context();
    const auto& objects = ctx.objects;
    auto& cells = cells_;
    auto begin = begin_, end = end_;
    // One communication record of thread `th` at stream position `pos`, read for row `i`.
    auto read = [&](std::size_t i, std::uint32_t th, std::size_t pos) {
        const auto& stream = ctx.trace.walkingOrder(th);
        auto type = stream.type[pos];
        if (type == Empty || !(type & Comm)) return;
        if (stream.time[pos] < begin || stream.time[pos] > end) return;
        auto comm = stream.index[pos];
        if (!windows.passesCommunication(control, comm, type)) return;
        const auto& c = ctx.trace.communications[comm];
        bool send = (type & Send) != 0;
        std::size_t partner = 0;
        if (finerOrEqual(level, Level::Workload)) {
            partner = objects.ownerOfThread(level, send ? c.recvThread : c.sendThread);
        } else {
            // Resource levels: the partner's CPU (Paraver has no object for CPU 0, "unknown": not counted).
            auto cpu = send ? c.recvCpu : c.sendCpu;
            if (cpu == 0 || cpu > objects.cpuNode.size()) return;
            partner = level == Level::Cpu ? cpu - 1 : level == Level::Node ? objects.cpuNode[cpu - 1] : 0;
        }
        auto copies = recordCopies(c, type, windows.filterSelection(control));
        for (int n = 0; n < copies; ++n) cells[i][partner].add(send, static_cast<double>(c.size));
    };
    auto [firstRow, endRow] = group.rows(objects, level);
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        if (rows_[i] < firstRow || rows_[i] >= endRow) continue;
        if (finerOrEqual(level, Level::Workload)) {
            // A process-model row reads its threads' records.
            auto [first, last] = objects.children(level, rows_[i], Level::Thread);
            for (auto th = first; th <= last && first <= last; ++th) {
                const auto thread = static_cast<std::uint32_t>(th);
                const auto records = ctx.trace.walkingOrder(thread).size();
                for (std::size_t pos = 0; pos < records; ++pos) read(i, thread, pos);
            }
        } else {
            // A resource row reads the records of its CPUs, whatever thread they belong to.
            auto [first, last] = objects.children(level, rows_[i], Level::Cpu);
            for (auto cpu = first; cpu <= last && first <= last; ++cpu)
                for (const auto& r : windows.cpuRecords()->perCpu[cpu]) read(i, r.thread, r.pos);
        }
    }
}

HistogramTable CommunicationCells::table(const WindowSet& windows) const {
    auto control = static_cast<std::size_t>(spec_.control);
    HistogramTable t;
    t.name = spec_.name;
    t.statistic = spec_.statistic->name;
    t.horizontal = spec_.horizontal;
    t.beginTime = begin_;
    t.endTime = end_;
    for (auto r : rows_) t.rowLabels.push_back(windows.rowLabel(control, r, true, true));
    std::vector<std::vector<std::optional<double>>> all(rows_.size(),
                                                        std::vector<std::optional<double>>(partners_));
    auto value = spec_.statistic->messages; // the cfg's statistic, resolved when it was read
    for (std::size_t i = 0; i < rows_.size(); ++i)
        for (std::size_t k = 0; k < partners_; ++k)
            if (cells_[i][k].written) all[i][k] = value(cells_[i][k]);
    fillColumns(t, all, printedColumns(spec_, all, all, partners_),
                [&](std::size_t k) { return windows.rowLabel(control, k, true, true); });
    return t;
}

} // namespace gpueff::semantic
